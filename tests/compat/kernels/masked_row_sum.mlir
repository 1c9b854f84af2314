// Three tiles each sum one row of 100 columns through a 1x128 tile: columns 100..127 are
// masked, read as zeros, so they add nothing to the sum.
func.func @masked_row_sum(%X: index, %S: index) attributes {grid = [3]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %X, sizes: [3, 100], strides: [100, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 99 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<3x100xf16>
  %sv = ktdp.construct_memory_view %S, sizes: [3], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<3xf32>
  %xt = ktdp.construct_access_tile %xv[%t, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<3x100xf16> -> !ktdp.access_tile<1x128xindex>
  %st = ktdp.construct_access_tile %sv[%t] {
    access_tile_set = affine_set<(d0) : (d0 == 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<3xf32> -> !ktdp.access_tile<1xindex>
  %x = ktdp.load %xt : <1x128xindex> -> tensor<1x128xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.generic {
      indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x128xf16>) outs(%init : tensor<1xf32>) {
    ^bb0(%a: f16, %acc: f32):
      %w = arith.extf %a : f16 to f32
      %r = arith.addf %acc, %w : f32
      linalg.yield %r : f32
  } -> tensor<1xf32>
  ktdp.store %s, %st : tensor<1xf32>, <1xindex>
  return
}
