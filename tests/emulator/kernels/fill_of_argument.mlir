// Y = X + fill(truncf(s)): a fill of a value computed from a float argument known only at
// launch: the truncf runs on one lane of the unit that reads it, from the "bits" symbol
// of %s.
// ARGS: s=0.33
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @fill_arg(%X: index, %s: f32, %Y: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c8 : index
  %h = arith.truncf %s : f32 to f16
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows8, access_tile_order = #id2}
      : memref<64x96xf16> -> !ktdp.access_tile<8x96xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows8, access_tile_order = #id2}
      : memref<64x96xf16> -> !ktdp.access_tile<8x96xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x96xindex> -> tensor<8x96xf16>
  %init = tensor.empty() : tensor<8x96xf16>
  %f = linalg.fill ins(%h : f16) outs(%init : tensor<8x96xf16>) -> tensor<8x96xf16>
  %y = linalg.add ins(%x, %f : tensor<8x96xf16>, tensor<8x96xf16>) outs(%init : tensor<8x96xf16>) -> tensor<8x96xf16>
  ktdp.store %y, %Yt : tensor<8x96xf16>, !ktdp.access_tile<8x96xindex>
  return
}
