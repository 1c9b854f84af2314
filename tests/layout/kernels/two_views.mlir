// Y = X + transpose(X) on an 8x8 f16 tensor: two views on the one pointer %X, one
// row-major (strides [8, 1]) and one column-major (strides [1, 8]), plus a third view of
// rows 0..3 that nothing accesses. Tile t computes rows 4t..4t+3.
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @two_views(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c4 : index
  %Xtop = ktdp.construct_memory_view %X, sizes: [4, 8], strides: [8, 1] {
      coordinate_set = #top, memory_space = #ktdp.memory_space<global> } : memref<4x8xf16>
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 8], strides: [8, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %XTv = ktdp.construct_memory_view %X, sizes: [8, 8], strides: [1, 8] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 8], strides: [8, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row0, %c0] {
      access_tile_set = #top, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %XTt = ktdp.construct_access_tile %XTv[%row0, %c0] {
      access_tile_set = #top, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row0, %c0] {
      access_tile_set = #top, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %xt = ktdp.load %XTt : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %e = tensor.empty() : tensor<4x8xf16>
  %y = linalg.add ins(%x, %xt : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  ktdp.store %y, %Yt : tensor<4x8xf16>, !ktdp.access_tile<4x8xindex>
  return
}
