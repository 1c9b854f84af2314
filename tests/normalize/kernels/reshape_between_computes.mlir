// Two flat 1024-element rows summed (a value that is computed, like an all-reduced
// partial), expanded to 4x256 and added to a loaded 4x256 tile: the reshape of the
// computed sum moves to the sum's inputs, loaded through 4x256 views.
func.func @residual(%A: index, %B: index, %X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %av = ktdp.construct_memory_view %A, sizes: [1024], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<1024xf16>
  %bv = ktdp.construct_memory_view %B, sizes: [1024], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<1024xf16>
  %xv = ktdp.construct_memory_view %X, sizes: [4, 256], strides: [256, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x256xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [4, 256], strides: [256, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x256xf16>
  %at = ktdp.construct_access_tile %av[%c0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
  %bt = ktdp.construct_access_tile %bv[%c0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x256xf16> -> !ktdp.access_tile<4x256xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x256xf16> -> !ktdp.access_tile<4x256xindex>
  %a = ktdp.load %at : <1024xindex> -> tensor<1024xf16>
  %b = ktdp.load %bt : <1024xindex> -> tensor<1024xf16>
  %x = ktdp.load %xt : <4x256xindex> -> tensor<4x256xf16>
  %e = tensor.empty() : tensor<1024xf16>
  %sum = linalg.add ins(%a, %b : tensor<1024xf16>, tensor<1024xf16>) outs(%e : tensor<1024xf16>) -> tensor<1024xf16>
  %sum2 = tensor.expand_shape %sum [[0, 1]] output_shape [4, 256] : tensor<1024xf16> into tensor<4x256xf16>
  %y = arith.addf %x, %sum2 : tensor<4x256xf16>
  ktdp.store %y, %yt : tensor<4x256xf16>, <4x256xindex>
  return
}
