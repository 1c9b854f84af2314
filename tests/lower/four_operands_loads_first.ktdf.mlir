// Y = A * B + C * D over four operands the caller pins in every tile's own scratchpad
// (tests/solve/kernels/four_pinned_operands.mlir, solved by CP-SAT). The load unit reads
// the four vectors of an iteration from one address computed once (common
// subexpressions of the emitted address arithmetic eliminated; the part that does not
// change in the inner loop, the tile's row offset, computed once per tile, and the
// instance's range once per program), then sends them on, in order: the four loads are
// in flight together. tests/lower/test_lower_filecheck.py
// lowers this solved ScheduleIR and runs `filecheck` on program 0.
// CHECK:         dataflow.fifo @[[F0:.*]] "lx_load" -> "sfu"
// CHECK-NEXT:    dataflow.fifo @[[F1:.*]] "lx_load" -> "sfu"
// CHECK-NEXT:    dataflow.fifo @[[F2:.*]] "lx_load" -> "sfu"
// CHECK-NEXT:    dataflow.fifo @[[F3:.*]] "lx_load" -> "sfu"
// CHECK-LABEL: dataflow.program_unit @p0_lx_load
// CHECK:         %first = arith.minui
// CHECK:         scf.for %t0 =
// CHECK-NEXT:      %[[T:.*]] = arith.muli %t0, %c128 : index
// CHECK-NEXT:      scf.for %[[P:.*]] = %first to %end step %c1 {
// CHECK-NEXT:      %[[PO:.*]] = arith.muli %[[P]], %c128 : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[T]], %[[PO]] : index
// CHECK-NEXT:      %[[A:.*]] = agen.vector_load "lx"[%[[AT]]] {{.*}} : vector<1x64xf16>
// CHECK-NEXT:      %[[AT1:.*]] = arith.addi %[[AT]], %c8192 : index
// CHECK-NEXT:      %[[B:.*]] = agen.vector_load "lx"[%[[AT1]]] {{.*}} : vector<1x64xf16>
// CHECK-NEXT:      %[[AT2:.*]] = arith.addi %[[AT]], %c16384 : index
// CHECK-NEXT:      %[[C:.*]] = agen.vector_load "lx"[%[[AT2]]] {{.*}} : vector<1x64xf16>
// CHECK-NEXT:      %[[AT3:.*]] = arith.addi %[[AT]], %c24576 : index
// CHECK-NEXT:      %[[D:.*]] = agen.vector_load "lx"[%[[AT3]]] {{.*}} : vector<1x64xf16>
// CHECK-NEXT:      dataflow.send %[[A]] to @[[F0]] : vector<1x64xf16>
// CHECK-NEXT:      dataflow.send %[[B]] to @[[F1]] : vector<1x64xf16>
// CHECK-NEXT:      dataflow.send %[[C]] to @[[F2]] : vector<1x64xf16>
// CHECK-NEXT:      dataflow.send %[[D]] to @[[F3]] : vector<1x64xf16>
// CHECK-NEXT:    }
// CHECK-LABEL: dataflow.program_unit @p0_sfu
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @four_pinned_operands(%A: index, %B: index, %C: index, %D: index, %Y: index) attributes {grid = [4 : i64], ktdf.scratchpad_arguments = {A = {offset = 0 : i64, element_type = "f16", shape = array<i64: 64, 64>, role = "in", core = -1 : i64}, B = {offset = 4096 : i64, element_type = "f16", shape = array<i64: 64, 64>, role = "in", core = -1 : i64}, C = {offset = 8192 : i64, element_type = "f16", shape = array<i64: 64, 64>, role = "in", core = -1 : i64}, D = {offset = 12288 : i64, element_type = "f16", shape = array<i64: 64, 64>, role = "in", core = -1 : i64}}} {
    func.call @local_schedule_0(%A, %B, %C, %D, %Y) : (index, index, index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index, %D: index, %Y: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 32768 : i64} {
      %D_placed = arith.constant 12288 : index
      %C_placed = arith.constant 8192 : index
      %B_placed = arith.constant 4096 : index
      %A_placed = arith.constant 0 : index
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c64 : index
      %Av = ktdp.construct_memory_view %A_placed, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
      %Bv = ktdp.construct_memory_view %B_placed, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
      %Cv = ktdp.construct_memory_view %C_placed, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
      %Dv = ktdp.construct_memory_view %D_placed, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [256, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
      %c64_1 = arith.constant 64 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 64 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 64 : i64, min_value = 64 : i64, divisibility = 64 : i64, value = 64 : i64} : index
      scf.for %t0 = %c0_1 to %c64_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c64_1 : index
        scf.for %t1 = %c0_1 to %c64_1 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c64_1 : index
          ktdf.pipeline modulo(size: 3, decision = "p0.pipe.lx.modulo") {
            %0, %1 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
              %2 = ktdf.buffer {elements_at_max = 4096 : i64, role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %3 = ktdf.token : !ktdf.token
              ktdf.private_yield %2, %3 : memref<?x?xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%1) {
              ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = 2) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                %4 = ktdf.tiling.linearize_index %t0, %p0 : index
                ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64_1) distribute(num_instances = 1) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                  %5 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %5, %c64_1, %c64_1 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %6, %7, %8, %9, %10, %11, %12 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %13 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %14 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %15 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %16 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %17 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %18 = ktdf.token : !ktdf.token
                      %19 = ktdf.token : !ktdf.token
                      ktdf.private_yield %13, %14, %15, %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%11) {
                      %20 = arith.addi %c0, %4 : index
                      %21 = arith.addi %c0, %5 : index
                      ktdf.data_transfer from %Av[%20, %21] size [1, %vec] to %6 size [1, %vec] : memref<64x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %22 = arith.addi %c0, %4 : index
                      %23 = arith.addi %c0, %5 : index
                      ktdf.data_transfer from %Bv[%22, %23] size [1, %vec] to %7 size [1, %vec] : memref<64x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %24 = arith.addi %c0, %4 : index
                      %25 = arith.addi %c0, %5 : index
                      ktdf.data_transfer from %Cv[%24, %25] size [1, %vec] to %8 size [1, %vec] : memref<64x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %26 = arith.addi %c0, %4 : index
                      %27 = arith.addi %c0, %5 : index
                      ktdf.data_transfer from %Dv[%26, %27] size [1, %vec] to %9 size [1, %vec] : memref<64x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%11) depends_out(%12) {
                      %28 = ktdf.read_from_fifo %6 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %29 = ktdf.read_from_fifo %7 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %30 = ktdf.read_from_fifo %8 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %31 = ktdf.read_from_fifo %9 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %32 = tensor.empty() : tensor<1x64xf16>
                      %33 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%28, %29, %30, %31 : tensor<1x64xf16>, tensor<1x64xf16>, tensor<1x64xf16>, tensor<1x64xf16>) outs(%32 : tensor<1x64xf16>) {
                      ^bb0(%x0: f16, %x1: f16, %x2: f16, %x3: f16, %o: f16):
                        %p = arith.mulf %x0, %x1 : f16
                        %q = arith.mulf %x2, %x3 : f16
                        %s = arith.addf %p, %q : f16
                        linalg.yield %s : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %33, %10 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%12) depends_out(none) {
                      ktdf.data_transfer from %10 size [1, %vec] to %0[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              }
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%1) depends_out(none) {
              %34 = arith.addi %row, %t0 : index
              %35 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %0[0, 0] size [%n0, %n1] to %Yv[%34, %35] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<256x64xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
