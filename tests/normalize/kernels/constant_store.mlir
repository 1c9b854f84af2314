// Y = 0.5 on 8x256 f16, 4 compute tiles of 2 rows: a constant written with no input (a
// linalg.fill of a tensor.empty stored as it is).
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @constant_store(%Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %half = arith.constant 0.5 : f16
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<8x256xf16> -> !ktdp.access_tile<2x256xindex>
  %e = tensor.empty() : tensor<2x256xf16>
  %f = linalg.fill ins(%half : f16) outs(%e : tensor<2x256xf16>) -> tensor<2x256xf16>
  ktdp.store %f, %Yt : tensor<2x256xf16>, !ktdp.access_tile<2x256xindex>
  return
}
