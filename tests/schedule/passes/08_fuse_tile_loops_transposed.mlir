// PASS: fuse-tile-loops
// Negative case: the transpose after the matmul walks the result's columns as its rows,
// so its tiles are not the matmul's (extents 16 x 8 against 8 x 16): the two computes
// stay stages of their own, the transpose's tile decisions with them.
// CHECK: ktdf.stage depends_in(none) depends_out(%[[DONE:.*]]) {
// CHECK: decision = "p0.tile.lx.d0"
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0"}
// CHECK: ktdf.stage depends_in(%[[DONE]]) depends_out(none) {
// CHECK-NEXT: arith.constant
// CHECK: decision = "p0.c1.tile.lx.d0"
// CHECK: decision = "p0.c1.tile.lx.d1"
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0.c1"}
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @named_matmul_transpose(%A: index, %B: index, %D: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%A, %B, %D) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %D: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c8 : index
      %Av = ktdp.construct_memory_view %A, sizes: [16, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [32, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
      %Dv = ktdp.construct_memory_view %D, sizes: [16, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
      %0 = arith.constant 0.000000e+00 : f16
      ktdf.pipeline {
        %1, %2 = ktdf.private -> (memref<8x16xf16, "LX">, !ktdf.token) {
          %3 = ktdf.buffer {role = "intermediate", operand = "p", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [8 : i64, 16 : i64]} : memref<8x16xf16, "LX">
          %4 = ktdf.token : !ktdf.token
          ktdf.private_yield %3, %4 : memref<8x16xf16, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%2) {
          %c8_1 = arith.constant 8 : index
          %c16 = arith.constant 16 : index
          %c32 = arith.constant 32 : index
          %c0_1 = arith.constant 0 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 8 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 16 : i64, min_value = 16 : i64, divisibility = 16 : i64} : index
          ktdf.pipeline {
            %5, %6 = ktdf.private -> (memref<32x16xf16, "LX">, !ktdf.token) {
              %7 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = [1 : i64, 16 : i64, 32 : i64]} : memref<32x16xf16, "LX">
              %8 = ktdf.token : !ktdf.token
              ktdf.private_yield %7, %8 : memref<32x16xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%6) {
              %9 = arith.constant 0 : index
              %10 = arith.addi %c0, %9 : index
              %11 = arith.addi %c0, %c0_1 : index
              ktdf.data_transfer from %Bv[%10, %11] size [32, 16] to %5[0, 0] size [32, 16] : memref<32x16xf16>, memref<32x16xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%6) depends_out(none) {
              scf.for %t0 = %c0_1 to %c8_1 step %T0 {
                %n0 = ktdf.tiling.derive_size %t0, %T0, %c8_1 : index
                scf.for %t1 = %c0_1 to %c16 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c16 : index
                  ktdf.pipeline {
                    %12, %13 = ktdf.private -> (memref<?x32xf16, "LX">, !ktdf.token) {
                      %14 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 32 : i64]} : memref<?x32xf16, "LX">
                      %15 = ktdf.token : !ktdf.token
                      ktdf.private_yield %14, %15 : memref<?x32xf16, "LX">, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%13) {
                      %16 = arith.constant 0 : index
                      %17 = arith.addi %row, %t0 : index
                      %18 = arith.addi %c0, %16 : index
                      ktdf.data_transfer from %Av[%17, %18] size [%n0, 32] to %12[0, 0] size [%n0, 32] : memref<16x32xf16>, memref<?x32xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%13) depends_out(none) {
                      scf.for %p0 = %c0_1 to %n0 step %c8_1 {
                        %19 = ktdf.tiling.linearize_index %t0, %p0 : index
                        scf.for %p1 = %c0_1 to %n1 step %c16 {
                          %20 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %blk = ktdf.tiling.derive_size %19, %c8_1, %c8_1 : index
                          %blk_1 = ktdf.tiling.derive_size %20, %c16, %c16 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0"} {
                            %21, %22, %23, %24, %25 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x16xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x16xf16>, !ktdf.token, !ktdf.token) {
                              %26 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %27 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x16xf16>
                              %28 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x16xf16>
                              %29 = ktdf.token : !ktdf.token
                              %30 = ktdf.token : !ktdf.token
                              ktdf.private_yield %26, %27, %28, %29, %30 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x16xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x16xf16>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%24) {
                              scf.for %31 = %c0_1 to %c32 step %c32 {
                                %vec = ktdf.tiling.derive_size %31, %c32, %c32 : index
                                ktdf.data_transfer from %12[%p0, %31] size [%blk, %vec] to %21 size [%blk, %vec] : memref<?x32xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %5[%31, %20] size [%vec, %blk_1] to %22 size [%vec, %blk_1] : memref<32x16xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x16xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%24) depends_out(%25) {
                              %32 = tensor.empty() : tensor<8x16xf16>
                              %33 = linalg.fill ins(%0 : f16) outs(%32 : tensor<8x16xf16>) -> tensor<8x16xf16>
                              %34 = scf.for %35 = %c0_1 to %c32 step %c32 iter_args(%36 = %33) -> (tensor<8x16xf16>) {
                                %37 = ktdf.read_from_fifo %21 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                                %38 = ktdf.read_from_fifo %22 : !ktdf.fifo.slot<"load" -> "systolic", 32x16xf16> -> tensor<32x16xf16>
                                %39 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%37, %38 : tensor<8x32xf16>, tensor<32x16xf16>) outs(%36 : tensor<8x16xf16>) {
                                ^bb0(%40: f16, %41: f16, %42: f16):
                                  %43 = arith.mulf %40, %41 : f16
                                  %44 = arith.addf %42, %43 : f16
                                  linalg.yield %44 : f16
                                } -> tensor<8x16xf16>
                                scf.yield %39 : tensor<8x16xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %34, %23 : tensor<8x16xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x16xf16>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%25) depends_out(none) {
                              ktdf.data_transfer from %23 size [%blk, %blk_1] to %1[%19, %20] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x16xf16>, memref<8x16xf16, "LX">
                            } {applicable_units = ["store"]}
                          }
                        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load", "systolic", "store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["dma", "load", "systolic", "store"]}
          }
        } {applicable_units = ["dma", "load", "systolic", "store"]}
        ktdf.stage depends_in(%2) depends_out(none) {
          %c16_1 = arith.constant 16 : index
          %c8_2 = arith.constant 8 : index
          %c1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 16 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 8 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          scf.for %t0_1 = %c0_2 to %c16_1 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c16_1 : index
            scf.for %t1_1 = %c0_2 to %c8_2 step %T1_1 {
              %n1_1 = ktdf.tiling.derive_size %t1_1, %T1_1, %c8_2 : index
              ktdf.pipeline {
                %45, %46 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %47 = ktdf.buffer {role = "output", operand = "D", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %48 = ktdf.token : !ktdf.token
                  ktdf.private_yield %47, %48 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%46) {
                  scf.for %p0_1 = %c0_2 to %n0_1 step %c1 {
                    %49 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    scf.for %p1_1 = %c0_2 to %n1_1 step %c8_2 {
                      %50 = ktdf.tiling.linearize_index %t1_1, %p1_1 : index
                      %vec_1 = ktdf.tiling.derive_size %50, %c8_2, %c8_2 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %51, %52, %53, %54 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 8x1xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x8xf16>, !ktdf.token, !ktdf.token) {
                          %55 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 8x1xf16>
                          %56 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x8xf16>
                          %57 = ktdf.token : !ktdf.token
                          %58 = ktdf.token : !ktdf.token
                          ktdf.private_yield %55, %56, %57, %58 : !ktdf.fifo.slot<"load" -> "sfu", 8x1xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x8xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%53) {
                          ktdf.data_transfer from %1[%50, %49] size [%vec_1, 1] to %51 size [%vec_1, 1] : memref<8x16xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 8x1xf16>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%53) depends_out(%54) {
                          %59 = ktdf.read_from_fifo %51 : !ktdf.fifo.slot<"load" -> "sfu", 8x1xf16> -> tensor<8x1xf16>
                          %60 = tensor.empty() : tensor<1x8xf16>
                          %61 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%59 : tensor<8x1xf16>) outs(%60 : tensor<1x8xf16>) {
                          ^bb0(%62: f16, %63: f16):
                            linalg.yield %62 : f16
                          } -> tensor<1x8xf16>
                          ktdf.write_to_fifo %61, %52 : tensor<1x8xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x8xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%54) depends_out(none) {
                          ktdf.data_transfer from %52 size [1, %vec_1] to %45[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x8xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%46) depends_out(none) {
                  %64 = arith.addi %c0, %t0_1 : index
                  %65 = arith.addi %row, %t1_1 : index
                  ktdf.data_transfer from %45[0, 0] size [%n0_1, %n1_1] to %Dv[%64, %65] size [%n0_1, %n1_1] : memref<?x?xf16, "LX">, memref<16x16xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["load", "sfu", "store", "dma"]}
      }
      func.return
    }
  }
}
