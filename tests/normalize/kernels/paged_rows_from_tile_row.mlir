// Rows read through a block table the way a tile that starts at row %row writes it:
// Y[r, :] = X[Idx[r floordiv 32], r mod 32, :] + 1 for the 64 rows r = %row + %t of each
// of 2 tiles (%row = 64 * tile id). The subscripts read the tile's row plus its variable
// through floordiv and mod; %row is a known multiple of 32, so the normal form writes it
// as 32 * (%row / 32) and splits %t into page and row (split-indirect-variables).
#x_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#idx_all = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#y_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#in_order = affine_map<(d0, d1) -> (d0, d1)>
func.func @paged_rows_from_tile_row(%X: index, %Idx: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %b = ktdp.get_compute_tile_id : index
  %row = arith.muli %b, %c64 : index
  %Iv = ktdp.construct_memory_view %Idx, sizes: [4], strides: [1] {
      coordinate_set = #idx_all, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %Xv = ktdp.construct_memory_view %X, sizes: [6, 32, 64], strides: [2048, 64, 1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>} : memref<6x32x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %Xt = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d)
      %Xv[ind(%Iv[(%row + %t) floordiv 32]), ((%row + %t) mod 32), (%d)] {
      variables_space_set = #rows, variables_space_order = #in_order}
      : memref<6x32x64xf16>, memref<4xi32> -> !ktdp.access_tile<64x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {
      access_tile_set = #rows, access_tile_order = #in_order}
      : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %one = arith.constant dense<1.0> : tensor<64x64xf16>
  %y = arith.addf %x, %one : tensor<64x64xf16>
  ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  return
}
