// x is loaded from a scratchpad view S, y = 2x stored over S, then z = x + 1 (the old x)
// stored to Z; W reads S back (y). The scheduler writes y when its compute runs and reads
// x when z runs: the store must land after z (stores-after-reads). 4x64 f32, one tile.
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @war_ctlocal(%A: index, %Z: index, %W: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %Av = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Zv = ktdp.construct_memory_view %Z, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Wv = ktdp.construct_memory_view %W, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Sv = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<ct_local> } : memref<4x64xf32>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Zt = ktdp.construct_access_tile %Zv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Wt = ktdp.construct_access_tile %Wv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %St = ktdp.construct_access_tile %Sv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  %e0 = tensor.empty() : tensor<4x64xf32>
  %a1 = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x64xf32>) outs(%e0 : tensor<4x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.addf %v, %one : f32
      linalg.yield %r : f32
  } -> tensor<4x64xf32>
  ktdp.store %a1, %St : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %St : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  %e1 = tensor.empty() : tensor<4x64xf32>
  %y = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e1 : tensor<4x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.mulf %v, %two : f32
      linalg.yield %r : f32
  } -> tensor<4x64xf32>
  ktdp.store %y, %St : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  %e2 = tensor.empty() : tensor<4x64xf32>
  %z = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%e2 : tensor<4x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.addf %v, %one : f32
      linalg.yield %r : f32
  } -> tensor<4x64xf32>
  ktdp.store %z, %Zt : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  %w = ktdp.load %St : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  ktdp.store %w, %Wt : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  return
}
