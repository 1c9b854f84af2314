// PASS: chunk-reductions
// A 4096^3 f16 matmul on 32 tiles: its buffers at the smallest tiles (A 8 x 4096, B 4096
// x 64, the 128 x 4096 f32 product whole: 2 MiB) exceed spyre's 2 MiB scratchpad, but
// once fuse-tile-loops has put the rounding in the matmul's tile loop and
// tile-intermediates holds the product one tile at a time, they fit: the K loop is not
// chunked (no chunk decision, no chunk loop), the reduction is only tagged.
// CHECK-NOT: p0.tile.lx.d2
// CHECK: ktdf.buffer {role = "intermediate", operand = "s", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [128 : i64, 4096 : i64]} : memref<128x4096xf32, "LX">
// CHECK: %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 128 : i64
// CHECK: ktdf.reduction = "arith.addf"
// CHECK-NOT: p0.tile.lx.d2
// CHECK: func.return
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 128 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Av = ktdp.construct_memory_view %A, sizes: [4096, 4096], strides: [4096, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 4095) >= 0, d1 >= 0, ((d1 * -1) + 4095) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4096x4096xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [4096, 4096], strides: [4096, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 4095) >= 0, d1 >= 0, ((d1 * -1) + 4095) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4096x4096xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [4096, 4096], strides: [4096, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 4095) >= 0, d1 >= 0, ((d1 * -1) + 4095) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4096x4096xf16>
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<128x4096xf32, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {role = "intermediate", operand = "s", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [128 : i64, 4096 : i64]} : memref<128x4096xf32, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<128x4096xf32, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c128 = arith.constant 128 : index
          %c4096 = arith.constant 4096 : index
          %c8 = arith.constant 8 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 128 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 4096 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_1 to %c128 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c128 : index
            scf.for %t1 = %c0_1 to %c4096 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c4096 : index
              ktdf.pipeline {
                %4, %5, %6 = ktdf.private -> (memref<?x4096xf16, "LX">, memref<4096x?xf16, "LX">, !ktdf.token) {
                  %7 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 4096 : i64]} : memref<?x4096xf16, "LX">
                  %8 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 4096 : i64]} : memref<4096x?xf16, "LX">
                  %9 = ktdf.token : !ktdf.token
                  ktdf.private_yield %7, %8, %9 : memref<?x4096xf16, "LX">, memref<4096x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%6) {
                  %10 = arith.constant 0 : index
                  %11 = arith.addi %row, %t0 : index
                  %12 = arith.addi %c0, %10 : index
                  ktdf.data_transfer from %Av[%11, %12] size [%n0, 4096] to %4[0, 0] size [%n0, 4096] : memref<4096x4096xf16>, memref<?x4096xf16, "LX">
                  %13 = arith.addi %c0, %10 : index
                  %14 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Bv[%13, %14] size [4096, %n1] to %5[0, 0] size [4096, %n1] : memref<4096x4096xf16>, memref<4096x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%6) depends_out(none) {
                  scf.for %p0 = %c0_1 to %n0 step %c8 {
                    %15 = ktdf.tiling.linearize_index %t0, %p0 : index
                    scf.for %p1 = %c0_1 to %n1 step %c64 {
                      %16 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %blk = ktdf.tiling.derive_size %15, %c8, %c128 : index
                      %blk_1 = ktdf.tiling.derive_size %16, %c64, %c4096 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0"} {
                        %17, %18, %19, %20, %21 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                          %22 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                          %23 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          %24 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                          %25 = ktdf.token : !ktdf.token
                          %26 = ktdf.token : !ktdf.token
                          ktdf.private_yield %22, %23, %24, %25, %26 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%20) {
                          scf.for %27 = %c0_1 to %c4096 step %c32 {
                            %vec = ktdf.tiling.derive_size %27, %c32, %c4096 : index
                            ktdf.data_transfer from %4[%p0, %27] size [%blk, %vec] to %17 size [%blk, %vec] : memref<?x4096xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                            ktdf.data_transfer from %5[%27, %p1] size [%vec, %blk_1] to %18 size [%vec, %blk_1] : memref<4096x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%20) depends_out(%21) {
                          %28 = tensor.empty() : tensor<8x64xf32>
                          %29 = linalg.fill ins(%zero : f32) outs(%28 : tensor<8x64xf32>) -> tensor<8x64xf32>
                          %30 = scf.for %31 = %c0_1 to %c4096 step %c32 iter_args(%32 = %29) -> (tensor<8x64xf32>) {
                            %33 = ktdf.read_from_fifo %17 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                            %34 = ktdf.read_from_fifo %18 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                            %35 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%33, %34 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%32 : tensor<8x64xf32>) {
                            ^bb0(%ae: f16, %be: f16, %acc: f32):
                              %af = arith.extf %ae : f16 to f32
                              %bf = arith.extf %be : f16 to f32
                              %p = arith.mulf %af, %bf : f32
                              %s = arith.addf %acc, %p : f32
                              linalg.yield %s : f32
                            } -> tensor<8x64xf32>
                            scf.yield %35 : tensor<8x64xf32>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                          ktdf.write_to_fifo %30, %19 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                        } {applicable_units = ["systolic"]}
                        ktdf.stage depends_in(%21) depends_out(none) {
                          ktdf.data_transfer from %19 size [%blk, %blk_1] to %0[%15, %16] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<128x4096xf32, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "systolic", "store"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store"]}
        ktdf.stage depends_in(%1) depends_out(none) {
          %c128_1 = arith.constant 128 : index
          %c4096_1 = arith.constant 4096 : index
          %c1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 128 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 4096 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          scf.for %t0_1 = %c0_2 to %c128_1 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c128_1 : index
            scf.for %t1_1 = %c0_2 to %c4096_1 step %T1_1 {
              %n1_1 = ktdf.tiling.derive_size %t1_1, %T1_1, %c4096_1 : index
              ktdf.pipeline {
                %36, %37 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %38 = ktdf.buffer {role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %39 = ktdf.token : !ktdf.token
                  ktdf.private_yield %38, %39 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%37) {
                  scf.for %p0_1 = %c0_2 to %n0_1 step %c1 {
                    %40 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    scf.for %p1_1 = %c0_2 to %n1_1 step %c32_1 {
                      %41 = ktdf.tiling.linearize_index %t1_1, %p1_1 : index
                      %vec_1 = ktdf.tiling.derive_size %41, %c32_1, %c4096_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %42, %43, %44, %45 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                          %46 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %47 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                          %48 = ktdf.token : !ktdf.token
                          %49 = ktdf.token : !ktdf.token
                          ktdf.private_yield %46, %47, %48, %49 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%44) {
                          ktdf.data_transfer from %0[%40, %41] size [1, %vec_1] to %42 size [1, %vec_1] : memref<128x4096xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%44) depends_out(%45) {
                          %50 = ktdf.read_from_fifo %42 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %51 = tensor.empty() : tensor<1x32xf16>
                          %52 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%50 : tensor<1x32xf32>) outs(%51 : tensor<1x32xf16>) {
                          ^bb0(%se: f32, %o: f16):
                            %r = arith.truncf %se : f32 to f16
                            linalg.yield %r : f16
                          } -> tensor<1x32xf16>
                          ktdf.write_to_fifo %52, %43 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%45) depends_out(none) {
                          ktdf.data_transfer from %43 size [1, %vec_1] to %36[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%37) depends_out(none) {
                  %53 = arith.addi %row, %t0_1 : index
                  %54 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %36[0, 0] size [%n0_1, %n1_1] to %Cv[%53, %54] size [%n0_1, %n1_1] : memref<?x?xf16, "LX">, memref<4096x4096xf16>
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
