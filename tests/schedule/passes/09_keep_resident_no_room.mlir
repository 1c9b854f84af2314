// PASS: keep-resident
// Negative case: the same RMSNorm, but the kernel pins all but 1000 bytes of the 2 MiB
// scratchpad (ktdf.pinned_bytes), so the 1 KiB tile of X cannot stay resident: no
// choice is offered and nothing is marked (every compute keeps re-reading X).
// CHECK-NOT: ktdf.keep_resident
// CHECK-NOT: role = "resident"
// CHECK-NOT: ktdf.keep =
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @rmsnorm(%X: index, %W: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %W, %Y) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %W: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 2096152 : i64} {
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
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<2xf32, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {role = "intermediate", operand = "ss", access_map = affine_map<(d0) -> (d0)>, tile_dims = [2 : i64]} : memref<2xf32, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<2xf32, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c2 = arith.constant 2 : index
          %c256 = arith.constant 256 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          scf.for %t0 = %c0_1 to %c2 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c2 : index
            ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
              %4, %5 = ktdf.private -> (memref<?x256xf16, "LX">, !ktdf.token) {
                %6 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 256 : i64]} : memref<?x256xf16, "LX">
                %7 = ktdf.token : !ktdf.token
                ktdf.private_yield %6, %7 : memref<?x256xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%5) {
                %8 = arith.constant 0 : index
                %9 = arith.addi %row, %t0 : index
                %10 = arith.addi %c0, %8 : index
                ktdf.data_transfer from %Xv[%9, %10] size [%n0, 256] to %4[0, 0] size [%n0, 256] : memref<64x256xf16>, memref<?x256xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%5) depends_out(none) {
                ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                  %11 = ktdf.tiling.linearize_index %t0, %p0 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %12, %13, %14, %15 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token) {
                      %16 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      %17 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                      %18 = ktdf.token : !ktdf.token
                      %19 = ktdf.token : !ktdf.token
                      ktdf.private_yield %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%14) {
                      scf.for %20 = %c0_1 to %c256 step %c32 {
                        %vec = ktdf.tiling.derive_size %20, %c32, %c256 : index
                        ktdf.data_transfer from %4[%p0, %20] size [1, %vec] to %12 size [1, %vec] : memref<?x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%14) depends_out(%15) {
                      %21 = tensor.empty() : tensor<1xf32>
                      %22 = linalg.fill ins(%zero : f32) outs(%21 : tensor<1xf32>) -> tensor<1xf32>
                      %23 = scf.for %24 = %c0_1 to %c256 step %c32 iter_args(%25 = %22) -> (tensor<1xf32>) {
                        %26 = ktdf.read_from_fifo %12 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                        %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%26 : tensor<1x32xf16>) outs(%25 : tensor<1xf32>) {
                        ^bb0(%xe: f16, %acc: f32):
                          %xf = arith.extf %xe : f16 to f32
                          %sq = arith.mulf %xf, %xf : f32
                          %a = arith.addf %sq, %acc : f32
                          linalg.yield %a : f32
                        } -> tensor<1xf32>
                        scf.yield %27 : tensor<1xf32>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                      ktdf.write_to_fifo %23, %13 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%15) depends_out(none) {
                      ktdf.data_transfer from %13 size [1] to %0[%11] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<2xf32, "LX">
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
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 256 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          ktdf.pipeline {
            %28, %29 = ktdf.private -> (memref<256xf16, "LX">, !ktdf.token) {
              %30 = ktdf.buffer {role = "input", operand = "W", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = [1 : i64, 256 : i64]} : memref<256xf16, "LX">
              %31 = ktdf.token : !ktdf.token
              ktdf.private_yield %30, %31 : memref<256xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%29) {
              %32 = arith.addi %c0, %c0_2 : index
              ktdf.data_transfer from %Wv[%32] size [256] to %28[0] size [256] : memref<256xf16>, memref<256xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%29) depends_out(none) {
              scf.for %t0_1 = %c0_2 to %c2_1 step %T0_1 {
                %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c2_1 : index
                scf.for %t1 = %c0_2 to %c256_1 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c256_1 : index
                  ktdf.pipeline modulo(size: ?, decision = "p0.c1.pipe.lx.modulo") {
                    %33, %34, %35, %36 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
                      %37 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %38 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %39 = ktdf.token : !ktdf.token
                      %40 = ktdf.token : !ktdf.token
                      ktdf.private_yield %37, %38, %39, %40 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%35) {
                      %41 = arith.addi %row, %t0_1 : index
                      %42 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %Xv[%41, %42] size [%n0_1, %n1] to %33[0, 0] size [%n0_1, %n1] : memref<64x256xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%35) depends_out(%36) {
                      ktdf.parallel (%p0_1) = (%c0_2) to (%n0_1) step (%c1_1) distribute(num_instances = ?) {decision = "p0.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                        %43 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                        ktdf.parallel (%p1) = (%c0_2) to (%n1) step (%c32_1) distribute(num_instances = ?) {decision = "p0.c1.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                          %44 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %vec_1 = ktdf.tiling.derive_size %44, %c32_1, %c256_1 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                            %45, %46, %47, %48, %49, %50 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                              %51 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                              %52 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              %53 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                              %54 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                              %55 = ktdf.token : !ktdf.token
                              %56 = ktdf.token : !ktdf.token
                              ktdf.private_yield %51, %52, %53, %54, %55, %56 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%49) {
                              ktdf.data_transfer from %33[%p0_1, %p1] size [1, %vec_1] to %45 size [1, %vec_1] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                              ktdf.data_transfer from %0[%43] size [1] to %46 size [1, %vec_1] {transfer_mode = "splat"} : memref<2xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              ktdf.data_transfer from %28[%44] size [%vec_1] to %47 size [%vec_1] : memref<256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%49) depends_out(%50) {
                              %57 = ktdf.read_from_fifo %45 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                              %58 = ktdf.read_from_fifo %46 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                              %59 = ktdf.read_from_fifo %47 : !ktdf.fifo.slot<"load" -> "sfu", 32xf16> -> tensor<32xf16>
                              %60 = tensor.empty() : tensor<1x32xf16>
                              %61 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%57, %58, %59 : tensor<1x32xf16>, tensor<1x32xf32>, tensor<32xf16>) outs(%60 : tensor<1x32xf16>) {
                              ^bb0(%62: f16, %63: f32, %64: f16, %65: f16):
                                %mean = arith.mulf %63, %inv_n : f32
                                %v = arith.addf %mean, %eps : f32
                                %inv = spyreop.rsqrt %v : f32
                                %xf_1 = arith.extf %62 : f16 to f32
                                %wf = arith.extf %64 : f16 to f32
                                %nrm = arith.mulf %xf_1, %inv : f32
                                %sc = arith.mulf %nrm, %wf : f32
                                %h = arith.truncf %sc : f32 to f16
                                linalg.yield %h : f16
                              } -> tensor<1x32xf16>
                              ktdf.write_to_fifo %61, %48 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                            } {applicable_units = ["sfu"]}
                            ktdf.stage depends_in(%50) depends_out(none) {
                              ktdf.data_transfer from %48 size [1, %vec_1] to %34[%p0_1, %p1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                            } {applicable_units = ["store"]}
                          }
                        }
                      }
                    } {applicable_units = ["load", "sfu", "store"]}
                    ktdf.stage depends_in(%36) depends_out(none) {
                      %66 = arith.addi %row, %t0_1 : index
                      %67 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %34[0, 0] size [%n0_1, %n1] to %Yv[%66, %67] size [%n0_1, %n1] : memref<?x?xf16, "LX">, memref<64x256xf16>
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