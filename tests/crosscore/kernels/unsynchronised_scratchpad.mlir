// Tile 0 stores X row 0 into its own scratchpad; every tile then reads that slot from core
// 0's scratchpad with no inter-tile op between: ordered by program order only.
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @unsynchronised_scratchpad(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %Sv = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local>} : memref<1x64xf16>
  %R = ktdp.construct_memory_view %c0, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<1x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
  %St = ktdp.construct_access_tile %Sv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Rt = ktdp.construct_access_tile %R[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %St : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  %r = ktdp.load %Rt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  ktdp.store %r, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
