// Y = 2 X + 1 on the rows of a 16x128 f16 tensor, 8 compute tiles of 2 rows, computed by
// every tile before an `scf.if` and stored only by the tiles of the first half (a guarded
// writer); the other rows of Y keep what was there.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @guarded_store(%X: index, %Y: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f16
  %one = arith.constant 1.0 : f16
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<2x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<2x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
  %twos = tensor.splat %two : tensor<2x128xf16>
  %ones = tensor.splat %one : tensor<2x128xf16>
  %d = arith.mulf %x, %twos : tensor<2x128xf16>
  %y = arith.addf %d, %ones : tensor<2x128xf16>
  %first_half = arith.cmpi ult, %t, %c4 : index
  scf.if %first_half {
    ktdp.store %y, %Yt : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  }
  return
}
