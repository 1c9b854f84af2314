// All-reduce over 4 tiles: tile t loads row t of X (4x64), every tile receives the sum of
// all rows (folded in ascending tile order from the identity 0) and stores it as row t of Y.
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0, g >= 0, -g >= 0)>
#one_group = affine_set<(g) : (g >= 0, -g >= 0)>

func.func @allreduce(%X: index, %Y: index) attributes {grid = [4]} {
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
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #all
      -> <(tensor<1x64xf16>), groups = #one_group> {
  ^bb0(%g: index):
    ktdp.yield_partial %x : tensor<1x64xf16>
  }
  %z0 = tensor.empty() : tensor<1x64xf16>
  %zero = arith.constant 0.0 : f16
  %z = linalg.fill ins(%zero : f16) outs(%z0 : tensor<1x64xf16>) -> tensor<1x64xf16>
  %s = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #all, identity(%z : tensor<1x64xf16>)
      : <(tensor<1x64xf16>), groups = #one_group> -> tensor<1x64xf16> {
  ^bb0(%l: tensor<1x64xf16>, %r: tensor<1x64xf16>):
    %e = tensor.empty() : tensor<1x64xf16>
    %a = linalg.add ins(%l, %r : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.yield_reduced %a : tensor<1x64xf16>
  }
  ktdp.store %s, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
