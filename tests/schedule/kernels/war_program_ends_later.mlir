// x is loaded from S, B copied over S, z = x + C stored to Z, then 2C stored to U: x's
// program (it ends with U, sharing C's load) must run before the copy's although its last
// store comes after it. 4x64 f32, one tile.
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#h = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @war_group_later(%A: index, %B: index, %C: index, %Z: index, %U: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %Av = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Zv = ktdp.construct_memory_view %Z, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Sv = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<ct_local> } : memref<4x64xf32>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Zt = ktdp.construct_access_tile %Zv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %St = ktdp.construct_access_tile %Sv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Cv = ktdp.construct_memory_view %C, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Uv = ktdp.construct_memory_view %U, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Ut = ktdp.construct_access_tile %Uv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %c = ktdp.load %Ct : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  %a = ktdp.load %At : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  ktdp.store %a, %St : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %St : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  %b = ktdp.load %Bt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  ktdp.store %b, %St : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  %z_e = tensor.empty() : tensor<4x64xf32>
  %z = linalg.generic {indexing_maps = [#o2, #o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %c : tensor<4x64xf32>, tensor<4x64xf32>) outs(%z_e : tensor<4x64xf32>) {
    ^bb0(%v: f32, %w: f32, %o: f32):
      %r = arith.addf %v, %w : f32
      linalg.yield %r : f32
  } -> tensor<4x64xf32>
  ktdp.store %z, %Zt : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  %u_e = tensor.empty() : tensor<4x64xf32>
  %u = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4x64xf32>) outs(%u_e : tensor<4x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.mulf %v, %two : f32
      linalg.yield %r : f32
  } -> tensor<4x64xf32>
  ktdp.store %u, %Ut : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  return
}
