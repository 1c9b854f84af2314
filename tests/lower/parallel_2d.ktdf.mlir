// A two-dimensional ktdf.parallel: bias_add (examples/bias_add.mlir, solved for spyre)
// with its row and vector point loops written as one `ktdf.parallel (%p0, %p1)`
// distributed over 2 corelets, and tiles of 3 rows (4 rows: a full tile of 3, a partial
// one of 1). The 3x4 points of the full tile are numbered row-major; corelet c runs
// [6c, 6c + 6), each point's row and vector recovered with divui/remui; the partial tile's
// 1x4 points split [2c, 2c + 2) and need no division. tests/lower/test_lower_filecheck.py
// lowers this and runs `filecheck` on program 0; tests/lower/test_parallel_loops.py runs
// it on the emulator.
// CHECK-LABEL: dataflow.program_unit @p0_lx_load
// CHECK:         %[[CORELET:.*]] = dataflow.instance_index "corelet" : index
// CHECK:         %[[K:.*]] = arith.muli %[[CORELET]], %c6 : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.minui %[[K]], %c12 : index
// CHECK-NEXT:    %[[E:.*]] = arith.addi %[[FIRST]], %c6 : index
// CHECK-NEXT:    %[[END:.*]] = arith.minui %[[E]], %c12 : index
// CHECK-NEXT:    scf.for %[[LIN:.*]] = %[[FIRST]] to %[[END]] step %c1{{.*}} {
// CHECK-NEXT:      %[[P1:.*]] = arith.remui %[[LIN]], %c4 : index
// CHECK-NEXT:      %[[P0:.*]] = arith.divui %[[LIN]], %c4 : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[P0]], %c512{{.*}} : index
// CHECK-NEXT:      %[[COL:.*]] = arith.muli %[[P1]], %c128 : index
// CHECK-NEXT:      %[[OFF:.*]] = arith.addi %[[ROW]], %[[COL]] : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[OFF]], %c512{{.*}} : index
// CHECK-NEXT:      agen.vector_load "lx"[%[[AT]]] {{.*}} : vector<1x64xf16>
// CHECK:         %[[K2:.*]] = arith.muli %[[CORELET]], %c2 : index
// CHECK-NEXT:    %[[FIRST2:.*]] = arith.minui %[[K2]], %c4 : index
// CHECK:         scf.for %[[LIN2:.*]] = %[[FIRST2]] to %{{.*}} step %c1{{.*}} {
// CHECK-NEXT:      %{{.*}} = arith.muli %[[LIN2]], %c128 : index
// CHECK-LABEL: dataflow.program_unit @p0_sfu
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1{{.*}} {
// CHECK:           dataflow.receive @{{.*}} : vector<1x64xf16>
// CHECK:           vectorchain.add
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @bias_add(%X: index, %bias: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %bias, %Y) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %bias: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c4 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
      %bv = ktdp.construct_memory_view %bias, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
      %c4_1 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 4 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 3 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 256 : i64, min_value = 64 : i64, divisibility = 64 : i64, value = 256 : i64} : index
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<256xf16, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {elements_at_max = 256 : i64, role = "input", operand = "bias", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = [1 : i64, 256 : i64]} : memref<256xf16, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<256xf16, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %4 = arith.addi %c0, %c0_1 : index
          ktdf.data_transfer from %bv[%4] size [256] to %0[0] size [256] : memref<256xf16>, memref<256xf16, "LX">
        } {applicable_units = ["dma"]}
        ktdf.stage depends_in(%1) depends_out(none) {
          scf.for %t0 = %c0_1 to %c4_1 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c4_1 : index
            scf.for %t1 = %c0_1 to %c256 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c256 : index
              ktdf.pipeline modulo(size: 1, decision = "p0.pipe.lx.modulo") {
                %5, %6, %7, %8 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
                  %9 = ktdf.buffer {elements_at_max = 1024 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %10 = ktdf.buffer {elements_at_max = 1024 : i64, role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %11 = ktdf.token : !ktdf.token
                  %12 = ktdf.token : !ktdf.token
                  ktdf.private_yield %9, %10, %11, %12 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%7) {
                  %13 = arith.addi %row, %t0 : index
                  %14 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Xv[%13, %14] size [%n0, %n1] to %5[0, 0] size [%n0, %n1] : memref<128x256xf16>, memref<?x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%7) depends_out(%8) {
                  ktdf.parallel (%p0, %p1) = (%c0_1, %c0_1) to (%n0, %n1) step (%c1, %c64) distribute(num_instances = 2) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %15 = ktdf.tiling.linearize_index %t0, %p0 : index
                      %16 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %vec = ktdf.tiling.derive_size %16, %c64, %c256 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0"} {
                        %17, %18, %19, %20, %21 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                          %22 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %23 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
                          %24 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                          %25 = ktdf.token : !ktdf.token
                          %26 = ktdf.token : !ktdf.token
                          ktdf.private_yield %22, %23, %24, %25, %26 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%20) {
                          ktdf.data_transfer from %5[%p0, %p1] size [1, %vec] to %17 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          ktdf.data_transfer from %0[%16] size [%vec] to %18 size [%vec] : memref<256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%20) depends_out(%21) {
                          %27 = ktdf.read_from_fifo %17 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %28 = ktdf.read_from_fifo %18 : !ktdf.fifo.slot<"load" -> "sfu", 64xf16> -> tensor<64xf16>
                          %29 = tensor.empty() : tensor<1x64xf16>
                          %30 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%27, %28 : tensor<1x64xf16>, tensor<64xf16>) outs(%29 : tensor<1x64xf16>) {
                          ^bb0(%xe: f16, %be: f16, %out: f16):
                            %s = arith.addf %xe, %be : f16
                            linalg.yield %s : f16
                          } -> tensor<1x64xf16>
                          ktdf.write_to_fifo %30, %19 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%21) depends_out(none) {
                          ktdf.data_transfer from %19 size [1, %vec] to %6[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    }
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%8) depends_out(none) {
                  %31 = arith.addi %row, %t0 : index
                  %32 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %6[0, 0] size [%n0, %n1] to %Yv[%31, %32] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<128x256xf16>
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
