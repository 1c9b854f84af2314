// A 4x64 tile's row sums (a reduction result, tensor<4xf32>) expanded to 4x1 for %S; and
// the tile collapsed to 256 elements then seen as 2x128 (two rows merged), negated.
func.func @reshape_total(%X: index, %S: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x64xf16>
  %sv = ktdp.construct_memory_view %S, sizes: [4, 1], strides: [1, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 == 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x1xf32>
  %yv = ktdp.construct_memory_view %Y, sizes: [2, 128], strides: [128, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<2x128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %st = ktdp.construct_access_tile %sv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 == 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x1xf32> -> !ktdp.access_tile<4x1xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<2x128xf16> -> !ktdp.access_tile<2x128xindex>
  %x = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
  %flat = tensor.collapse_shape %x [[0, 1]] : tensor<4x64xf16> into tensor<256xf16>
  %wide = arith.extf %x : tensor<4x64xf16> to tensor<4x64xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.reduce ins(%wide : tensor<4x64xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  %col = tensor.expand_shape %sum [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  ktdp.store %col, %st : tensor<4x1xf32>, <4x1xindex>
  %x2 = tensor.expand_shape %flat [[0, 1]] output_shape [2, 128] : tensor<256xf16> into tensor<2x128xf16>
  %neg = arith.negf %x2 : tensor<2x128xf16>
  ktdp.store %neg, %yt : tensor<2x128xf16>, <2x128xindex>
  return
}
