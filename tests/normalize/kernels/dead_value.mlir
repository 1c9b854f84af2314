// Y = max(X, Z) on 8x128 f16, 4 compute tiles of 2 rows; the sum X + Z and the load of W
// are computed but never stored (dead values: they must not stop the kernel compiling).
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @dead_value(%X: index, %Z: index, %W: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Zv = ktdp.construct_memory_view %Z, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %Zt = ktdp.construct_access_tile %Zv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %Wt = ktdp.construct_access_tile %Wv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
  %z = ktdp.load %Zt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
  %w = ktdp.load %Wt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
  %e0 = tensor.empty() : tensor<2x128xf16>
  %sum = linalg.add ins(%x, %z : tensor<2x128xf16>, tensor<2x128xf16>) outs(%e0 : tensor<2x128xf16>) -> tensor<2x128xf16>
  %e1 = tensor.empty() : tensor<2x128xf16>
  %twice = linalg.add ins(%sum, %w : tensor<2x128xf16>, tensor<2x128xf16>) outs(%e1 : tensor<2x128xf16>) -> tensor<2x128xf16>
  %e2 = tensor.empty() : tensor<2x128xf16>
  %m = linalg.max ins(%x, %z : tensor<2x128xf16>, tensor<2x128xf16>) outs(%e2 : tensor<2x128xf16>) -> tensor<2x128xf16>
  ktdp.store %m, %Yt : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  return
}
