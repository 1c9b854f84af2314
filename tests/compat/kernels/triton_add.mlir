// Triton-style: n elements (a run-time value with no declared bounds) read through fixed
// 8-wide tiles, two tiles. Positions past n are masked. out = x > 0 ? x + y : y.
func.func @triton_add(%X: index, %Y: index, %O: index, %n: !ktdp.runtime_arg<index>) attributes {grid = [2]} {
  %c8 = arith.constant 8 : index
  %N = ktdp.runtime_arg_extract value from %n : <index> -> index
  %id = ktdp.get_compute_tile_id : index
  %lo = arith.muli %id, %c8 : index
  %xv = ktdp.construct_memory_view %X, sizes: [%N], strides: [1] {
    coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM> } : memref<?xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [%N], strides: [1] {
    coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM> } : memref<?xf16>
  %ov = ktdp.construct_memory_view %O, sizes: [%N], strides: [1] {
    coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0)>,
    memory_space = #ktdp.spyre_memory_space<HBM> } : memref<?xf16>
  %xt = ktdp.construct_access_tile %xv[%lo] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<?xf16> -> !ktdp.access_tile<8xindex>
  %yt = ktdp.construct_access_tile %yv[%lo] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<?xf16> -> !ktdp.access_tile<8xindex>
  %ot = ktdp.construct_access_tile %ov[%lo] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<?xf16> -> !ktdp.access_tile<8xindex>
  %x = ktdp.load %xt : <8xindex> -> tensor<8xf16>
  %y = ktdp.load %yt : <8xindex> -> tensor<8xf16>
  %zero = arith.constant dense<0.0> : tensor<8xf16>
  %pos = arith.cmpf ogt, %x, %zero : tensor<8xf16>
  %sum = arith.addf %x, %y : tensor<8xf16>
  %out = arith.select %pos, %sum, %y : tensor<8xi1>, tensor<8xf16>
  ktdp.store %out, %ot : tensor<8xf16>, <8xindex>
  return
}
