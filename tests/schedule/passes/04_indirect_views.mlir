// PASS: indirect-views
// The indirect tile E[ind(Ids[t0 + t]), d] becomes a box tile of a gather view whose
// shape is the variables' box; the index map keeps the outer value t0 as a symbol.
// CHECK: %Ev_gathered = ktdf.gather_view %Ev indices(%Iv) outer(%t0) {ind_dims = array<i64: 0, -1>, dim_map = affine_map<(d0, d1)[s0] -> (0, d1)>, index_maps = [affine_map<(d0, d1)[s0] -> ((s0 + d0))>], lows = array<i64: 0, 0>, extents = array<i64: 2, 64>} : memref<256x64xf16>, (memref<64xi32>) -> memref<2x64xf16>
// CHECK-NEXT: %rows = ktdp.construct_access_tile %Ev_gathered[%{{.*}}, %{{.*}}] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
// CHECK-NOT: construct_indirect_access_tile
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @embedding_lookup(%E: index, %Ids: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%E, %Ids, %Y) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%E: index, %Ids: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %id = ktdp.get_compute_tile_id : index
      %t0 = arith.muli %id, %c2 : index
      %Ev = ktdp.construct_memory_view %E, sizes: [256, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
      %Iv = ktdp.construct_memory_view %Ids, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
      %Yv = ktdp.construct_memory_view %Y, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %rows = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Ev[ind(%Iv[%t0 + %t]), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<256x64xf16>, memref<64xi32> -> !ktdp.access_tile<2x64xindex>
      %Yt = ktdp.construct_access_tile %Yv[%t0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
      %x = ktdp.load %rows : <2x64xindex> -> tensor<2x64xf16>
      %0 = tensor.empty() : tensor<2x64xf16>
      %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%0 : tensor<2x64xf16>) {
      ^bb0(%2: f16, %3: f16):
        linalg.yield %2 : f16
      } -> tensor<2x64xf16>
      ktdp.store %1, %Yt : tensor<2x64xf16>, <2x64xindex>
      func.return
    }
  }
}
