// A computed value written into a paged cache, on 2 tiles (one sequence each): 128 rows
// of X doubled and scattered into pages of 32 rows, Y[Idx[b, t floordiv 32], t mod 32, d]
// = 2 * X[128 b + t, d]. The scatter's row variable is read through floordiv (the page,
// from the table) and mod (the row in the page): split-indirect-variables makes page and
// row two variables and expands the stored value to 4x32x64; the expand moves up through
// the add to X's load (a reshaped access). Y's pages the table does not name keep what
// they held.
#x_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#pages = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#in_order = affine_map<(d0, d1) -> (d0, d1)>
func.func @paged_scatter_of_sum(%X: index, %Idx: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %b = ktdp.get_compute_tile_id : index
  %Iv = ktdp.construct_memory_view %Idx, sizes: [2, 4], strides: [4, 1] {
      coordinate_set = #table, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
  %Xv = ktdp.construct_memory_view %X, sizes: [256, 64], strides: [64, 1] {
      coordinate_set = #x_rows, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [12, 32, 64], strides: [2048, 64, 1] {
      coordinate_set = #pages, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
  %row = arith.muli %b, %c128 : index
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #tile_rows, access_tile_order = #in_order}
      : memref<256x64xf16> -> !ktdp.access_tile<128x64xindex>
  %Yt = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d)
      %Yv[ind(%Iv[%b, (%t floordiv 32)]), (%t mod 32), (%d)] {
      variables_space_set = #tile_rows, variables_space_order = #in_order}
      : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<128x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<128x64xindex> -> tensor<128x64xf16>
  %twice = arith.addf %x, %x : tensor<128x64xf16>
  ktdp.store %twice, %Yt : tensor<128x64xf16>, !ktdp.access_tile<128x64xindex>
  return
}
