// 1000 elements over a grid of 4 tiles of 256: the last tile's positions 1000..1023 lie
// outside both views, so its load reads zeros there and its store skips them (the
// argument arrays hold exactly 1000 elements: a store past the edge would leave them).
func.func @grid_tail(%X: index, %Y: index) attributes {grid = [4]} {
  %c256 = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %lo = arith.muli %t, %c256 : index
  %xv = ktdp.construct_memory_view %X, sizes: [1000], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<1000xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [1000], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 999 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<1000xf16>
  %xt = ktdp.construct_access_tile %xv[%lo] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<1000xf16> -> !ktdp.access_tile<256xindex>
  %yt = ktdp.construct_access_tile %yv[%lo] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<1000xf16> -> !ktdp.access_tile<256xindex>
  %x = ktdp.load %xt : <256xindex> -> tensor<256xf16>
  %two = arith.constant dense<2.0> : tensor<256xf16>
  %one = arith.constant dense<1.0> : tensor<256xf16>
  %m = arith.mulf %x, %two : tensor<256xf16>
  %y = arith.addf %m, %one : tensor<256xf16>
  ktdp.store %y, %yt : tensor<256xf16>, <256xindex>
  return
}
