// Each of four tiles scales 4 rows starting at tile * BLOCK (a scalar argument) by
// %scale (a float scalar). BLOCK = 4 tiles the 16 rows; BLOCK < 4 makes tiles overlap.
func.func @scalar_block(%X: index, %Y: index, %BLOCK: index, %scale: f16) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %id = ktdp.get_compute_tile_id : index
  %lo = arith.muli %id, %BLOCK : index
  %xv = ktdp.construct_memory_view %X, sizes: [16, 8], strides: [8, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<16x8xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [16, 8], strides: [8, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<16x8xf16>
  %xt = ktdp.construct_access_tile %xv[%lo, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<16x8xf16> -> !ktdp.access_tile<4x8xindex>
  %yt = ktdp.construct_access_tile %yv[%lo, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<16x8xf16> -> !ktdp.access_tile<4x8xindex>
  %x = ktdp.load %xt : <4x8xindex> -> tensor<4x8xf16>
  %s = tensor.splat %scale : tensor<4x8xf16>
  %y = arith.mulf %x, %s : tensor<4x8xf16>
  ktdp.store %y, %yt : tensor<4x8xf16>, <4x8xindex>
  return
}
