// Y[i, j] = X[i, j] + bias[j] on a 64x128 f16 tensor, 16 compute tiles of 4 rows, the bias
// row widened to the tile's shape by `linalg.broadcast` and added by `arith.addf` on
// tensors (the KTIR article's spelling).
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @bias_broadcast(%X: index, %bias: index, %Y: index) attributes {grid = [16]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %bv = ktdp.construct_memory_view %bias, sizes: [128], strides: [1] {
      coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows4, access_tile_order = #id2}
      : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %bt = ktdp.construct_access_tile %bv[%c0] {access_tile_set = #vec, access_tile_order = #id1}
      : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows4, access_tile_order = #id2}
      : memref<64x128xf16> -> !ktdp.access_tile<4x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x128xindex> -> tensor<4x128xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  %e = tensor.empty() : tensor<4x128xf16>
  %bb = linalg.broadcast ins(%b : tensor<128xf16>) outs(%e : tensor<4x128xf16>) dimensions = [0]
  %y = arith.addf %x, %bb : tensor<4x128xf16>
  ktdp.store %y, %Yt : tensor<4x128xf16>, !ktdp.access_tile<4x128xindex>
  return
}
