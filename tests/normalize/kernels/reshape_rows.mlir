// Each of 2 tiles walks its 2 rows of 256: a row is loaded as a 1x256 tile, collapsed to
// 256 elements, scaled, and expanded back to 1x256 to be stored.
func.func @reshape_rows(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c2 : index
  %xv = ktdp.construct_memory_view %X, sizes: [4, 256], strides: [256, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x256xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [4, 256], strides: [256, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x256xf16>
  scf.for %k = %c0 to %c2 step %c1 {
    %row = arith.addi %first, %k : index
    %xt = ktdp.construct_access_tile %xv[%row, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>
    %yt = ktdp.construct_access_tile %yv[%row, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>
    %x2 = ktdp.load %xt : <1x256xindex> -> tensor<1x256xf16>
    %x = tensor.collapse_shape %x2 [[0, 1]] : tensor<1x256xf16> into tensor<256xf16>
    %three = arith.constant dense<3.0> : tensor<256xf16>
    %y = arith.mulf %x, %three : tensor<256xf16>
    %y2 = tensor.expand_shape %y [[0, 1]] output_shape [1, 256] : tensor<256xf16> into tensor<1x256xf16>
    ktdp.store %y2, %yt : tensor<1x256xf16>, <1x256xindex>
  }
  return
}
