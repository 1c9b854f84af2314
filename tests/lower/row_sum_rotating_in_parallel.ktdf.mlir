// An N-buffered pipeline inside a ktdf.parallel distributed over corelets, written by
// hand for tests/lower/kernels/row_sum_16.mlir on spyre (the scheduler only distributes
// loops around FIFO pipelines on spyre; on a device whose corelets own a memory level it
// distributes the loops over that level's tiles). Per row: sum the row into a one-element
// f32 intermediate (stage 0), then round it to f16 into S (stage 1); the pipeline has
// modulo 2 and its 16 rows are split over 2 corelets. Each corelet rotates its own two
// slots (LX is shared, so the buffer holds 2 corelets x 2 slots: base + (corelet * 2 +
// slot) * 128), and the stages' tokens go to the same corelet only.
// tests/lower/test_lower_filecheck.py lowers this and runs `filecheck` on program 0;
// tests/lower/test_parallel_loops.py runs it on the emulator.
// CHECK-LABEL: func.func @local_schedule_0_body() {
// CHECK:         dataflow.sync @[[CH:pl0_1_lx_store_to_lx_load]]_full "lx_store" -> "lx_load" {initial = 0 : i64}
// CHECK-NEXT:    dataflow.sync @[[CH]]_free "lx_load" -> "lx_store" {initial = 2 : i64}
// CHECK-LABEL: dataflow.program_unit @p0_lx_load
// CHECK:         %[[C:.*]] = dataflow.instance_index "corelet" : index
// CHECK:         %[[K:.*]] = arith.muli %[[C]], %c8 : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.minui %[[K]], %c16 : index
// CHECK:         %[[I:.*]] = arith.muli %[[C]], %c256 : index
// CHECK-NEXT:    %{{.*}} = scf.for %{{.*}} = %[[FIRST]] to %{{.*}} step %{{.*}} iter_args(%[[SLOT:.*]] = %c0{{.*}}) -> (index) {
// CHECK:           dataflow.sync_recv @[[CH]]_full peer %[[C]]
// CHECK-NEXT:      %[[S:.*]] = arith.muli %[[SLOT]], %c128 : index
// CHECK-NEXT:      %[[SI:.*]] = arith.addi %[[S]], %[[I]] : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[SI]], %c16512 : index
// CHECK-NEXT:      agen.vector_load "lx"[%[[AT]]] {{.*}} : vector<1xf32>
// CHECK:           dataflow.sync_send @[[CH]]_free peer %[[C]]
// CHECK-NEXT:      %[[INC:.*]] = arith.addi %[[SLOT]], %c1{{.*}} : index
// CHECK-NEXT:      %[[NEXT:.*]] = arith.remui %[[INC]], %c2 : index
// CHECK-NEXT:      scf.yield %[[NEXT]] : index
// CHECK-LABEL: dataflow.program_unit @p0_lx_store
// CHECK:         %[[C2:.*]] = dataflow.instance_index "corelet" : index
// CHECK:         scf.for {{.*}} iter_args(%[[SLOT2:.*]] = %c0{{.*}}) -> (index) {
// CHECK-NEXT:      dataflow.sync_recv @[[CH]]_free peer %[[C2]]
// CHECK:           agen.vector_store %{{.*}} to "lx"[%{{.*}}] {{.*}} : vector<1xf32>
// CHECK-NEXT:      dataflow.sync_send @[[CH]]_full peer %[[C2]]
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @row_sum(%X: index, %S: index) attributes {grid = [4 : i64]} {
    func.call @local_schedule_0(%X, %S) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %S: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.000000e+00 : f32
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c16 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 512], strides: [512, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 511) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
      %Sv = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      ktdf.pipeline {
        %xb, %sb, %q0, %q1 = ktdf.private -> (memref<16x512xf16, "LX">, memref<16xf16, "LX">, !ktdf.token, !ktdf.token) {
          %0 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [16 : i64, 512 : i64]} : memref<16x512xf16, "LX">
          %1 = ktdf.buffer {role = "output", operand = "S", access_map = affine_map<(d0) -> (d0)>, tile_dims = [16 : i64]} : memref<16xf16, "LX">
          %2 = ktdf.token : !ktdf.token
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %0, %1, %2, %3 : memref<16x512xf16, "LX">, memref<16xf16, "LX">, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%q0) {
          ktdf.data_transfer from %Xv[%row, %c0] size [16, 512] to %xb[0, 0] size [16, 512] : memref<64x512xf16>, memref<16x512xf16, "LX">
        } {applicable_units = ["dma"]}
        ktdf.stage depends_in(%q0) depends_out(%q1) {
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %c16_1 = arith.constant 16 : index
          %c32 = arith.constant 32 : index
          %c512 = arith.constant 512 : index
          ktdf.parallel (%r) = (%c0_1) to (%c16_1) step (%c1) distribute(num_instances = 2) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
            ktdf.pipeline modulo(size: 2, decision = "p0.pipe.sum.modulo") {
              %sum, %p = ktdf.private -> (memref<1xf32, "LX">, !ktdf.token) {
                %4 = ktdf.buffer {role = "intermediate", operand = "sum", access_map = affine_map<(d0) -> (d0)>, tile_dims = [1 : i64]} : memref<1xf32, "LX">
                %5 = ktdf.token : !ktdf.token
                ktdf.private_yield %4, %5 : memref<1xf32, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%p) {
                ktdf.pipeline attributes {ktdf.compute = "p0"} {
                  %6, %7, %8, %9 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token) {
                    %10 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                    %11 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                    %12 = ktdf.token : !ktdf.token
                    %13 = ktdf.token : !ktdf.token
                    ktdf.private_yield %10, %11, %12, %13 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token
                  }
                  ktdf.stage depends_in(none) depends_out(%8) {
                    scf.for %j = %c0_1 to %c512 step %c32 {
                      ktdf.data_transfer from %xb[%r, %j] size [1, 32] to %6 size [1, 32] : memref<16x512xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                    } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                  } {applicable_units = ["load"]}
                  ktdf.stage depends_in(%8) depends_out(%9) {
                    %14 = tensor.empty() : tensor<1xf32>
                    %15 = linalg.fill ins(%zero : f32) outs(%14 : tensor<1xf32>) -> tensor<1xf32>
                    %16 = scf.for %k = %c0_1 to %c512 step %c32 iter_args(%acc = %15) -> (tensor<1xf32>) {
                      %17 = ktdf.read_from_fifo %6 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                      %18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%17 : tensor<1x32xf16>) outs(%acc : tensor<1xf32>) {
                      ^bb0(%xe: f16, %a: f32):
                        %w = arith.extf %xe : f16 to f32
                        %s = arith.addf %w, %a : f32
                        linalg.yield %s : f32
                      } -> tensor<1xf32>
                      scf.yield %18 : tensor<1xf32>
                    } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                    ktdf.write_to_fifo %16, %7 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                  } {applicable_units = ["sfu"]}
                  ktdf.stage depends_in(%9) depends_out(none) {
                    ktdf.data_transfer from %7 size [1] to %sum[0] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<1xf32, "LX">
                  } {applicable_units = ["store"]}
                }
              } {applicable_units = ["load", "sfu", "store"]}
              ktdf.stage depends_in(%p) depends_out(none) {
                ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                  %19, %20, %21, %22 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, !ktdf.token, !ktdf.token) {
                    %23 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1xf32>
                    %24 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf16>
                    %25 = ktdf.token : !ktdf.token
                    %26 = ktdf.token : !ktdf.token
                    ktdf.private_yield %23, %24, %25, %26 : !ktdf.fifo.slot<"load" -> "sfu", 1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, !ktdf.token, !ktdf.token
                  }
                  ktdf.stage depends_in(none) depends_out(%21) {
                    ktdf.data_transfer from %sum[0] size [1] to %19 size [1] : memref<1xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1xf32>
                  } {applicable_units = ["load"]}
                  ktdf.stage depends_in(%21) depends_out(%22) {
                    %27 = ktdf.read_from_fifo %19 : !ktdf.fifo.slot<"load" -> "sfu", 1xf32> -> tensor<1xf32>
                    %28 = tensor.empty() : tensor<1xf16>
                    %29 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%27 : tensor<1xf32>) outs(%28 : tensor<1xf16>) {
                    ^bb0(%se: f32, %o: f16):
                      %n = arith.truncf %se : f32 to f16
                      linalg.yield %n : f16
                    } -> tensor<1xf16>
                    ktdf.write_to_fifo %29, %20 : tensor<1xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>
                  } {applicable_units = ["sfu"]}
                  ktdf.stage depends_in(%22) depends_out(none) {
                    ktdf.data_transfer from %20 size [1] to %sb[%r] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, memref<16xf16, "LX">
                  } {applicable_units = ["store"]}
                }
              } {applicable_units = ["load", "sfu", "store"]}
            }
          }
        } {applicable_units = ["load", "sfu", "store"]}
        ktdf.stage depends_in(%q1) depends_out(none) {
          ktdf.data_transfer from %sb[0] size [16] to %Sv[%row] size [16] : memref<16xf16, "LX">, memref<64xf16>
        } {applicable_units = ["dma"]}
      }
      func.return
    }
  }
}
