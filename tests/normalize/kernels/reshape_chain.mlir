// A computed 16x16 tile collapsed to 256 and expanded back to 16x16 before its store: the
// second reshape reshapes the first one's source, stored through a reshaped tile.
func.func @chain(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %X, sizes: [16, 16], strides: [16, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<16x16xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [16, 16], strides: [16, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<16x16xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %x = ktdp.load %xt : <16x16xindex> -> tensor<16x16xf16>
  %ins = arith.addf %x, %x : tensor<16x16xf16>
  %flat = tensor.collapse_shape %ins [[0, 1]] : tensor<16x16xf16> into tensor<256xf16>
  %back = tensor.expand_shape %flat [[0, 1]] output_shape [16, 16] : tensor<256xf16> into tensor<16x16xf16>
  ktdp.store %back, %yt : tensor<16x16xf16>, <16x16xindex>
  return
}
