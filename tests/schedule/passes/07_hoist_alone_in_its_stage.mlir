// PASS: hoist-invariant-transfers
// A broadcast row that is the nest's only DMA input: its fill is alone in its stage, so
// hoisting it leaves that stage empty and drops it. The load unit must then read the
// hoisted 256-column buffer, and the per-tile buffer (which nothing fills any more) must
// be gone from the inner pipeline.
// CHECK: ktdf.pipeline {
// CHECK-NEXT: %[[HB:.*]], %{{.*}} = ktdf.private -> (memref<256xf16, "LX">, !ktdf.token) {
// CHECK-NEXT: ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = [1 : i64, 256 : i64]} : memref<256xf16, "LX">
// CHECK: ktdf.data_transfer from %Bv[%{{.*}}] size [256] to %[[HB]][0] size [256]
// CHECK: scf.for %t0
// CHECK: ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
// CHECK-NOT: operand = "B"
// CHECK: ktdf.buffer {role = "output", operand = "Y"
// CHECK-NOT: ktdf.data_transfer from %Bv
// CHECK: %[[G:.*]] = ktdf.tiling.linearize_index %t1, %p1 : index
// CHECK: ktdf.data_transfer from %[[HB]][%[[G]]] size [%vec] to %{{.*}} size [%vec] : memref<256xf16, "LX">
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @broadcast_rows(%B: index, %Y: index) attributes {grid = [1 : i64]} {
    func.call @local_schedule_0(%B, %Y) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%B: index, %Y: index) attributes {grid = [1 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %Bv = ktdp.construct_memory_view %B, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [8, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
      %c8 = arith.constant 8 : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 8 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 256 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
      scf.for %t0 = %c0_1 to %c8 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c8 : index
        scf.for %t1 = %c0_1 to %c256 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c256 : index
          ktdf.pipeline {
            %0, %1, %2, %3 = ktdf.private -> (memref<?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
              %4 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?xf16, "LX">
              %5 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %6 = ktdf.token : !ktdf.token
              %7 = ktdf.token : !ktdf.token
              ktdf.private_yield %4, %5, %6, %7 : memref<?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%2) {
              %8 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Bv[%8] size [%n1] to %0[0] size [%n1] : memref<256xf16>, memref<?xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%2) depends_out(%3) {
              scf.for %p0 = %c0_1 to %n0 step %c1 {
                %9 = ktdf.tiling.linearize_index %t0, %p0 : index
                scf.for %p1 = %c0_1 to %n1 step %c64 {
                  %10 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %10, %c64, %c256 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %11, %12, %13, %14 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %15 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
                      %16 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %17 = ktdf.token : !ktdf.token
                      %18 = ktdf.token : !ktdf.token
                      ktdf.private_yield %15, %16, %17, %18 : !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%13) {
                      ktdf.data_transfer from %0[%p1] size [%vec] to %11 size [%vec] : memref<?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%13) depends_out(%14) {
                      %19 = ktdf.read_from_fifo %11 : !ktdf.fifo.slot<"load" -> "sfu", 64xf16> -> tensor<64xf16>
                      %20 = tensor.empty() : tensor<1x64xf16>
                      %21 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<64xf16>) outs(%20 : tensor<1x64xf16>) {
                      ^bb0(%x: f16, %o: f16):
                        %n = arith.negf %x : f16
                        linalg.yield %n : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %21, %12 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%14) depends_out(none) {
                      ktdf.data_transfer from %12 size [1, %vec] to %1[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%3) depends_out(none) {
              %22 = arith.addi %c0, %t0 : index
              %23 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %1[0, 0] size [%n0, %n1] to %Yv[%22, %23] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<8x256xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
