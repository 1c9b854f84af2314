// B (a 64-wide f16 row) is pinned by the caller in every tile's own scratchpad (a
// ct_local view with no ct_id, on a pointer argument): the compiler chooses where, the
// runtime places a copy in each core's scratchpad. Tile t writes row t of Y = X + B.
#b = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @own_scratchpad_bias(%X: index, %B: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [64], strides: [1] {
      coordinate_set = #b, memory_space = #ktdp.memory_space<ct_local>} : memref<64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0] {access_tile_set = #b, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<1x64xf16>, tensor<64xf16>)
      outs(%e : tensor<1x64xf16>) {
  ^bb0(%xe: f16, %be: f16, %o: f16):
    %s = arith.addf %xe, %be : f16
    linalg.yield %s : f16
  } -> tensor<1x64xf16>
  ktdp.store %y, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
