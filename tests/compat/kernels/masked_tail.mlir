// Two tiles each copy an 8-wide block of %X (+1) to %Y; both views hold 13 elements, so
// tile 1's positions 13..15 are masked: read as zero, not written. %Y's buffer has 16
// elements (%yall: tile 0 reads its tail, 13..15, which no store may write: reading
// elements another tile stores would be a read/write race), so the tail shows whether a
// store touched it.
func.func @masked_copy(%X: index, %Y: index) attributes {grid = [2]} {
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %lo = arith.muli %t, %c8 : index
  %xv = ktdp.construct_memory_view %X, sizes: [16], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 12 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<16xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [16], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 12 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<16xf16>
  %xt = ktdp.construct_access_tile %xv[%lo] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<16xf16> -> !ktdp.access_tile<8xindex>
  %yt = ktdp.construct_access_tile %yv[%lo] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<16xf16> -> !ktdp.access_tile<8xindex>
  %yall = ktdp.construct_memory_view %Y, sizes: [16], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<16xf16>
  %c0 = arith.constant 0 : index
  %c13 = arith.constant 13 : index
  %at = ktdp.construct_access_tile %yall[%c13] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 2 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<16xf16> -> !ktdp.access_tile<3xindex>
  %is_first = arith.cmpi eq, %t, %c0 : index
  scf.if %is_first {
    %before = ktdp.load %at : <3xindex> -> tensor<3xf16>
  }
  %x = ktdp.load %xt : <8xindex> -> tensor<8xf16>
  %one = arith.constant dense<1.0> : tensor<8xf16>
  %y = arith.addf %x, %one : tensor<8xf16>
  ktdp.store %y, %yt : tensor<8xf16>, <8xindex>
  return
}
