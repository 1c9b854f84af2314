// The column sum of tests/reductions/col_sum.mlir (reduce d0 of each tile's 8 x 128 f16
// block, keep d1), solved by the heuristic on spyre. A reduction over an outer dim: each
// step's vector is one row of 32 columns (f32 lanes), so nothing is reduced inside the
// vector; the sfu adds the row, lane by lane, into the accumulator vector it carries
// (no vectorchain.reduce). tests/lower/test_lower_filecheck.py lowers this solved
// ScheduleIR and runs `filecheck` on program 0.
// CHECK-LABEL: dataflow.program_unit @p0_sfu
// CHECK:         %[[ZERO:.*]] = vectorchain.constant_bitstream "00000000" : vector<1xf32>
// CHECK-NEXT:    %[[INIT:.*]] = vectorchain.shuffle %[[ZERO]] {pattern = array<i64: 0>} : vector<1xf32> -> vector<32xf32>
// (the zero splat reads nothing the tile loop defines: made once, before it)
// CHECK-NEXT:    scf.for
// CHECK:         %[[ACC:.*]] = scf.for %{{.*}} = %{{.*}} to %c8{{.*}} step %c1{{.*}} iter_args(%acc = %[[INIT]]) -> (vector<32xf32>) {
// CHECK-NEXT:      %[[X:.*]] = dataflow.receive @{{.*}} : vector<1x32xf16>
// CHECK-NEXT:      %[[W:.*]] = vectorchain.apply "arith.extf"(%[[X]]) : (vector<1x32xf16>) -> vector<1x32xf32>
// CHECK-NEXT:      %[[ROW:.*]] = vectorchain.shuffle %[[W]] {pattern = array<i64: 0, 1, 2, {{.*}}, 31>} : vector<1x32xf32> -> vector<32xf32>
// CHECK-NEXT:      %[[SUM:.*]] = vectorchain.add %acc, %[[ROW]] : vector<32xf32>
// CHECK-NEXT:      scf.yield %[[SUM]] : vector<32xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    dataflow.send %[[ACC]] to @{{.*}} : vector<32xf32>
// CHECK-NOT:     vectorchain.reduce
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @col_sum(%X: index, %S: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %S) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %S: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.000000e+00 : f32
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c8 : index
      %c128 = arith.constant 128 : index
      %col = arith.muli %t, %c128 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      %Sv = ktdp.construct_memory_view %S, sizes: [4096], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 4095) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<128xf32, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {elements_at_max = 128 : i64, role = "intermediate", operand = "sum", access_map = affine_map<(d0) -> (d0)>, tile_dims = [128 : i64]} : memref<128xf32, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<128xf32, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c8_1 = arith.constant 8 : index
          %c128_1 = arith.constant 128 : index
          %c32 = arith.constant 32 : index
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 32 : i64, divisibility = 32 : i64, value = 64 : i64} : index
          scf.for %t1 = %c0_1 to %c128_1 step %T1 {
            %n1 = ktdf.tiling.derive_size %t1, %T1, %c128_1 : index
            ktdf.pipeline modulo(size: 2, decision = "p0.pipe.lx.modulo") {
              %4, %5 = ktdf.private -> (memref<8x?xf16, "LX">, !ktdf.token) {
                %6 = ktdf.buffer {elements_at_max = 1024 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [8 : i64, "p0.tile.lx.d1"]} : memref<8x?xf16, "LX">
                %7 = ktdf.token : !ktdf.token
                ktdf.private_yield %6, %7 : memref<8x?xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%5) {
                %8 = arith.constant 0 : index
                %9 = arith.addi %row, %8 : index
                %10 = arith.addi %c0, %t1 : index
                ktdf.data_transfer from %Xv[%9, %10] size [8, %n1] to %4[0, 0] size [8, %n1] : memref<256x128xf16>, memref<8x?xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%5) depends_out(none) {
                ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c32) distribute(num_instances = 2) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                  %11 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %11, %c32, %c128_1 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %12, %13, %14, %15 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 32xf32>, !ktdf.token, !ktdf.token) {
                      %16 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      %17 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 32xf32>
                      %18 = ktdf.token : !ktdf.token
                      %19 = ktdf.token : !ktdf.token
                      ktdf.private_yield %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 32xf32>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%14) {
                      scf.for %20 = %c0_1 to %c8_1 step %c1 {
                        ktdf.data_transfer from %4[%20, %p1] size [1, %vec] to %12 size [1, %vec] : memref<8x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%14) depends_out(%15) {
                      %21 = tensor.empty() : tensor<32xf32>
                      %22 = linalg.fill ins(%zero : f32) outs(%21 : tensor<32xf32>) -> tensor<32xf32>
                      %23 = scf.for %24 = %c0_1 to %c8_1 step %c1 iter_args(%25 = %22) -> (tensor<32xf32>) {
                        %26 = ktdf.read_from_fifo %12 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                        %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%26 : tensor<1x32xf16>) outs(%25 : tensor<32xf32>) {
                        ^bb0(%xe: f16, %acc: f32):
                          %w = arith.extf %xe : f16 to f32
                          %s = arith.addf %w, %acc : f32
                          linalg.yield %s : f32
                        } -> tensor<32xf32>
                        scf.yield %27 : tensor<32xf32>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 0 : i64, ktdf.reduction = "arith.addf"}
                      ktdf.write_to_fifo %23, %13 : tensor<32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 32xf32>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%15) depends_out(none) {
                      ktdf.data_transfer from %13 size [%vec] to %0[%11] size [%vec] : !ktdf.fifo.slot<"sfu" -> "store", 32xf32>, memref<128xf32, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              } {applicable_units = ["load", "sfu", "store"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%1) depends_out(none) {
          %c128_2 = arith.constant 128 : index
          %c32_1 = arith.constant 32 : index
          %c0_2 = arith.constant 0 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 128 : i64, min_value = 32 : i64, divisibility = 32 : i64, value = 64 : i64} : index
          scf.for %t0 = %c0_2 to %c128_2 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c128_2 : index
            ktdf.pipeline modulo(size: 2, decision = "p0.c1.pipe.lx.modulo") {
              %28, %29 = ktdf.private -> (memref<?xf16, "LX">, !ktdf.token) {
                %30 = ktdf.buffer {elements_at_max = 128 : i64, role = "output", operand = "S", access_map = affine_map<(d0) -> (d0)>, tile_dims = ["p0.c1.tile.lx.d0"]} : memref<?xf16, "LX">
                %31 = ktdf.token : !ktdf.token
                ktdf.private_yield %30, %31 : memref<?xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%29) {
                ktdf.parallel (%p0) = (%c0_2) to (%n0) step (%c32_1) distribute(num_instances = 2) {decision = "p0.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                  %32 = ktdf.tiling.linearize_index %t0, %p0 : index
                  %vec_1 = ktdf.tiling.derive_size %32, %c32_1, %c128_2 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                    %33, %34, %35, %36 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 32xf16>, !ktdf.token, !ktdf.token) {
                      %37 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 32xf32>
                      %38 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 32xf16>
                      %39 = ktdf.token : !ktdf.token
                      %40 = ktdf.token : !ktdf.token
                      ktdf.private_yield %37, %38, %39, %40 : !ktdf.fifo.slot<"load" -> "sfu", 32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 32xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%35) {
                      ktdf.data_transfer from %0[%32] size [%vec_1] to %33 size [%vec_1] : memref<128xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 32xf32>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%35) depends_out(%36) {
                      %41 = ktdf.read_from_fifo %33 : !ktdf.fifo.slot<"load" -> "sfu", 32xf32> -> tensor<32xf32>
                      %42 = tensor.empty() : tensor<32xf16>
                      %43 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%41 : tensor<32xf32>) outs(%42 : tensor<32xf16>) {
                      ^bb0(%se: f32, %o: f16):
                        %n = arith.truncf %se : f32 to f16
                        linalg.yield %n : f16
                      } -> tensor<32xf16>
                      ktdf.write_to_fifo %43, %34 : tensor<32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 32xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%36) depends_out(none) {
                      ktdf.data_transfer from %34 size [%vec_1] to %28[%p0] size [%vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 32xf16>, memref<?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              } {applicable_units = ["load", "sfu", "store"]}
              ktdf.stage depends_in(%29) depends_out(none) {
                %44 = arith.addi %col, %t0 : index
                ktdf.data_transfer from %28[0] size [%n0] to %Sv[%44] size [%n0] : memref<?xf16, "LX">, memref<4096xf16>
              } {applicable_units = ["dma"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["load", "sfu", "store", "dma"]}
      }
      func.return
    }
  }
}
