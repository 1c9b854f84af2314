// The 96x64 add with three LX tiles of one row, modulo 2, one corelet: the scratchpad
// slot rotates in the loops of the two engines that address the buffers, sync channels
// pair each DMA with its scratchpad unit; the load unit issues both loads of an iteration
// before it sends them on. tests/lower/test_lower_filecheck.py lowers
// this solved ScheduleIR and runs `filecheck` on program 0.
// CHECK-LABEL: func.func @local_schedule_0(%A: index, %B: index, %C: index) {
// CHECK:         %s0 = arith.muli %A, %{{.*}} : index
// CHECK-NEXT:    symbol.create_id %s0 {symbol_id = 0 : i64}
// CHECK:         func.call @local_schedule_0_body() : () -> ()
// CHECK-LABEL: func.func @local_schedule_0_body() {
// CHECK:         %sym0 = symbol.create_symbol {SymbolId = 0 : i64} : index
// CHECK:         %map_A = uniform.def_immutable_mapping(%sym0, %sym1, {{.*}}, %sym31) {keys = array<i64: 0, 1, {{.*}}, 31>} : !uniform.map
// CHECK:         dataflow.fifo @[[FA:.*]] "lx_load" -> "sfu" {depth = 8 : i64} : vector<64xf16>
// CHECK-NEXT:    dataflow.fifo @[[FB:.*]] "lx_load" -> "sfu" {depth = 8 : i64} : vector<64xf16>
// CHECK-NEXT:    dataflow.fifo @[[FC:.*]] "sfu" -> "lx_store" {depth = 16 : i64} : vector<64xf16>
// CHECK-NEXT:    dataflow.sync @[[LF:.*]]_full "dma_load" -> "lx_load" {initial = 0 : i64}
// CHECK-NEXT:    dataflow.sync @[[LF]]_free "lx_load" -> "dma_load" {initial = 2 : i64}
// CHECK-NEXT:    dataflow.sync @[[SF:.*]]_full "lx_store" -> "dma_store" {initial = 0 : i64}
// CHECK-NEXT:    dataflow.sync @[[SF]]_free "dma_store" -> "lx_store" {initial = 2 : i64}
// CHECK-LABEL: dataflow.program_unit @p0_dma_load attributes {engine = "dma_load", units = ["core0.dma_load", "core1.dma_load",
// CHECK:         %core = dataflow.instance_index "core" : index
// CHECK:         scf.for %[[T:.*]] = %c0 to %c3 step %c1 iter_args(%[[SLOT:.*]] = %c0) -> (index) {
// CHECK-NEXT:      dataflow.sync_recv @[[LF]]_free peer %c0
// CHECK-NEXT:      %[[A:.*]] = uniform.query_map %map_A[%core] : index
// CHECK-NEXT:      %[[TOFF:.*]] = arith.muli %[[T]], %c128 : index
// CHECK-NEXT:      %[[SRC:.*]] = arith.addi %[[TOFF]], %[[A]] : index
// CHECK-NEXT:      %[[DST:.*]] = arith.muli %[[SLOT]], %c128 : index
// CHECK-NEXT:      agen.composite_load_and_store "ddr"[%[[SRC]]] #agen.access<{{.*}}strides = [64, 1]> to "lx"[%[[DST]]] #agen.access<{{.*}}strides = [64, 1]> : f16
// CHECK:           dataflow.sync_send @[[LF]]_full peer %c0
// CHECK-NEXT:      %[[INC:.*]] = arith.addi %[[SLOT]], %c1 : index
// CHECK-NEXT:      %{{.*}} = arith.remui %[[INC]], %c2 : index
// CHECK-LABEL: dataflow.program_unit @p0_lx_load
// CHECK:         scf.for {{.*}} iter_args
// CHECK-NEXT:      dataflow.sync_recv @[[LF]]_full{{$}}
// CHECK:           %[[VA:.*]] = agen.vector_load "lx"[%{{.*}}] #agen.access<{{.*}}> : vector<1x64xf16>
// CHECK-NOT:       dataflow.send
// CHECK:           %[[VB:.*]] = agen.vector_load "lx"[%{{.*}}] #agen.access<{{.*}}> : vector<1x64xf16>
// CHECK-NEXT:      dataflow.send %[[VA]] to @[[FA]] : vector<1x64xf16>
// CHECK-NEXT:      dataflow.send %[[VB]] to @[[FB]] : vector<1x64xf16>
// CHECK:           dataflow.sync_send @[[LF]]_free{{$}}
// CHECK-LABEL: dataflow.program_unit @p0_sfu
// CHECK-NOT:     iter_args
// CHECK:         %[[X:.*]] = dataflow.receive @[[FA]] : vector<1x64xf16>
// CHECK-NEXT:    %[[Y:.*]] = dataflow.receive @[[FB]] : vector<1x64xf16>
// CHECK-NEXT:    %[[Z:.*]] = vectorchain.add %[[X]], %[[Y]] : vector<1x64xf16>
// CHECK-NEXT:    dataflow.send %[[Z]] to @[[FC]] : vector<1x64xf16>
// CHECK-LABEL: dataflow.program_unit @p0_lx_store
// CHECK:           dataflow.sync_recv @[[SF]]_free{{$}}
// CHECK-NEXT:      %[[V:.*]] = dataflow.receive @[[FC]] : vector<1x64xf16>
// CHECK:           agen.vector_store %[[V]] to "lx"
// CHECK-NEXT:      dataflow.sync_send @[[SF]]_full{{$}}
// CHECK-LABEL: dataflow.program_unit @p0_dma_store
// CHECK:           dataflow.sync_recv @[[SF]]_full peer
// CHECK:           agen.composite_load_and_store "lx"[%{{.*}}] #agen.access<{{.*}}> to "ddr"
// CHECK-NEXT:      dataflow.sync_send @[[SF]]_free peer

