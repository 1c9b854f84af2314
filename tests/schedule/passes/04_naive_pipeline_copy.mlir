// PASS: naive-pipeline
// A loaded tile stored as it is (a plain copy) next to a compute on the same load: the
// program is a run-once pipeline with one stage per compute or copy, in the order the
// kernel stores them. The copy is tile loops (its own tile decisions: the stick dim in
// whole 128-byte DMA granules) around a DMA-only pipeline: device memory -> a staging
// buffer in the scratchpad -> device memory, no FIFO and no compute unit.
// CHECK: ktdf.stage depends_in(none) depends_out(%[[T:.*]]) {
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0"} {
// CHECK: ktdf.stage depends_in(%[[T]]) depends_out(none) {
// CHECK: %[[T0:.*]] = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
// CHECK-NEXT: %[[T1:.*]] = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 64 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
// CHECK-NEXT: scf.for %[[I0:.*]] = %{{.*}} to %{{.*}} step %[[T0]] {
// CHECK-NEXT: %[[N0:.*]] = ktdf.tiling.derive_size %[[I0]], %[[T0]]
// CHECK-NEXT: scf.for %[[I1:.*]] = %{{.*}} to %{{.*}} step %[[T1]] {
// CHECK-NEXT: %[[N1:.*]] = ktdf.tiling.derive_size %[[I1]], %[[T1]]
// CHECK-NEXT: ktdf.pipeline attributes {ktdf.copy = "p0.c1"} {
// CHECK-NEXT: %[[B:.*]], %{{.*}} = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
// CHECK-NEXT: ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
// CHECK-NOT: ktdf.fifo
// CHECK: ktdf.data_transfer from %Xv[%{{.*}}, %{{.*}}] size [%[[N0]], %[[N1]]] to %[[B]][0, 0] size [%[[N0]], %[[N1]]]
// CHECK-NEXT: } {applicable_units = ["dma"]}
// CHECK: ktdf.data_transfer from %[[B]][0, 0] size [%[[N0]], %[[N1]]] to %Yv[%{{.*}}, %{{.*}}] size [%[[N0]], %[[N1]]]
// CHECK-NEXT: } {applicable_units = ["dma"]}
// CHECK-NOT: ktdp.load
// CHECK-NOT: ktdp.store
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @copy_and_double(%X: index, %Y: index, %Z: index, %W: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%X, %Y, %Z, %W) : (index, index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %Y: index, %Z: index, %W: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %Zv = ktdp.construct_memory_view %Z, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
      %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
      %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
      %Zt = ktdp.construct_access_tile %Zv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
      %x = ktdp.load %Xt : <2x64xindex> -> tensor<2x64xf16>
      %e = tensor.empty() : tensor<2x64xf16>
      %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) {
      ^bb0(%a: f16, %o: f16):
        %s = arith.addf %a, %a : f16
        linalg.yield %s : f16
      } -> tensor<2x64xf16>
      ktdp.store %d, %Zt : tensor<2x64xf16>, <2x64xindex>
      ktdp.store %x, %Yt : tensor<2x64xf16>, <2x64xindex>
      func.return
    }
  }
}
