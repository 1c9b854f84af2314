// Y = X + X for rows 4..7 of an 8x8 f16 tensor. %X has two views, rows 0..3 (which
// nothing accesses) and rows 4..7; a view addresses its first coordinate at its offset
// (docs/ktir.md), so both views name the same 32 elements at %X. One tile.
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @lower_rows(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %Xtop = ktdp.construct_memory_view %X, sizes: [4, 8], strides: [8, 1] {
      coordinate_set = #top, memory_space = #ktdp.memory_space<global> } : memref<4x8xf16>
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 8], strides: [8, 1] {
      coordinate_set = #bottom, memory_space = #ktdp.memory_space<global> } : memref<4x8xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 8], strides: [8, 1] {
      coordinate_set = #bottom, memory_space = #ktdp.memory_space<global> } : memref<4x8xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c4, %c0] {
      access_tile_set = #top, access_tile_order = #rm } : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c4, %c0] {
      access_tile_set = #top, access_tile_order = #rm } : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %e = tensor.empty() : tensor<4x8xf16>
  %y = linalg.add ins(%x, %x : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  ktdp.store %y, %Yt : tensor<4x8xf16>, !ktdp.access_tile<4x8xindex>
  return
}
