// Each of 2 tiles walks its 2 rows of 100 columns in blocks of 64: the second block's
// columns 100..127 are outside the views (masked), in every row the tile holds.
func.func @block_loop_tail(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %xv = ktdp.construct_memory_view %X, sizes: [4, 100], strides: [100, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 99 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x100xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [4, 100], strides: [100, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 99 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x100xf16>
  scf.for %j = %c0 to %c128 step %c64 {
    %xt = ktdp.construct_access_tile %xv[%row, %j] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x100xf16> -> !ktdp.access_tile<2x64xindex>
    %yt = ktdp.construct_access_tile %yv[%row, %j] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x100xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %xt : <2x64xindex> -> tensor<2x64xf16>
    %y = arith.mulf %x, %x : tensor<2x64xf16>
    ktdp.store %y, %yt : tensor<2x64xf16>, <2x64xindex>
  }
  return
}
