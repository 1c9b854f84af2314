// A 1x1 tile collapsed to a rank-0 scalar tensor and broadcast over a 4x1 column it is
// added to: the vector loop is one element wide, and the scalar's FIFO holds single
// values, not vectors (a mutant of reshape_scalar.mlir crashed the compiler on it).
func.func @scalar_into_a_column(%B: index, %X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %bv = ktdp.construct_memory_view %B, sizes: [4, 4], strides: [4, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x4xf16>
  %xv = ktdp.construct_memory_view %X, sizes: [4, 1], strides: [1, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x1xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [4, 1], strides: [1, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x1xf16>
  %bt = ktdp.construct_access_tile %bv[%c2, %c2] {
    access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x4xf16> -> !ktdp.access_tile<1x1xindex>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x1xf16> -> !ktdp.access_tile<4x1xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x1xf16> -> !ktdp.access_tile<4x1xindex>
  %b2 = ktdp.load %bt : <1x1xindex> -> tensor<1x1xf16>
  %b = tensor.collapse_shape %b2 [] : tensor<1x1xf16> into tensor<f16>
  %x = ktdp.load %xt : <4x1xindex> -> tensor<4x1xf16>
  %e = tensor.empty() : tensor<4x1xf16>
  %bb = linalg.broadcast ins(%b : tensor<f16>) outs(%e : tensor<4x1xf16>) dimensions = [0, 1]
  %y = arith.addf %x, %bb : tensor<4x1xf16>
  ktdp.store %y, %yt : tensor<4x1xf16>, <4x1xindex>
  return
}
