// A paged gather and scatter through one block table, on 2 tiles (one sequence each):
// Y[Idx[b, t floordiv 32], t mod 32, d] = X[Idx[b, t floordiv 32], t mod 32, d], pages of
// 32 rows, 4 pages a sequence. Both tiles read their row variable %t through floordiv
// (the page, from the table) and mod (the row in the page): split-indirect-variables
// makes page and row two variables of both, the loaded value merged back to 128 rows and
// expanded again for the scatter (the two reshapes cancel). Y's pages the table does not
// name keep what they held.
func.func @paged_gather_scatter(%X: index, %Idx: index, %Y: index) attributes {grid = [2 : i64]} {
  %b = ktdp.get_compute_tile_id : index
  %Iv = ktdp.construct_memory_view %Idx, sizes: [2, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
  %Xv = ktdp.construct_memory_view %X, sizes: [12, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 11) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [12, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 11) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
  %src = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Xv[ind(%Iv[%b, (%t floordiv 32)]), (%t mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<128x64xindex>
  %dst = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Yv[ind(%Iv[%b, (%t floordiv 32)]), (%t mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<128x64xindex>
  %pages = ktdp.load %src : <128x64xindex> -> tensor<128x64xf16>
  ktdp.store %pages, %dst : tensor<128x64xf16>, <128x64xindex>
  func.return
}
