// PASS: apply-keep
// The solver chose to re-read X (`value = 0`): the resident buffer is dropped, both
// computes keep their DMA of X into their own staging buffers, the marks are removed.
// CHECK-NOT: ktdf.keep_resident
// CHECK-NOT: role = "resident"
// CHECK: ktdf.data_transfer from %Xv[{{.*}}] size [%n0, 256] to %{{.*}}[0, 0] size [%n0, 256] : memref<64x256xf16>, memref<?x256xf16, "LX">
// CHECK: ktdf.data_transfer from %Xv[{{.*}}] size [%n0_1, %n1] to %{{.*}}[0, 0] size [%n0_1, %n1] : memref<64x256xf16>, memref<?x?xf16, "LX">
// CHECK-NOT: ktdf.keep
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @rmsnorm(%X: index, %W: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %W, %Y) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %W: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %inv_n = arith.constant 3.906250e-03 : f32
      %eps = arith.constant 1.000000e-05 : f32
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Wv = ktdp.construct_memory_view %W, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      ktdf.keep_resident {decision = "p0.keep.X", operand = "X", value = 0 : i64}
      ktdf.pipeline {
        %0, %1, %2 = ktdf.private -> (memref<2xf32, "LX">, !ktdf.token, memref<2x256xf16, "LX">) {
          %3 = ktdf.buffer {elements_at_max = 2 : i64, role = "intermediate", operand = "ss", access_map = affine_map<(d0) -> (d0)>, tile_dims = [2 : i64]} : memref<2xf32, "LX">
          %4 = ktdf.token : !ktdf.token
          %5 = ktdf.buffer {ktdf.keep = "p0.keep.X", elements_at_max = 512 : i64, role = "resident", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [2 : i64, 256 : i64]} : memref<2x256xf16, "LX">
          ktdf.private_yield %3, %4, %5 : memref<2xf32, "LX">, !ktdf.token, memref<2x256xf16, "LX">
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c2 = arith.constant 2 : index
          %c256 = arith.constant 256 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
          scf.for %t0 = %c0_1 to %c2 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c2 : index
            ktdf.pipeline modulo(size: 1, decision = "p0.pipe.lx.modulo") {
              %6, %7 = ktdf.private -> (memref<?x256xf16, "LX">, !ktdf.token) {
                %8 = ktdf.buffer {ktdf.keep = "p0.keep.X", elements_at_max = 512 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 256 : i64]} : memref<?x256xf16, "LX">
                %9 = ktdf.token : !ktdf.token
                ktdf.private_yield %8, %9 : memref<?x256xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%7) {
                %10 = arith.constant 0 : index
                %11 = arith.addi %row, %t0 : index
                %12 = arith.addi %c0, %10 : index
                ktdf.data_transfer from %Xv[%11, %12] size [%n0, 256] to %6[0, 0] size [%n0, 256] {ktdf.keep = "p0.keep.X", ktdf.keep_role = "fill"} : memref<64x256xf16>, memref<?x256xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%7) depends_out(none) {
                ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = 2) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                  %13 = ktdf.tiling.linearize_index %t0, %p0 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %14, %15, %16, %17 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token) {
                      %18 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      %19 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                      %20 = ktdf.token : !ktdf.token
                      %21 = ktdf.token : !ktdf.token
                      ktdf.private_yield %18, %19, %20, %21 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%16) {
                      scf.for %22 = %c0_1 to %c256 step %c32 {
                        %vec = ktdf.tiling.derive_size %22, %c32, %c256 : index
                        ktdf.data_transfer from %6[%p0, %22] size [1, %vec] to %14 size [1, %vec] : memref<?x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%16) depends_out(%17) {
                      %23 = tensor.empty() : tensor<1xf32>
                      %24 = linalg.fill ins(%zero : f32) outs(%23 : tensor<1xf32>) -> tensor<1xf32>
                      %25 = scf.for %26 = %c0_1 to %c256 step %c32 iter_args(%27 = %24) -> (tensor<1xf32>) {
                        %28 = ktdf.read_from_fifo %14 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                        %29 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%28 : tensor<1x32xf16>) outs(%27 : tensor<1xf32>) {
                        ^bb0(%xe: f16, %acc: f32):
                          %xf = arith.extf %xe : f16 to f32
                          %sq = arith.mulf %xf, %xf : f32
                          %a = arith.addf %sq, %acc : f32
                          linalg.yield %a : f32
                        } -> tensor<1xf32>
                        scf.yield %29 : tensor<1xf32>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                      ktdf.write_to_fifo %25, %15 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%17) depends_out(none) {
                      ktdf.data_transfer from %15 size [1] to %0[%13] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<2xf32, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              } {applicable_units = ["load", "sfu", "store"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%1) depends_out(none) {
          %c2_1 = arith.constant 2 : index
          %c256_1 = arith.constant 256 : index
          %c1_1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 256 : i64, min_value = 32 : i64, divisibility = 32 : i64, value = 256 : i64} : index
          ktdf.pipeline {
            %30, %31 = ktdf.private -> (memref<256xf16, "LX">, !ktdf.token) {
              %32 = ktdf.buffer {elements_at_max = 256 : i64, role = "input", operand = "W", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = [1 : i64, 256 : i64]} : memref<256xf16, "LX">
              %33 = ktdf.token : !ktdf.token
              ktdf.private_yield %32, %33 : memref<256xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%31) {
              %34 = arith.addi %c0, %c0_2 : index
              ktdf.data_transfer from %Wv[%34] size [256] to %30[0] size [256] : memref<256xf16>, memref<256xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%31) depends_out(none) {
              scf.for %t0_1 = %c0_2 to %c2_1 step %T0_1 {
                %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c2_1 : index
                scf.for %t1 = %c0_2 to %c256_1 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c256_1 : index
                  ktdf.pipeline modulo(size: 1, decision = "p0.c1.pipe.lx.modulo") {
                    %35, %36, %37, %38 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
                      %39 = ktdf.buffer {ktdf.keep = "p0.keep.X", elements_at_max = 512 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %40 = ktdf.buffer {elements_at_max = 512 : i64, role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %41 = ktdf.token : !ktdf.token
                      %42 = ktdf.token : !ktdf.token
                      ktdf.private_yield %39, %40, %41, %42 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%37) {
                      %43 = arith.addi %row, %t0_1 : index
                      %44 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %Xv[%43, %44] size [%n0_1, %n1] to %35[0, 0] size [%n0_1, %n1] {ktdf.keep = "p0.keep.X", ktdf.keep_role = "reread"} : memref<64x256xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%37) depends_out(%38) {
                      ktdf.parallel (%p0_1) = (%c0_2) to (%n0_1) step (%c1_1) distribute(num_instances = 1) {decision = "p0.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                        %45 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                        ktdf.parallel (%p1) = (%c0_2) to (%n1) step (%c32_1) distribute(num_instances = 2) {decision = "p0.c1.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                          %46 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %vec_1 = ktdf.tiling.derive_size %46, %c32_1, %c256_1 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                            %47, %48, %49, %50, %51, %52 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                              %53 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                              %54 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              %55 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                              %56 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                              %57 = ktdf.token : !ktdf.token
                              %58 = ktdf.token : !ktdf.token
                              ktdf.private_yield %53, %54, %55, %56, %57, %58 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%51) {
                              ktdf.data_transfer from %35[%p0_1, %p1] size [1, %vec_1] to %47 size [1, %vec_1] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                              ktdf.data_transfer from %0[%45] size [1] to %48 size [1, %vec_1] {transfer_mode = "splat"} : memref<2xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              ktdf.data_transfer from %30[%46] size [%vec_1] to %49 size [%vec_1] : memref<256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%51) depends_out(%52) {
                              %59 = ktdf.read_from_fifo %47 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                              %60 = ktdf.read_from_fifo %48 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                              %61 = ktdf.read_from_fifo %49 : !ktdf.fifo.slot<"load" -> "sfu", 32xf16> -> tensor<32xf16>
                              %62 = tensor.empty() : tensor<1x32xf16>
                              %63 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%59, %60, %61 : tensor<1x32xf16>, tensor<1x32xf32>, tensor<32xf16>) outs(%62 : tensor<1x32xf16>) {
                              ^bb0(%64: f16, %65: f32, %66: f16, %67: f16):
                                %mean = arith.mulf %65, %inv_n : f32
                                %v = arith.addf %mean, %eps : f32
                                %inv = spyreop.rsqrt %v : f32
                                %xf_1 = arith.extf %64 : f16 to f32
                                %wf = arith.extf %66 : f16 to f32
                                %nrm = arith.mulf %xf_1, %inv : f32
                                %sc = arith.mulf %nrm, %wf : f32
                                %h = arith.truncf %sc : f32 to f16
                                linalg.yield %h : f16
                              } -> tensor<1x32xf16>
                              ktdf.write_to_fifo %63, %50 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                            } {applicable_units = ["sfu"]}
                            ktdf.stage depends_in(%52) depends_out(none) {
                              ktdf.data_transfer from %50 size [1, %vec_1] to %36[%p0_1, %p1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                            } {applicable_units = ["store"]}
                          }
                        }
                      }
                    } {applicable_units = ["load", "sfu", "store"]}
                    ktdf.stage depends_in(%38) depends_out(none) {
                      %68 = arith.addi %row, %t0_1 : index
                      %69 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %36[0, 0] size [%n0_1, %n1] to %Yv[%68, %69] size [%n0_1, %n1] : memref<?x?xf16, "LX">, memref<64x256xf16>
                    } {applicable_units = ["dma"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["dma", "load", "sfu", "store"]}
          }
        } {applicable_units = ["dma", "load", "sfu", "store"]}
      }
      func.return
    }
  }
}