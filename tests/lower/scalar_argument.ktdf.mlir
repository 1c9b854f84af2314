// tests/emulator/kernels/scale_by_argument.mlir (Y = max(X * (2 * s), s), %s: f16 a
// float argument known only at launch), solved by the heuristic on spyre. The argument
// reaches the sfu as a "bits" symbol: the outer function takes its bit pattern
// (bitcast, zero-extend, index_cast) and the unit spreads it with
// `vectorchain.splat_bits`; 2 * s, arithmetic outside the body, is computed on one lane
// where the body reads it. tests/lower/test_lower_filecheck.py lowers this solved
// ScheduleIR and runs `filecheck` on program 0.
// CHECK:         %[[B:.*]] = arith.bitcast %s : f16 to i16
// CHECK-NEXT:    %[[W:.*]] = arith.extui %[[B]] : i16 to i64
// CHECK-NEXT:    %[[S:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK:         symbol.create_id %[[S]] {symbol_id = [[ID:[0-9]+]] : i64}
// CHECK:         %[[SYM:.*]] = symbol.create_symbol {SymbolId = [[ID]] : i64} : index
// CHECK-LABEL: dataflow.program_unit @p0_sfu
// (the argument's splat, made once for its two uses, and what is computed from it read
// nothing the tile loops define: made once, before them)
// CHECK:         %[[A:.*]] = vectorchain.splat_bits %[[SYM]] : vector<1xf16>
// CHECK-NEXT:    %[[TWO:.*]] = vectorchain.constant_bitstream "4000" : vector<1xf16>
// CHECK-NEXT:    %[[K:.*]] = vectorchain.mul %[[A]], %[[TWO]] : vector<1xf16>
// CHECK-NEXT:    %[[KS:.*]] = vectorchain.shuffle %[[K]] {pattern = array<i64: 0>} : vector<1xf16> -> vector<1x64xf16>
// CHECK-NEXT:    %[[AS:.*]] = vectorchain.shuffle %[[A]] {pattern = array<i64: 0>} : vector<1xf16> -> vector<1x64xf16>
// CHECK:         scf.for
// CHECK:         %[[X:.*]] = dataflow.receive
// CHECK-NEXT:    %[[P:.*]] = vectorchain.mul %[[X]], %[[KS]] : vector<1x64xf16>
// CHECK-NEXT:    vectorchain.max %[[P]], %[[AS]] : vector<1x64xf16>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @scale_by_argument(%X: index, %s: f16, %Y: index) attributes {grid = [8 : i64]} {
    func.call @local_schedule_0(%X, %s, %Y) : (index, f16, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, f16, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %s: f16, %Y: index) attributes {grid = [8 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %two = arith.constant 2.000000e+00 : f16
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c8 : index
      %k = arith.mulf %s, %two : f16
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [64, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
      %c8_1 = arith.constant 8 : index
      %c96 = arith.constant 96 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 8 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 96 : i64, min_value = 64 : i64, divisibility = 64 : i64, value = 64 : i64} : index
      scf.for %t0 = %c0_1 to %c8_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c8_1 : index
        scf.for %t1 = %c0_1 to %c96 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c96 : index
          ktdf.pipeline modulo(size: 2, decision = "p0.pipe.lx.modulo") {
            %0, %1, %2, %3 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
              %4 = ktdf.buffer {elements_at_max = 768 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %5 = ktdf.buffer {elements_at_max = 768 : i64, role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %6 = ktdf.token : !ktdf.token
              %7 = ktdf.token : !ktdf.token
              ktdf.private_yield %4, %5, %6, %7 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%2) {
              %8 = arith.addi %row, %t0 : index
              %9 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Xv[%8, %9] size [%n0, %n1] to %0[0, 0] size [%n0, %n1] : memref<64x96xf16>, memref<?x?xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%2) depends_out(%3) {
              ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = 2) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                %10 = ktdf.tiling.linearize_index %t0, %p0 : index
                ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = 1) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64, ktdf.vectors_per_instruction = 2 : i64, ktdf.chunk_mode = "held"} {
                  %11 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %11, %c64, %c96 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %12, %13, %14, %15 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %16 = ktdf.fifo {ktdf.depth = 16 : i64} : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %17 = ktdf.fifo {ktdf.depth = 16 : i64} : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %18 = ktdf.token : !ktdf.token
                      %19 = ktdf.token : !ktdf.token
                      ktdf.private_yield %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%14) {
                      ktdf.data_transfer from %0[%p0, %p1] size [1, %vec] to %12 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%14) depends_out(%15) {
                      %20 = ktdf.read_from_fifo %12 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %21 = tensor.empty() : tensor<1x64xf16>
                      %22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%20 : tensor<1x64xf16>) outs(%21 : tensor<1x64xf16>) {
                      ^bb0(%xe: f16, %o: f16):
                        %p = arith.mulf %xe, %k : f16
                        %m = arith.maximumf %p, %s : f16
                        linalg.yield %m : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %22, %13 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%15) depends_out(none) {
                      ktdf.data_transfer from %13 size [1, %vec] to %1[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              }
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%3) depends_out(none) {
              %23 = arith.addi %row, %t0 : index
              %24 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %1[0, 0] size [%n0, %n1] to %Yv[%23, %24] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<64x96xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
