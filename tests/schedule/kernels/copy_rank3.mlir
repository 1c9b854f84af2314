// Y = X on 4x6x96 f16 (a 3-D plain copy, DMA transfers only), 2 compute tiles of 2
// planes; the rows are not a whole number of the DMA's 128-byte granules.
#planes = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 5 >= 0, d2 >= 0, -d2 + 95 >= 0)>
#whole = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 5 >= 0, d2 >= 0, -d2 + 95 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @copy_rank3(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %p = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 6, 96], strides: [576, 96, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x6x96xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 6, 96], strides: [576, 96, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x6x96xf16>
  %Xt = ktdp.construct_access_tile %Xv[%p, %c0, %c0] {access_tile_set = #planes, access_tile_order = #id3} : memref<4x6x96xf16> -> !ktdp.access_tile<2x6x96xindex>
  %Yt = ktdp.construct_access_tile %Yv[%p, %c0, %c0] {access_tile_set = #planes, access_tile_order = #id3} : memref<4x6x96xf16> -> !ktdp.access_tile<2x6x96xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x6x96xindex> -> tensor<2x6x96xf16>
  ktdp.store %x, %Yt : tensor<2x6x96xf16>, !ktdp.access_tile<2x6x96xindex>
  return
}
