// Per-element use of the fused (mean, mean-of-squares) pair: Y = layernormscale_fused(exx2_fused(X)),
// and Z = layernormscale(exx2(X)) through separate values: the two paths must agree exactly.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @fused_pair(%X: index, %Y: index, %Z: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %Zv = ktdp.construct_memory_view %Z, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Zt = ktdp.construct_access_tile %Zv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  %e = tensor.empty() : tensor<4x64xf32>
  %y, %z = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e, %e : tensor<4x64xf32>, tensor<4x64xf32>) {
  ^bb0(%xe: f32, %o1: f32, %o2: f32):
    %p = spyreop.exx2_fused %xe : f32 -> !spyreop.fp32_fused
    %s = spyreop.layernormscale_fused %p : !spyreop.fp32_fused -> f32
    %m, %sq = spyreop.exx2 %xe : f32
    %t = spyreop.layernormscale %m squares %sq : f32
    linalg.yield %s, %t : f32, f32
  } -> tensor<4x64xf32>, tensor<4x64xf32>
  ktdp.store %y, %Yt : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  ktdp.store %z, %Zt : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  return
}