builtin.module attributes {ktdf.device = "spyre"} {
  func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %id = ktdp.get_compute_tile_id : index
      %row0 = arith.muli %id, %c3 : index
      %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
      %c3_1 = arith.constant 3 : index
      %c64 = arith.constant 64 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 3 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 64 : i64, min_value = 64 : i64, divisibility = 64 : i64, value = 64 : i64} : index
      scf.for %t0 = %c0_1 to %c3_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c3_1 : index
        scf.for %t1 = %c0_1 to %c64 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c64 : index
          ktdf.pipeline modulo(size: 2, decision = "p0.pipe.lx.modulo") {
            %0, %1, %2, %3, %4 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
              %5 = ktdf.buffer {elements_at_max = 192 : i64, role = "input", operand = "A", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %6 = ktdf.buffer {elements_at_max = 192 : i64, role = "input", operand = "B", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %7 = ktdf.buffer {elements_at_max = 192 : i64, role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %8 = ktdf.token : !ktdf.token
              %9 = ktdf.token : !ktdf.token
              ktdf.private_yield %5, %6, %7, %8, %9 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%3) {
              %10 = arith.addi %row0, %t0 : index
              %11 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Av[%10, %11] size [%n0, %n1] to %0[0, 0] size [%n0, %n1] : memref<96x64xf16>, memref<?x?xf16, "LX">
              %12 = arith.addi %row0, %t0 : index
              %13 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Bv[%12, %13] size [%n0, %n1] to %1[0, 0] size [%n0, %n1] : memref<96x64xf16>, memref<?x?xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%3) depends_out(%4) {
              ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = 1) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                %14 = ktdf.tiling.linearize_index %t0, %p0 : index
                ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = 1) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                  %15 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %15, %c64, %c64 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %16, %17, %18, %19, %20 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %21 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %22 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %23 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %24 = ktdf.token : !ktdf.token
                      %25 = ktdf.token : !ktdf.token
                      ktdf.private_yield %21, %22, %23, %24, %25 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%19) {
                      ktdf.data_transfer from %0[%p0, %p1] size [1, %vec] to %16 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      ktdf.data_transfer from %1[%p0, %p1] size [1, %vec] to %17 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%19) depends_out(%20) {
                      %26 = ktdf.read_from_fifo %16 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %27 = ktdf.read_from_fifo %17 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %28 = tensor.empty() : tensor<1x64xf16>
                      %29 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%26, %27 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%28 : tensor<1x64xf16>) {
                      ^bb0(%30: f16, %31: f16, %32: f16):
                        %33 = arith.addf %30, %31 : f16
                        linalg.yield %33 : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %29, %18 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%20) depends_out(none) {
                      ktdf.data_transfer from %18 size [1, %vec] to %2[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              }
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%4) depends_out(none) {
              %34 = arith.addi %row0, %t0 : index
              %35 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %2[0, 0] size [%n0, %n1] to %Cv[%34, %35] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<96x64xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
