// PASS: footprints
// An input read by two computes (a row max, then x - max) that the solver may keep
// resident (1.5 MB) or re-read (768 KB for the max's rows at one row per tile, plus
// chunks): both forms together need 2.25 MB, more than the 2 MiB scratchpad, but the
// smallest choice needs only the cheaper one, so the program is not refused.
// CHECK: ktdf.keep_resident {decision = "p0.keep.X", operand = "X"}
// CHECK: ktdf.buffer {ktdf.keep = "p0.keep.X", elements_at_max = 786432 : i64, role = "resident", operand = "X"
// CHECK: ktdf.buffer {ktdf.keep = "p0.keep.X", elements_at_max = 786432 : i64, role = "input", operand = "X"
// CHECK: ktdf.buffer {elements_at_max = 786432 : i64, role = "output", operand = "Y"
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @center_rows(%X: index, %Y: index) attributes {grid = [1 : i64]} {
    func.call @local_schedule_0(%X, %Y) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %X_view = ktdp.construct_memory_view %X, sizes: [2, 393216], strides: [393216, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 393215) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x393216xf16>
      %Y_view = ktdp.construct_memory_view %Y, sizes: [2, 393216], strides: [393216, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 393215) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x393216xf16>
      %neg_inf = arith.constant 0xfc00 : f16
      ktdf.keep_resident {decision = "p0.keep.X", operand = "X"}
      ktdf.pipeline {
        %0, %1, %2 = ktdf.private -> (memref<2xf16, "LX">, !ktdf.token, memref<2x393216xf16, "LX">) {
          %3 = ktdf.buffer {role = "intermediate", operand = "m", access_map = affine_map<(d0) -> (d0)>, tile_dims = [2 : i64]} : memref<2xf16, "LX">
          %4 = ktdf.token : !ktdf.token
          %5 = ktdf.buffer {ktdf.keep = "p0.keep.X", role = "resident", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [2 : i64, 393216 : i64]} : memref<2x393216xf16, "LX">
          ktdf.private_yield %3, %4, %5 : memref<2xf16, "LX">, !ktdf.token, memref<2x393216xf16, "LX">
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c2 = arith.constant 2 : index
          %c393216 = arith.constant 393216 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          scf.for %t0 = %c0_1 to %c2 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c2 : index
            ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
              %6, %7 = ktdf.private -> (memref<?x393216xf16, "LX">, !ktdf.token) {
                %8 = ktdf.buffer {ktdf.keep = "p0.keep.X", role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 393216 : i64]} : memref<?x393216xf16, "LX">
                %9 = ktdf.token : !ktdf.token
                ktdf.private_yield %8, %9 : memref<?x393216xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%7) {
                %10 = arith.constant 0 : index
                %11 = arith.addi %c0, %t0 : index
                %12 = arith.addi %c0, %10 : index
                ktdf.data_transfer from %X_view[%11, %12] size [%n0, 393216] to %6[0, 0] size [%n0, 393216] {ktdf.keep = "p0.keep.X", ktdf.keep_role = "fill"} : memref<2x393216xf16>, memref<?x393216xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%7) depends_out(none) {
                ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                  %13 = ktdf.tiling.linearize_index %t0, %p0 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %14, %15, %16, %17 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, !ktdf.token, !ktdf.token) {
                      %18 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %19 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf16>
                      %20 = ktdf.token : !ktdf.token
                      %21 = ktdf.token : !ktdf.token
                      ktdf.private_yield %18, %19, %20, %21 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%16) {
                      scf.for %22 = %c0_1 to %c393216 step %c64 {
                        %vec = ktdf.tiling.derive_size %22, %c64, %c393216 : index
                        ktdf.data_transfer from %6[%p0, %22] size [1, %vec] to %14 size [1, %vec] : memref<?x393216xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%16) depends_out(%17) {
                      %23 = tensor.empty() : tensor<1xf16>
                      %24 = linalg.fill ins(%neg_inf : f16) outs(%23 : tensor<1xf16>) -> tensor<1xf16>
                      %25 = scf.for %26 = %c0_1 to %c393216 step %c64 iter_args(%27 = %24) -> (tensor<1xf16>) {
                        %28 = ktdf.read_from_fifo %14 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                        %29 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%28 : tensor<1x64xf16>) outs(%27 : tensor<1xf16>) {
                        ^bb0(%30: f16, %31: f16):
                          %32 = arith.maxnumf %30, %31 : f16
                          linalg.yield %32 : f16
                        } -> tensor<1xf16>
                        scf.yield %29 : tensor<1xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.maxnumf"}
                      ktdf.write_to_fifo %25, %15 : tensor<1xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%17) depends_out(none) {
                      ktdf.data_transfer from %15 size [1] to %0[%13] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, memref<2xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              } {applicable_units = ["load", "sfu", "store"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%1) depends_out(none) {
          %c2_1 = arith.constant 2 : index
          %c393216_1 = arith.constant 393216 : index
          %c1_1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %c64_1 = arith.constant 64 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 393216 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0_1 = %c0_2 to %c2_1 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c2_1 : index
            scf.for %t1 = %c0_2 to %c393216_1 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c393216_1 : index
              ktdf.pipeline modulo(size: ?, decision = "p0.c1.pipe.lx.modulo") {
                %33, %34, %35, %36 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
                  %37 = ktdf.buffer {ktdf.keep = "p0.keep.X", role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %38 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %39 = ktdf.token : !ktdf.token
                  %40 = ktdf.token : !ktdf.token
                  ktdf.private_yield %37, %38, %39, %40 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%35) {
                  %41 = arith.addi %c0, %t0_1 : index
                  %42 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %X_view[%41, %42] size [%n0_1, %n1] to %33[0, 0] size [%n0_1, %n1] {ktdf.keep = "p0.keep.X", ktdf.keep_role = "reread"} : memref<2x393216xf16>, memref<?x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%35) depends_out(%36) {
                  ktdf.parallel (%p0_1) = (%c0_2) to (%n0_1) step (%c1_1) distribute(num_instances = ?) {decision = "p0.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %43 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    ktdf.parallel (%p1) = (%c0_2) to (%n1) step (%c64_1) distribute(num_instances = ?) {decision = "p0.c1.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                      %44 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %vec_1 = ktdf.tiling.derive_size %44, %c64_1, %c393216_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %45, %46, %47, %48, %49 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                          %50 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %51 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %52 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                          %53 = ktdf.token : !ktdf.token
                          %54 = ktdf.token : !ktdf.token
                          ktdf.private_yield %50, %51, %52, %53, %54 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%48) {
                          ktdf.data_transfer from %33[%p0_1, %p1] size [1, %vec_1] to %45 size [1, %vec_1] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          ktdf.data_transfer from %0[%43] size [1] to %46 size [1, %vec_1] {transfer_mode = "splat"} : memref<2xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%48) depends_out(%49) {
                          %55 = ktdf.read_from_fifo %45 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %56 = ktdf.read_from_fifo %46 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %57 = tensor.empty() : tensor<1x64xf16>
                          %58 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%55, %56 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%57 : tensor<1x64xf16>) {
                          ^bb0(%59: f16, %60: f16, %61: f16):
                            %62 = arith.subf %59, %60 : f16
                            linalg.yield %62 : f16
                          } -> tensor<1x64xf16>
                          ktdf.write_to_fifo %58, %47 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%49) depends_out(none) {
                          ktdf.data_transfer from %47 size [1, %vec_1] to %34[%p0_1, %p1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    }
                  }
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%36) depends_out(none) {
                  %63 = arith.addi %c0, %t0_1 : index
                  %64 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %34[0, 0] size [%n0_1, %n1] to %Y_view[%63, %64] size [%n0_1, %n1] : memref<?x?xf16, "LX">, memref<2x393216xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
      }
      func.return
    }
  }
}
