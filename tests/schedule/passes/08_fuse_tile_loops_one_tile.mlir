// PASS: fuse-tile-loops
// Negative case: a row sum then its rounding to f16 (examples/row_sum.mlir, 2 rows per
// tile). The rounding's rows are its stick dim, tiled in whole vectors: both rows at once.
// Fused, the sum would be forced to one tile of both rows as well, with no next tile to
// overlap and none of its own tiles left to pipeline: the computes stay stages of their
// own, each with its tile decision.
// CHECK: ktdf.stage depends_in(none) depends_out(%[[DONE:.*]]) {
// CHECK: decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0"}
// CHECK: ktdf.stage depends_in(%[[DONE]]) depends_out(none) {
// CHECK: decision = "p0.c1.tile.lx.d0", extent = 2 : i64, min_value = 2 : i64
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0.c1"}
builtin.module attributes {ktdf.device = "spyre", ktdf.stopped_after = "chunk-reductions"} {
  func.func @row_sum(%X: index, %S: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %S) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %S: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %zero = arith.constant 0.000000e+00 : f32
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 512], strides: [512, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 511) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
      %Sv = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<2xf32, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {role = "intermediate", operand = "sum", access_map = affine_map<(d0) -> (d0)>, tile_dims = [2 : i64]} : memref<2xf32, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<2xf32, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c2_1 = arith.constant 2 : index
          %c512 = arith.constant 512 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          scf.for %t0 = %c0_1 to %c2_1 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c2_1 : index
            ktdf.pipeline {
              %4, %5 = ktdf.private -> (memref<?x512xf16, "LX">, !ktdf.token) {
                %6 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 512 : i64]} : memref<?x512xf16, "LX">
                %7 = ktdf.token : !ktdf.token
                ktdf.private_yield %6, %7 : memref<?x512xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%5) {
                %8 = arith.constant 0 : index
                %9 = arith.addi %row, %t0 : index
                %10 = arith.addi %c0, %8 : index
                ktdf.data_transfer from %Xv[%9, %10] size [%n0, 512] to %4[0, 0] size [%n0, 512] : memref<64x512xf16>, memref<?x512xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%5) depends_out(none) {
                scf.for %p0 = %c0_1 to %n0 step %c1 {
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
                      scf.for %20 = %c0_1 to %c512 step %c32 {
                        %vec = ktdf.tiling.derive_size %20, %c32, %c512 : index
                        ktdf.data_transfer from %4[%p0, %20] size [1, %vec] to %12 size [1, %vec] : memref<?x512xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%14) depends_out(%15) {
                      %21 = tensor.empty() : tensor<1xf32>
                      %22 = linalg.fill ins(%zero : f32) outs(%21 : tensor<1xf32>) -> tensor<1xf32>
                      %23 = scf.for %24 = %c0_1 to %c512 step %c32 iter_args(%25 = %22) -> (tensor<1xf32>) {
                        %26 = ktdf.read_from_fifo %12 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                        %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%26 : tensor<1x32xf16>) outs(%25 : tensor<1xf32>) {
                        ^bb0(%xe: f16, %a: f32):
                          %w = arith.extf %xe : f16 to f32
                          %s = arith.addf %w, %a : f32
                          linalg.yield %s : f32
                        } -> tensor<1xf32>
                        scf.yield %27 : tensor<1xf32>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                      ktdf.write_to_fifo %23, %13 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%15) depends_out(none) {
                      ktdf.data_transfer from %13 size [1] to %0[%11] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<2xf32, "LX">
                    } {applicable_units = ["store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
              } {applicable_units = ["load", "sfu", "store"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%1) depends_out(none) {
          %c2_2 = arith.constant 2 : index
          %c0_2 = arith.constant 0 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 2 : i64, min_value = 2 : i64, divisibility = 2 : i64} : index
          scf.for %t0_1 = %c0_2 to %c2_2 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c2_2 : index
            ktdf.pipeline {
              %28, %29 = ktdf.private -> (memref<?xf16, "LX">, !ktdf.token) {
                %30 = ktdf.buffer {role = "output", operand = "S", access_map = affine_map<(d0) -> (d0)>, tile_dims = ["p0.c1.tile.lx.d0"]} : memref<?xf16, "LX">
                %31 = ktdf.token : !ktdf.token
                ktdf.private_yield %30, %31 : memref<?xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%29) {
                scf.for %p0_1 = %c0_2 to %n0_1 step %c2_2 {
                  %32 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                  %vec_1 = ktdf.tiling.derive_size %32, %c2_2, %c2_2 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                    %33, %34, %35, %36 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 2xf32>, !ktdf.fifo.slot<"sfu" -> "store", 2xf16>, !ktdf.token, !ktdf.token) {
                      %37 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 2xf32>
                      %38 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 2xf16>
                      %39 = ktdf.token : !ktdf.token
                      %40 = ktdf.token : !ktdf.token
                      ktdf.private_yield %37, %38, %39, %40 : !ktdf.fifo.slot<"load" -> "sfu", 2xf32>, !ktdf.fifo.slot<"sfu" -> "store", 2xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%35) {
                      ktdf.data_transfer from %0[%32] size [%vec_1] to %33 size [%vec_1] : memref<2xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 2xf32>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%35) depends_out(%36) {
                      %41 = ktdf.read_from_fifo %33 : !ktdf.fifo.slot<"load" -> "sfu", 2xf32> -> tensor<2xf32>
                      %42 = tensor.empty() : tensor<2xf16>
                      %43 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%41 : tensor<2xf32>) outs(%42 : tensor<2xf16>) {
                      ^bb0(%se: f32, %o: f16):
                        %n = arith.truncf %se : f32 to f16
                        linalg.yield %n : f16
                      } -> tensor<2xf16>
                      ktdf.write_to_fifo %43, %34 : tensor<2xf16>, !ktdf.fifo.slot<"sfu" -> "store", 2xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%36) depends_out(none) {
                      ktdf.data_transfer from %34 size [%vec_1] to %28[%p0_1] size [%vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 2xf16>, memref<?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
              } {applicable_units = ["load", "sfu", "store"]}
              ktdf.stage depends_in(%29) depends_out(none) {
                %44 = arith.addi %row, %t0_1 : index
                ktdf.data_transfer from %28[0] size [%n0_1] to %Sv[%44] size [%n0_1] : memref<?xf16, "LX">, memref<64xf16>
              } {applicable_units = ["dma"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["load", "sfu", "store", "dma"]}
      }
      func.return
    }
  }
}
