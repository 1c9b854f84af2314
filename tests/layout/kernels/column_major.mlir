// Y = X + B on a 2x64 f16 tensor; X lies column-major (strides [1, 2]): element (i, j) of
// the view is memory element i + 2j of %X. Tile t computes row t.
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_major(%X: index, %B: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %id = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [2, 64], strides: [1, 2] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<2x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<2x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<2x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%id, %c0] {
      access_tile_set = #row, access_tile_order = #rm } : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%id, %c0] {
      access_tile_set = #row, access_tile_order = #rm } : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%id, %c0] {
      access_tile_set = #row, access_tile_order = #rm } : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %y = linalg.add ins(%x, %b : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  ktdp.store %y, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
