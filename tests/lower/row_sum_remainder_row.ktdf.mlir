// A row sum of 3 f16 rows of 96 per tile, solved on spyre with 2-row tiles: the row loop
// runs one whole tile and a remainder tile of 1 row, and every row is one whole 64-lane
// vector and a partial one of 32. The lowering emits the sfu's reduction body once per
// peeled copy of these loops; in the remainder row the whole vector must be reduced whole
// again (the partial chunk before it, in the first tile, must not leave its 32-lane answer
// behind). Each lane reduce lands in the accumulator's shape, combined by the next op
// (no reshaping shuffle between them). tests/lower/test_lower_filecheck.py lowers this
// solved ScheduleIR and runs `filecheck` on program 0.
// CHECK-LABEL: dataflow.program_unit @p0_sfu
// CHECK:         scf.for
// CHECK:         %[[W:.*]] = dataflow.receive @[[F:.*]] : vector<1x64xf16>
// CHECK-NEXT:    %[[R:.*]] = vectorchain.reduce "add" %[[W]] : vector<1x64xf16> -> vector<1xf16>
// CHECK-NEXT:    vectorchain.add %{{.*}}, %[[R]] : vector<1xf16>
// CHECK:         %[[P:.*]] = dataflow.receive @[[F]] : vector<1x64xf16>
// CHECK-NEXT:    %[[K:.*]] = vectorchain.shuffle %[[P]] {pattern = array<i64: 0, 1, {{.*}}, 30, 31>} : vector<1x64xf16> -> vector<1x32xf16>
// CHECK-NEXT:    vectorchain.reduce "add" %[[K]] : vector<1x32xf16> -> vector<1xf16>
// CHECK:         scf.for
// CHECK:         %[[W2:.*]] = dataflow.receive @[[F]] : vector<1x64xf16>
// CHECK-NEXT:    vectorchain.reduce "add" %[[W2]] : vector<1x64xf16> -> vector<1xf16>
// CHECK:         %[[P2:.*]] = dataflow.receive @[[F]] : vector<1x64xf16>
// CHECK-NEXT:    %[[K2:.*]] = vectorchain.shuffle %[[P2]] {pattern = array<i64: 0, 1, {{.*}}, 30, 31>} : vector<1x64xf16> -> vector<1x32xf16>
// CHECK-NEXT:    vectorchain.reduce "add" %[[K2]] : vector<1x32xf16> -> vector<1xf16>
// CHECK-LABEL: dataflow.program_unit @p0_lx_store
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @row_sum_3_rows(%X: index, %S: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%X, %S) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %S: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %zero = arith.constant 0.000000e+00 : f16
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c3 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [6, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 5) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6x96xf16>
      %Sv = ktdp.construct_memory_view %S, sizes: [6], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 5) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6xf16>
      %c3_1 = arith.constant 3 : index
      %c96 = arith.constant 96 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 3 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
      scf.for %t0 = %c0_1 to %c3_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c3_1 : index
        ktdf.pipeline modulo(size: 1, decision = "p0.pipe.lx.modulo") {
          %0, %1, %2, %3 = ktdf.private -> (memref<?x96xf16, "LX">, memref<?xf16, "LX">, !ktdf.token, !ktdf.token) {
            %4 = ktdf.buffer {elements_at_max = 288 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 96 : i64]} : memref<?x96xf16, "LX">
            %5 = ktdf.buffer {elements_at_max = 3 : i64, role = "output", operand = "S", access_map = affine_map<(d0, d1) -> (d0)>, tile_dims = ["p0.tile.lx.d0", 96 : i64]} : memref<?xf16, "LX">
            %6 = ktdf.token : !ktdf.token
            %7 = ktdf.token : !ktdf.token
            ktdf.private_yield %4, %5, %6, %7 : memref<?x96xf16, "LX">, memref<?xf16, "LX">, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%2) {
            %8 = arith.constant 0 : index
            %9 = arith.addi %row, %t0 : index
            %10 = arith.addi %c0, %8 : index
            ktdf.data_transfer from %Xv[%9, %10] size [%n0, 96] to %0[0, 0] size [%n0, 96] : memref<6x96xf16>, memref<?x96xf16, "LX">
          } {applicable_units = ["dma"]}
          ktdf.stage depends_in(%2) depends_out(%3) {
            ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = 2) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
              %11 = ktdf.tiling.linearize_index %t0, %p0 : index
              ktdf.pipeline attributes {ktdf.compute = "p0"} {
                %12, %13, %14, %15 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, !ktdf.token, !ktdf.token) {
                  %16 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                  %17 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf16>
                  %18 = ktdf.token : !ktdf.token
                  %19 = ktdf.token : !ktdf.token
                  ktdf.private_yield %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%14) {
                  scf.for %20 = %c0_1 to %c96 step %c64 {
                    %vec = ktdf.tiling.derive_size %20, %c64, %c96 : index
                    ktdf.data_transfer from %0[%p0, %20] size [1, %vec] to %12 size [1, %vec] : memref<?x96xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                  } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                } {applicable_units = ["load"]}
                ktdf.stage depends_in(%14) depends_out(%15) {
                  %21 = tensor.empty() : tensor<1xf16>
                  %22 = linalg.fill ins(%zero : f16) outs(%21 : tensor<1xf16>) -> tensor<1xf16>
                  %23 = scf.for %24 = %c0_1 to %c96 step %c64 iter_args(%25 = %22) -> (tensor<1xf16>) {
                    %26 = ktdf.read_from_fifo %12 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                    %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%26 : tensor<1x64xf16>) outs(%25 : tensor<1xf16>) {
                    ^bb0(%xe: f16, %a: f16):
                      %r = arith.addf %xe, %a : f16
                      linalg.yield %r : f16
                    } -> tensor<1xf16>
                    scf.yield %27 : tensor<1xf16>
                  } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                  ktdf.write_to_fifo %23, %13 : tensor<1xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>
                } {applicable_units = ["sfu"]}
                ktdf.stage depends_in(%15) depends_out(none) {
                  ktdf.data_transfer from %13 size [1] to %1[%p0] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, memref<?xf16, "LX">
                } {applicable_units = ["store"]}
              }
            }
          } {applicable_units = ["load", "sfu", "store"]}
          ktdf.stage depends_in(%3) depends_out(none) {
            %28 = arith.addi %row, %t0 : index
            ktdf.data_transfer from %1[0] size [%n0] to %Sv[%28] size [%n0] : memref<?xf16, "LX">, memref<6xf16>
          } {applicable_units = ["dma"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
