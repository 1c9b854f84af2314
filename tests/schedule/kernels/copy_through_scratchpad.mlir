// X is copied into the tile's own scratchpad (a ct_local view: one DMA hop, no staging
// buffer), then from there to Y (one DMA hop back): two programs, DMA transfers only.
// 8x128 f16, 4 compute tiles of 2 rows.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#local = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @copy_through_scratchpad(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 128], strides: [128, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 128], strides: [128, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Sv = ktdp.construct_memory_view %c0, sizes: [2, 128], strides: [128, 1] {coordinate_set = #local, memory_space = #ktdp.memory_space<ct_local>} : memref<2x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %St = ktdp.construct_access_tile %Sv[%c0, %c0] {access_tile_set = #local, access_tile_order = #id2} : memref<2x128xf16> -> !ktdp.access_tile<2x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
  ktdp.store %x, %St : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  %s = ktdp.load %St : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
  ktdp.store %s, %Yt : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  return
}
