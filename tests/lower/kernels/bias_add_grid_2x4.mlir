// Y[i, j] = X[i, j] + bias[j] on a 128x256 f16 tensor over a 2x4 grid: tile (r, c) owns
// rows 64r..64r+63 and columns 64c..64c+63, and reads bias[64c..64c+63] (broadcast over rows).
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#seg = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>

func.func @bias_add_2d(%X: index, %bias: index, %Y: index) attributes {grid = [2, 4]} {
  %c64 = arith.constant 64 : index
  %r, %c = ktdp.get_compute_tile_id : index, index
  %row = arith.muli %r, %c64 : index
  %col = arith.muli %c, %c64 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %bv = ktdp.construct_memory_view %bias, sizes: [256], strides: [1] {
      coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<64x64xindex>
  %bt = ktdp.construct_access_tile %bv[%col] {access_tile_set = #seg, access_tile_order = #id1}
      : memref<256xf16> -> !ktdp.access_tile<64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %col] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %b = ktdp.load %bt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %init = tensor.empty() : tensor<64x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<64x64xf16>, tensor<64xf16>) outs(%init : tensor<64x64xf16>) {
  ^bb0(%xe: f16, %be: f16, %out: f16):
    %s = arith.addf %xe, %be : f16
    linalg.yield %s : f16
  } -> tensor<64x64xf16>
  ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  return
}
