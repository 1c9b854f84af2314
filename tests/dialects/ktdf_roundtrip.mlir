// Every ktdf op, type and attribute in its custom syntax, open and solved decisions.
// tests/dialects/test_ktdf.py parses this file, prints it and runs `filecheck` on the
// output against these CHECK lines; the printout must also parse back to the same text.
// CHECK: builtin.module attributes {ktdf.device = "spyre"} {
// CHECK-NEXT: func.func @k(%A: index) {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c3 = arith.constant 3 : index
// CHECK-NEXT: %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 3 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
// CHECK-NEXT: %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 64 : i64, min_value = 64 : i64, divisibility = 64 : i64, value = 64 : i64} : index
// CHECK-NEXT: %n = ktdf.tiling.derive_size %c0, %T0, %c3 : index
// CHECK-NEXT: %g = ktdf.tiling.linearize_index %c0, %n : index
// CHECK-NEXT: ktdf.keep_resident {decision = "p0.keep.A", operand = "A"}
// CHECK-NEXT: ktdf.keep_resident {decision = "p0.keep.B", operand = "B", value = 1 : i64}
// CHECK-NEXT: ktdf.share_fetch {decision = "p0.share.A", operand = "A", parts = 4 : i64, fetch_program = 1 : i64}
// CHECK-NEXT: ktdf.share_fetch {decision = "p0.share.C", operand = "C", parts = 4 : i64, fetch_program = 2 : i64, value = 0 : i64}
// CHECK-NEXT: %v = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
// CHECK-NEXT: %iv = ktdp.construct_memory_view %A, sizes: [8], strides: [1] {{.*}} : memref<8xi32>
// CHECK-NEXT: %gv = ktdf.gather_view %v indices(%iv) outer(%c0) {ind_dims = array<i64: 0, -1>, dim_map = affine_map<(d0, d1)[s0] -> (0, (d1 + s0))>, index_maps = [affine_map<(d0, d1)[s0] -> (d0)>], lows = array<i64: 0, 0>, extents = array<i64: 8, 64>} : memref<96x64xf16>, (memref<8xi32>) -> memref<8x64xf16>
// CHECK-NEXT: ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
// CHECK-NEXT: %p, %p_1, %p_2, %p_3 = ktdf.private -> (memref<?x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.token, !ktdf.token) {
// CHECK-NEXT: %b = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 64 : i64]} : memref<?x64xf16, "LX">
// CHECK-NEXT: %f = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
// CHECK-NEXT: %t = ktdf.token : !ktdf.token
// CHECK-NEXT: %t2 = ktdf.token : !ktdf.token
// CHECK-NEXT: ktdf.private_yield %b, %f, %t, %t2 : memref<?x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.token, !ktdf.token
// CHECK-NEXT: }
// CHECK-NEXT: ktdf.stage depends_in(none) depends_out(%p_2) {
// CHECK-NEXT: ktdf.data_transfer from %v[%g, 0] size [%n, 64] to %p[0, 0] size [%n, 64] : memref<96x64xf16>, memref<?x64xf16, "LX">
// CHECK-NEXT: } {applicable_units = ["dma"]}
// CHECK-NEXT: ktdf.stage depends_in(%p_2) depends_out(%p_3) {
// CHECK-NEXT: ktdf.parallel (%i) = (%c0) to (%n) step (%c1) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64} {
// CHECK-NEXT: ktdf.data_transfer from %p[%i, 0] size [1, 64] to %p_1 size [1, 64] {transfer_mode = "splat"} : memref<?x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
// CHECK-NEXT: %x = ktdf.read_from_fifo %p_1 : !ktdf.fifo.slot<"load" -> "sfu", 64xf16> -> tensor<1x64xf16>
// CHECK-NEXT: ktdf.write_to_fifo %x, %p_1 : tensor<1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %j = %c0 to %c3 step %c1 {
// CHECK-NEXT: %z = arith.addi %j, %c1 : index
// CHECK-NEXT: } {loop_type = #ktdf.loop_type<parallel_loop>}
// CHECK-NEXT: } {applicable_units = ["load", "sfu"]}
// CHECK-NEXT: }
// CHECK-NEXT: ktdf.pipeline {
// CHECK-NEXT: %q = ktdf.private -> (memref<2x64xf16, "LX">) {
// CHECK-NEXT: %b_1 = ktdf.buffer {role = "accumulator", operand = "A", access_map = affine_map<(d0) -> (d0, 0)>, tile_dims = [2 : i64]} : memref<2x64xf16, "LX">
// CHECK-NEXT: ktdf.private_yield %b_1 : memref<2x64xf16, "LX">
// CHECK-NEXT: }
// CHECK-NEXT: ktdf.stage depends_in(none) depends_out(none) {
// CHECK-NEXT: %k = ktdf.buffer_phase : index
// CHECK-NEXT: %m = ktdf.select_memref %k [%q, %q] : memref<2x64xf16, "LX">
// CHECK-NEXT: } {applicable_units = ["dma"]}
// CHECK-NEXT: }
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }

