// Row-wise max and argmax of a 4x8 f32 tensor with reductions whose bodies are not a
// single combiner: max as cmpf + select (NaN-propagating), argmax as a two-output
// generic keeping the first index of the largest value.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @argmax_rows(%X: index, %M: index, %I: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %X, sizes: [4, 8], strides: [8, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x8xf32>
  %mv = ktdp.construct_memory_view %M, sizes: [4], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4xf32>
  %iv = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4xi32>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
    access_tile_order = #id2 } : memref<4x8xf32> -> !ktdp.access_tile<4x8xindex>
  %mt = ktdp.construct_access_tile %mv[%c0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<4xf32> -> !ktdp.access_tile<4xindex>
  %it = ktdp.construct_access_tile %iv[%c0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<4xi32> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %xt : <4x8xindex> -> tensor<4x8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %ei = tensor.empty() : tensor<4xi32>
  %i0 = linalg.fill ins(%zero : i32) outs(%ei : tensor<4xi32>) -> tensor<4xi32>
  %max = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%m0 : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %bigger = arith.cmpf ugt, %in, %acc : f32
      %pick = arith.select %bigger, %in, %acc : f32
      linalg.yield %pick : f32
    }
  %best:2 = linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%m0, %i0 : tensor<4xf32>, tensor<4xi32>) {
    ^bb0(%in: f32, %val: f32, %idx: i32):
      %k = linalg.index 1 : index
      %ki = arith.index_cast %k : index to i32
      %better = arith.cmpf ogt, %in, %val : f32
      %nv = arith.select %better, %in, %val : f32
      %ni = arith.select %better, %ki, %idx : i32
      linalg.yield %nv, %ni : f32, i32
  } -> tensor<4xf32>, tensor<4xi32>
  ktdp.store %max, %mt : tensor<4xf32>, <4xindex>
  ktdp.store %best#1, %it : tensor<4xi32>, <4xindex>
  return
}
