// Y = X + B on an 8x8 f16 tensor whose rows X and Y keep 10 elements apart (strides
// [10, 1]): element (i, j) is memory element 10i + j; the 2 elements after each row's 8
// belong to no view (a store leaves them as they were). Tile t computes rows 2t, 2t + 1.
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @padded_rows(%X: index, %B: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 8], strides: [10, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [8, 8], strides: [8, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 8], strides: [10, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row0, %c0] {
      access_tile_set = #rows2, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<2x8xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row0, %c0] {
      access_tile_set = #rows2, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<2x8xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row0, %c0] {
      access_tile_set = #rows2, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<2x8xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x8xindex> -> tensor<2x8xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<2x8xindex> -> tensor<2x8xf16>
  %e = tensor.empty() : tensor<2x8xf16>
  %y = linalg.add ins(%x, %b : tensor<2x8xf16>, tensor<2x8xf16>) outs(%e : tensor<2x8xf16>) -> tensor<2x8xf16>
  ktdp.store %y, %Yt : tensor<2x8xf16>, !ktdp.access_tile<2x8xindex>
  return
}
