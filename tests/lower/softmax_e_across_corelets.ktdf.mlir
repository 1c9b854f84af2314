// softmax_rows' program 1 on sample_device (grid [1], solved by the solver): the exp
// splits E's columns over two corelets and its store units write E (a pinned ct_local
// view); the row sum then splits rows over the corelets and its load units re-read E.
// Each corelet reads columns the other corelet wrote, so every load instance must wait
// for a `full` token from every store instance before it reads E, and the stores of
// the next round wait for `free` from every load. tests/lower/test_lower_filecheck.py
// lowers this and runs `filecheck` on the result; tests/lower/test_sync_channels.py
// derives variants (an aliasing view of E, a read no stage orders).
// CHECK:         dataflow.sync @[[E:pl0_0_l1_store_to_l1_load]]_full "l1_store" -> "l1_load" {initial = 0 : i64}
// CHECK-NEXT:    dataflow.sync @[[E]]_free "l1_load" -> "l1_store" {initial = 1 : i64}
// CHECK-LABEL: dataflow.program_unit @p0_l1_load
// CHECK:         dataflow.sync_send @{{.*}}dma_load_to_l1_load_free
// CHECK-NEXT:    dataflow.sync_recv @[[E]]_full peer %[[K0:.*]]
// CHECK-NEXT:    dataflow.sync_recv @[[E]]_full peer %[[K1:.*]]
// CHECK:         agen.vector_load "l1"
// CHECK:         dataflow.sync_send @[[E]]_free peer %[[K0]]
// CHECK-NEXT:    dataflow.sync_send @[[E]]_free peer %[[K1]]
// CHECK-LABEL: dataflow.program_unit @p0_l1_store
// CHECK:         dataflow.sync_recv @[[E]]_free peer %[[S0:.*]]
// CHECK-NEXT:    dataflow.sync_recv @[[E]]_free peer %[[S1:.*]]
// CHECK:         agen.vector_store
// CHECK:         dataflow.sync_send @[[E]]_full peer %[[S0]]
// CHECK-NEXT:    dataflow.sync_send @[[E]]_full peer %[[S1]]
builtin.module attributes {ktdf.device = "sample_device"} {
  func.func @softmax_rows(%X: index, %Y: index) attributes {grid = [1 : i64]} {
    func.call @local_schedule_0(%X, %Y) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [1 : i64], ktdf.pinned_bytes = 2312 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %E_off = arith.constant 0 : index
      %M_off = arith.constant 512 : index
      %S_off = arith.constant 576 : index
      %zero = arith.constant 0.000000e+00 : f32
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Ev = ktdp.construct_memory_view %E_off, sizes: [2, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2x256xf16>
      %Mv = ktdp.construct_memory_view %M_off, sizes: [2], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf16>
      %Sv = ktdp.construct_memory_view %S_off, sizes: [2], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf32>
      ktdf.pipeline {
        %0 = ktdf.private -> (!ktdf.token) {
          %1 = ktdf.token : !ktdf.token
          ktdf.private_yield %1 : !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%0) {
          %c2_1 = arith.constant 2 : index
          %c256 = arith.constant 256 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p1.tile.l1.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p1.tile.l1.d1", extent = 256 : i64, min_value = 64 : i64, divisibility = 64 : i64, value = 256 : i64} : index
          scf.for %t0 = %c0_1 to %c2_1 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c2_1 : index
            scf.for %t1 = %c0_1 to %c256 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c256 : index
              ktdf.pipeline modulo(size: 1, decision = "p1.pipe.l1.modulo") {
                %2, %3 = ktdf.private -> (memref<?x?xf16, "L1">, !ktdf.token) {
                  %4 = ktdf.buffer {elements_at_max = 512 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p1.tile.l1.d0", "p1.tile.l1.d1"]} : memref<?x?xf16, "L1">
                  %5 = ktdf.token : !ktdf.token
                  ktdf.private_yield %4, %5 : memref<?x?xf16, "L1">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%3) {
                  %6 = arith.addi %row, %t0 : index
                  %7 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Xv[%6, %7] size [%n0, %n1] to %2[0, 0] size [%n0, %n1] : memref<64x256xf16>, memref<?x?xf16, "L1">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%3) depends_out(none) {
                  ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = 1) {decision = "p1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %8 = ktdf.tiling.linearize_index %t0, %p0 : index
                    ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = 2) {decision = "p1.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                      %9 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %vec = ktdf.tiling.derive_size %9, %c64, %c256 : index
                      ktdf.pipeline attributes {ktdf.compute = "p1"} {
                        %10, %11, %12, %13, %14 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                          %15 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %16 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %17 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                          %18 = ktdf.token : !ktdf.token
                          %19 = ktdf.token : !ktdf.token
                          ktdf.private_yield %15, %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%13) {
                          ktdf.data_transfer from %2[%p0, %p1] size [1, %vec] to %10 size [1, %vec] : memref<?x?xf16, "L1">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %20 = arith.addi %c0, %8 : index
                          ktdf.data_transfer from %Mv[%20] size [1] to %11 size [1, %vec] {transfer_mode = "splat"} : memref<2xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%13) depends_out(%14) {
                          %21 = ktdf.read_from_fifo %10 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %22 = ktdf.read_from_fifo %11 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %23 = tensor.empty() : tensor<1x64xf16>
                          %24 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%21, %22 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%23 : tensor<1x64xf16>) {
                          ^bb0(%xe: f16, %me: f16, %o: f16):
                            %d = arith.subf %xe, %me : f16
                            %ex = spyreop.exp %d : f16
                            linalg.yield %ex : f16
                          } -> tensor<1x64xf16>
                          ktdf.write_to_fifo %24, %12 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%14) depends_out(none) {
                          %25 = arith.addi %c0, %8 : index
                          %26 = arith.addi %c0, %9 : index
                          ktdf.data_transfer from %12 size [1, %vec] to %Ev[%25, %26] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<2x256xf16>
                        } {applicable_units = ["store"]}
                      }
                    }
                  }
                } {applicable_units = ["load", "sfu", "store"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%0) depends_out(none) {
          %c2_2 = arith.constant 2 : index
          %c256_1 = arith.constant 256 : index
          %c1_1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          ktdf.parallel (%i0) = (%c0_2) to (%c2_2) step (%c1_1) distribute(num_instances = 2) {decision = "p1.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
            ktdf.pipeline attributes {ktdf.compute = "p1.c1"} {
              %27, %28, %29, %30 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token) {
                %31 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                %32 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                %33 = ktdf.token : !ktdf.token
                %34 = ktdf.token : !ktdf.token
                ktdf.private_yield %31, %32, %33, %34 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%29) {
                scf.for %35 = %c0_2 to %c256_1 step %c32 {
                  %vec_1 = ktdf.tiling.derive_size %35, %c32, %c256_1 : index
                  %36 = arith.addi %c0, %i0 : index
                  %37 = arith.addi %c0, %35 : index
                  ktdf.data_transfer from %Ev[%36, %37] size [1, %vec_1] to %27 size [1, %vec_1] : memref<2x256xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
              } {applicable_units = ["load"]}
              ktdf.stage depends_in(%29) depends_out(%30) {
                %38 = tensor.empty() : tensor<1xf32>
                %39 = linalg.fill ins(%zero : f32) outs(%38 : tensor<1xf32>) -> tensor<1xf32>
                %40 = scf.for %41 = %c0_2 to %c256_1 step %c32 iter_args(%42 = %39) -> (tensor<1xf32>) {
                  %43 = ktdf.read_from_fifo %27 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                  %44 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%43 : tensor<1x32xf16>) outs(%42 : tensor<1xf32>) {
                  ^bb0(%ee: f16, %a: f32):
                    %w = arith.extf %ee : f16 to f32
                    %sum = arith.addf %w, %a : f32
                    linalg.yield %sum : f32
                  } -> tensor<1xf32>
                  scf.yield %44 : tensor<1xf32>
                } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                ktdf.write_to_fifo %40, %28 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
              } {applicable_units = ["sfu"]}
              ktdf.stage depends_in(%30) depends_out(none) {
                %45 = arith.addi %c0, %i0 : index
                ktdf.data_transfer from %28 size [1] to %Sv[%45] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<2xf32>
              } {applicable_units = ["store"]}
            }
          }
        } {applicable_units = ["load", "sfu", "store"]}
      }
      func.return
    }
  }
}