builtin.module attributes {ktdf.device = "spyre"} {
  func.func @k(%A: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 3, min_value = 1, divisibility = 1} : index
    %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 64, min_value = 64, divisibility = 64, value = 64} : index
    %n = ktdf.tiling.derive_size %c0, %T0, %c3 : index
    %g = ktdf.tiling.linearize_index %c0, %n : index
    ktdf.keep_resident {decision = "p0.keep.A", operand = "A"}
    ktdf.keep_resident {decision = "p0.keep.B", operand = "B", value = 1}
    ktdf.share_fetch {decision = "p0.share.A", operand = "A", parts = 4, fetch_program = 1}
    ktdf.share_fetch {decision = "p0.share.C", operand = "C", parts = 4, fetch_program = 2, value = 0}
    %v = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %iv = ktdp.construct_memory_view %A, sizes: [8], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
    %gv = ktdf.gather_view %v indices(%iv) outer(%c0) {ind_dims = array<i64: 0, -1>, dim_map = affine_map<(d0, d1)[s0] -> (0, d1 + s0)>, index_maps = [affine_map<(d0, d1)[s0] -> (d0)>], lows = array<i64: 0, 0>, extents = array<i64: 8, 64>} : memref<96x64xf16>, (memref<8xi32>) -> memref<8x64xf16>
    ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
      %p:4 = ktdf.private -> (memref<?x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.token, !ktdf.token) {
        %b = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 64]} : memref<?x64xf16, "LX">
        %f = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
        %t = ktdf.token : !ktdf.token
        %t2 = ktdf.token : !ktdf.token
        ktdf.private_yield %b, %f, %t, %t2 : memref<?x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.token, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%p#2) {
        ktdf.data_transfer from %v[%g, 0] size [%n, 64] to %p#0[0, 0] size [%n, 64] : memref<96x64xf16>, memref<?x64xf16, "LX">
      } {applicable_units = ["dma"]}
      ktdf.stage depends_in(%p#2) depends_out(%p#3) {
        ktdf.parallel (%i) = (%c0) to (%n) step (%c1) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2} {
          ktdf.data_transfer from %p#0[%i, 0] size [1, 64] to %p#1 size [1, 64] {transfer_mode = "splat"} : memref<?x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
          %x = ktdf.read_from_fifo %p#1 : !ktdf.fifo.slot<"load" -> "sfu", 64xf16> -> tensor<1x64xf16>
          ktdf.write_to_fifo %x, %p#1 : tensor<1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
        }
        scf.for %j = %c0 to %c3 step %c1 {
          %z = arith.addi %j, %c1 : index
        } {loop_type = #ktdf.loop_type<parallel_loop>}
      } {applicable_units = ["load", "sfu"]}
    }
    ktdf.pipeline {
      %q = ktdf.private -> (memref<2x64xf16, "LX">) {
        %b = ktdf.buffer {role = "accumulator", operand = "A", access_map = affine_map<(d0) -> (d0, 0)>, tile_dims = [2]} : memref<2x64xf16, "LX">
        ktdf.private_yield %b : memref<2x64xf16, "LX">
      }
      ktdf.stage depends_in(none) depends_out(none) {
        %k = ktdf.buffer_phase : index
        %m = ktdf.select_memref %k [%q, %q] : memref<2x64xf16, "LX">
      } {applicable_units = ["dma"]}
    }
    func.return
  }
}
