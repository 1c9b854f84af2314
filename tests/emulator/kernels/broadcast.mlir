// Broadcast: tile 2 produces its row of X; every tile consumes it: Y[t] = X[2].
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g >= 0, -g >= 0)>
#one_group = affine_set<(g) : (g >= 0, -g >= 0)>
#prod = affine_set<(i)[g] : (i - 2 == 0, g == 0)>
#groups = affine_set<(g) : (g == 0)>
#cons = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g == 0)>

func.func @broadcast(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #prod
      -> <(tensor<1x64xf16>), groups = #groups> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %r = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #cons
      : <(tensor<1x64xf16>), groups = #groups> -> tensor<1x64xf16>
  ktdp.store %r, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
