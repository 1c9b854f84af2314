// Y[i, j] = X[i, j] + bias[j] on a 128x256 f16 tensor: the bias row is broadcast over
// rows by the generic's indexing map. 32 compute tiles, 4 rows each; every tile reads the
// whole bias.
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>

func.func @bias_add(%X: index, %bias: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %bv = ktdp.construct_memory_view %bias, sizes: [256], strides: [1] {
      coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows4, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<4x256xindex>
  %bt = ktdp.construct_access_tile %bv[%c0] {access_tile_set = #vec, access_tile_order = #id1}
      : memref<256xf16> -> !ktdp.access_tile<256xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows4, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<4x256xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x256xindex> -> tensor<4x256xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<256xindex> -> tensor<256xf16>
  %init = tensor.empty() : tensor<4x256xf16>
  %y = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x256xf16>, tensor<256xf16>) outs(%init : tensor<4x256xf16>) {
  ^bb0(%xe: f16, %be: f16, %out: f16):
    %s = arith.addf %xe, %be : f16
    linalg.yield %s : f16
  } -> tensor<4x256xf16>
  ktdp.store %y, %Yt : tensor<4x256xf16>, !ktdp.access_tile<4x256xindex>
  return
}
