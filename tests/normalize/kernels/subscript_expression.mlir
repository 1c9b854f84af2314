// Y = X + X, 2 compute tiles of 4 rows, each walking its rows one by one in an scf.for
// whose access tiles are written with subscript expressions (`%Xv[%row + %i, %c0]`), as
// the upstream KTIR dialect prints them.
#row1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @subscript_expression(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  scf.for %i = %c0 to %c4 step %c1 {
    %Xt = ktdp.construct_access_tile %Xv[%row + %i, %c0] {access_tile_set = #row1, access_tile_order = #id2}
        : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row + %i, %c0] {access_tile_set = #row1, access_tile_order = #id2}
        : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %e = tensor.empty() : tensor<1x128xf16>
    %y = linalg.add ins(%x, %x : tensor<1x128xf16>, tensor<1x128xf16>) outs(%e : tensor<1x128xf16>) -> tensor<1x128xf16>
    ktdp.store %y, %Yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
  }
  return
}
