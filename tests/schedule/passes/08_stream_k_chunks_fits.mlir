// PASS: stream-k-chunks
// A 256 x 512 by 512 x 4096 f16 matmul (4 tiles of 64 rows) on spyre's 2 MiB scratchpad
// after hoist-inner-invariants: the same form as 08_stream_k_chunks (A's row tile held
// around the column loop, B's whole-K panels in the column tile pipeline), but A's whole
// 64 x 512 row tile fits beside the narrowest panel, so every panel is read once per
// core as it is: the pass leaves the tile pipeline alone (no chunk decision, the panel
// still filled whole, the tile pipeline's depth left to open-decisions).
// CHECK-NOT: p0.tile.lx.d2
// CHECK-NOT: accumulator_init
// CHECK: ktdf.pipeline {
// CHECK: ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 512 : i64]}
// CHECK: ktdf.data_transfer from %Bv[%{{.*}}, %{{.*}}] size [512, %n1]
// CHECK-NOT: p0.tile.lx.d2
// CHECK: func.return
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [4 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 64 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Av = ktdp.construct_memory_view %A, sizes: [256, 512], strides: [512, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 511) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [512, 4096], strides: [4096, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 511) >= 0, d1 >= 0, ((d1 * -1) + 4095) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<512x4096xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [256, 4096], strides: [4096, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 4095) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x4096xf16>
      ktdf.pipeline {
        ktdf.private -> () {
          ktdf.private_yield
        }
        ktdf.stage depends_in(none) depends_out(none) {
          %c64 = arith.constant 64 : index
          %c4096 = arith.constant 4096 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %c64_1 = arith.constant 64 : index
          %c4096_1 = arith.constant 4096 : index
          %c512 = arith.constant 512 : index
          %c8 = arith.constant 8 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 64 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 4096 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_2 to %c64_1 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c64_1 : index
            ktdf.pipeline attributes {ktdf.outer_fetch} {
              %0, %1 = ktdf.private -> (memref<?x512xf16, "LX">, !ktdf.token) {
                %2 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 512 : i64]} : memref<?x512xf16, "LX">
                %3 = ktdf.token : !ktdf.token
                ktdf.private_yield %2, %3 : memref<?x512xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%1) {
                %4 = arith.addi %row, %t0 : index
                %5 = arith.constant 0 : index
                %6 = arith.addi %c0, %5 : index
                ktdf.data_transfer from %Av[%4, %6] size [%n0, 512] to %0[0, 0] size [%n0, 512] : memref<256x512xf16>, memref<?x512xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%1) depends_out(none) {
                scf.for %t1 = %c0_2 to %c4096_1 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c4096_1 : index
                  ktdf.pipeline {
                    %7, %8, %9, %10, %11, %12 = ktdf.private -> (memref<512x?xf16, "LX">, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">) {
                      %13 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 512 : i64]} : memref<512x?xf16, "LX">
                      %14 = ktdf.token : !ktdf.token
                      %15 = ktdf.buffer {role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %16 = ktdf.token : !ktdf.token
                      %17 = ktdf.token : !ktdf.token
                      %18 = ktdf.buffer {role = "intermediate", operand = "s", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf32, "LX">
                      ktdf.private_yield %13, %14, %15, %16, %17, %18 : memref<512x?xf16, "LX">, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">
                    }
                    ktdf.stage depends_in(none) depends_out(%8) {
                      %19 = arith.constant 0 : index
                      %20 = arith.addi %c0, %19 : index
                      %21 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %Bv[%20, %21] size [512, %n1] to %7[0, 0] size [512, %n1] : memref<512x4096xf16>, memref<512x?xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%8) depends_out(%11) {
                      scf.for %p0 = %c0_2 to %n0 step %c8 {
                        %22 = ktdf.tiling.linearize_index %t0, %p0 : index
                        scf.for %p1 = %c0_2 to %n1 step %c64_1 {
                          %23 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %blk = ktdf.tiling.derive_size %22, %c8, %c64_1 : index
                          %blk_1 = ktdf.tiling.derive_size %23, %c64_1, %c4096_1 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0"} {
                            %24, %25, %26, %27, %28 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                              %29 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %30 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              %31 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                              %32 = ktdf.token : !ktdf.token
                              %33 = ktdf.token : !ktdf.token
                              ktdf.private_yield %29, %30, %31, %32, %33 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%27) {
                              scf.for %34 = %c0_2 to %c512 step %c32_1 {
                                %vec = ktdf.tiling.derive_size %34, %c32_1, %c512 : index
                                ktdf.data_transfer from %0[%p0, %34] size [%blk, %vec] to %24 size [%blk, %vec] : memref<?x512xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %7[%34, %p1] size [%vec, %blk_1] to %25 size [%vec, %blk_1] : memref<512x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%27) depends_out(%28) {
                              %35 = tensor.empty() : tensor<8x64xf32>
                              %36 = linalg.fill ins(%zero : f32) outs(%35 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %37 = scf.for %38 = %c0_2 to %c512 step %c32_1 iter_args(%39 = %36) -> (tensor<8x64xf32>) {
                                %40 = ktdf.read_from_fifo %24 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                                %41 = ktdf.read_from_fifo %25 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                                %42 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%40, %41 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%39 : tensor<8x64xf32>) {
                                ^bb0(%ae: f16, %be: f16, %acc: f32):
                                  %af = arith.extf %ae : f16 to f32
                                  %bf = arith.extf %be : f16 to f32
                                  %p = arith.mulf %af, %bf : f32
                                  %s = arith.addf %acc, %p : f32
                                  linalg.yield %s : f32
                                } -> tensor<8x64xf32>
                                scf.yield %42 : tensor<8x64xf32>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %37, %26 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%28) depends_out(none) {
                              ktdf.data_transfer from %26 size [%blk, %blk_1] to %12[%p0, %p1] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<?x?xf32, "LX">
                            } {applicable_units = ["store"]}
                          }
                        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load", "systolic", "store"]}
                    ktdf.stage depends_in(%11) depends_out(%10) {
                      scf.for %p0_1 = %c0_1 to %n0 step %c1 {
                        %43 = ktdf.tiling.linearize_index %t0, %p0_1 : index
                        scf.for %p1_1 = %c0_1 to %n1 step %c32 {
                          %44 = ktdf.tiling.linearize_index %t1, %p1_1 : index
                          %vec_1 = ktdf.tiling.derive_size %44, %c32, %c4096 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                            %45, %46, %47, %48 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                              %49 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              %50 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                              %51 = ktdf.token : !ktdf.token
                              %52 = ktdf.token : !ktdf.token
                              ktdf.private_yield %49, %50, %51, %52 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%47) {
                              ktdf.data_transfer from %12[%p0_1, %p1_1] size [1, %vec_1] to %45 size [1, %vec_1] : memref<?x?xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
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
                              ktdf.data_transfer from %46 size [1, %vec_1] to %9[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                            } {applicable_units = ["store"]}
                          }
                        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load", "sfu", "store"]}
                    ktdf.stage depends_in(%10) depends_out(none) {
                      %56 = arith.addi %row, %t0 : index
                      %57 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %9[0, 0] size [%n0, %n1] to %Cv[%56, %57] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<256x4096xf16>
                    } {applicable_units = ["dma"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
      }
      func.return
    }
  }
}
