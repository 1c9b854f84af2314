// PASS: fuse-tile-loops
// Negative case: C's view is built on A's pointer (the product written over A), so the
// rounding's store of a tile would land before the matmul's later tiles read A: the two
// computes stay stages of their own, the rounding's tile decisions with them.
// CHECK: %Cv = ktdp.construct_memory_view %A,
// CHECK: ktdf.stage depends_in(none) depends_out(%[[DONE:.*]]) {
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0"}
// CHECK: ktdf.stage depends_in(%[[DONE]]) depends_out(none) {
// CHECK: decision = "p0.c1.tile.lx.d0"
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0.c1"}
// CHECK: to %Cv[
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [4 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 16 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Av = ktdp.construct_memory_view %A, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      %Cv = ktdp.construct_memory_view %A, sizes: [64, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<16x128xf32, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {role = "intermediate", operand = "s", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [16 : i64, 128 : i64]} : memref<16x128xf32, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<16x128xf32, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c16 = arith.constant 16 : index
          %c128 = arith.constant 128 : index
          %c256 = arith.constant 256 : index
          %c8 = arith.constant 8 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 16 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          ktdf.pipeline {
            %4, %5 = ktdf.private -> (memref<256x128xf16, "LX">, !ktdf.token) {
              %6 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = [1 : i64, 128 : i64, 256 : i64]} : memref<256x128xf16, "LX">
              %7 = ktdf.token : !ktdf.token
              ktdf.private_yield %6, %7 : memref<256x128xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%5) {
              %8 = arith.constant 0 : index
              %9 = arith.addi %c0, %8 : index
              %10 = arith.addi %c0, %c0_1 : index
              ktdf.data_transfer from %Bv[%9, %10] size [256, 128] to %4[0, 0] size [256, 128] : memref<256x128xf16>, memref<256x128xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%5) depends_out(none) {
              scf.for %t0 = %c0_1 to %c16 step %T0 {
                %n0 = ktdf.tiling.derive_size %t0, %T0, %c16 : index
                scf.for %t1 = %c0_1 to %c128 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c128 : index
                  ktdf.pipeline {
                    %11, %12 = ktdf.private -> (memref<?x256xf16, "LX">, !ktdf.token) {
                      %13 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 256 : i64]} : memref<?x256xf16, "LX">
                      %14 = ktdf.token : !ktdf.token
                      ktdf.private_yield %13, %14 : memref<?x256xf16, "LX">, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%12) {
                      %15 = arith.constant 0 : index
                      %16 = arith.addi %row, %t0 : index
                      %17 = arith.addi %c0, %15 : index
                      ktdf.data_transfer from %Av[%16, %17] size [%n0, 256] to %11[0, 0] size [%n0, 256] : memref<64x256xf16>, memref<?x256xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%12) depends_out(none) {
                      scf.for %p0 = %c0_1 to %n0 step %c8 {
                        %18 = ktdf.tiling.linearize_index %t0, %p0 : index
                        scf.for %p1 = %c0_1 to %n1 step %c64 {
                          %19 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %blk = ktdf.tiling.derive_size %18, %c8, %c16 : index
                          %blk_1 = ktdf.tiling.derive_size %19, %c64, %c128 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0"} {
                            %20, %21, %22, %23, %24 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                              %25 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %26 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              %27 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                              %28 = ktdf.token : !ktdf.token
                              %29 = ktdf.token : !ktdf.token
                              ktdf.private_yield %25, %26, %27, %28, %29 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%23) {
                              scf.for %30 = %c0_1 to %c256 step %c32 {
                                %vec = ktdf.tiling.derive_size %30, %c32, %c256 : index
                                ktdf.data_transfer from %11[%p0, %30] size [%blk, %vec] to %20 size [%blk, %vec] : memref<?x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %4[%30, %19] size [%vec, %blk_1] to %21 size [%vec, %blk_1] : memref<256x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%23) depends_out(%24) {
                              %31 = tensor.empty() : tensor<8x64xf32>
                              %32 = linalg.fill ins(%zero : f32) outs(%31 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %33 = scf.for %34 = %c0_1 to %c256 step %c32 iter_args(%35 = %32) -> (tensor<8x64xf32>) {
                                %36 = ktdf.read_from_fifo %20 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                                %37 = ktdf.read_from_fifo %21 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                                %38 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%36, %37 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%35 : tensor<8x64xf32>) {
                                ^bb0(%ae: f16, %be: f16, %acc: f32):
                                  %af = arith.extf %ae : f16 to f32
                                  %bf = arith.extf %be : f16 to f32
                                  %p = arith.mulf %af, %bf : f32
                                  %s = arith.addf %acc, %p : f32
                                  linalg.yield %s : f32
                                } -> tensor<8x64xf32>
                                scf.yield %38 : tensor<8x64xf32>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %33, %22 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%24) depends_out(none) {
                              ktdf.data_transfer from %22 size [%blk, %blk_1] to %0[%18, %19] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<16x128xf32, "LX">
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
        ktdf.stage depends_in(%1) depends_out(none) {
          %c16_1 = arith.constant 16 : index
          %c128_1 = arith.constant 128 : index
          %c1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 16 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 128 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          scf.for %t0_1 = %c0_2 to %c16_1 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c16_1 : index
            scf.for %t1_1 = %c0_2 to %c128_1 step %T1_1 {
              %n1_1 = ktdf.tiling.derive_size %t1_1, %T1_1, %c128_1 : index
              ktdf.pipeline {
                %39, %40 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %41 = ktdf.buffer {role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %42 = ktdf.token : !ktdf.token
                  ktdf.private_yield %41, %42 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%40) {
                  scf.for %p0_1 = %c0_2 to %n0_1 step %c1 {
                    %43 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    scf.for %p1_1 = %c0_2 to %n1_1 step %c32_1 {
                      %44 = ktdf.tiling.linearize_index %t1_1, %p1_1 : index
                      %vec_1 = ktdf.tiling.derive_size %44, %c32_1, %c128_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %45, %46, %47, %48 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                          %49 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %50 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                          %51 = ktdf.token : !ktdf.token
                          %52 = ktdf.token : !ktdf.token
                          ktdf.private_yield %49, %50, %51, %52 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%47) {
                          ktdf.data_transfer from %0[%43, %44] size [1, %vec_1] to %45 size [1, %vec_1] : memref<16x128xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%47) depends_out(%48) {
                          %53 = ktdf.read_from_fifo %45 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %54 = tensor.empty() : tensor<1x32xf16>
                          %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%53 : tensor<1x32xf32>) outs(%54 : tensor<1x32xf16>) {
                          ^bb0(%se: f32, %o: f16):
                            %r = arith.truncf %se : f32 to f16
                            linalg.yield %r : f16
                          } -> tensor<1x32xf16>
                          ktdf.write_to_fifo %55, %46 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%48) depends_out(none) {
                          ktdf.data_transfer from %46 size [1, %vec_1] to %39[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%40) depends_out(none) {
                  %56 = arith.addi %row, %t0_1 : index
                  %57 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %39[0, 0] size [%n0_1, %n1_1] to %Cv[%56, %57] size [%n0_1, %n1_1] : memref<?x?xf16, "LX">, memref<64x128xf16>
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
