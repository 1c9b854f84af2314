// A paged copy as the upstream dialect's example writes it, on 2 tiles (one batch each):
// Y[b, t, h, d] = X[Idx[b, t floordiv 32], h, t mod 32, d]. X holds 12 pages of 32 rows
// for each of 2 heads; the index tensor names each batch's 4 pages. The gather's row
// variable %t is read through floordiv (the page, from the index tensor) and mod (the row
// within the page): the normal form splits it into page and row (split-indirect-variables)
// and carries the reshape that merges them back through the transposed store (the
// destination tile walks Y's rows in (head, token, feature) order) to Y's side.
#x_all = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 31 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#y_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#idx_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#gather_vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#y_rows = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#in_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#head_first = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
func.func @paged_copy(%X: index, %Idx: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %b = ktdp.get_compute_tile_id : index
  %Iv = ktdp.construct_memory_view %Idx, sizes: [2, 4], strides: [4, 1] {
      coordinate_set = #idx_all, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
  %Xv = ktdp.construct_memory_view %X, sizes: [12, 2, 32, 64], strides: [4096, 2048, 64, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>} : memref<12x2x32x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [256, 2, 64], strides: [128, 64, 1] {
      coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>} : memref<256x2x64xf16>
  %Xt = ktdp.construct_indirect_access_tile intermediate_variables(%h, %t, %d)
      %Xv[ind(%Iv[%b, (%t floordiv 32)]), (%h), (%t mod 32), (%d)] {
      variables_space_set = #gather_vars, variables_space_order = #in_order}
      : memref<12x2x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<2x128x64xindex>
  %row = arith.muli %b, %c128 : index
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0, %c0] {
      access_tile_set = #y_rows, access_tile_order = #head_first}
      : memref<256x2x64xf16> -> !ktdp.access_tile<2x128x64xindex>
  %pages = ktdp.load %Xt : !ktdp.access_tile<2x128x64xindex> -> tensor<2x128x64xf16>
  ktdp.store %pages, %Yt : tensor<2x128x64xf16>, !ktdp.access_tile<2x128x64xindex>
  return
}
