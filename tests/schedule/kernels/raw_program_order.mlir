// v = 2A is stored into S, S is loaded and z = x + 1 stored to Z, then v + 1 is stored to
// T: v's program (its last store after z's) must still run before the program loading S.
// 4x64 f32, one tile.
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#h = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @raw_programs(%A: index, %T: index, %Z: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %Av = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Tv = ktdp.construct_memory_view %T, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Zv = ktdp.construct_memory_view %Z, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Sv = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<ct_local> } : memref<4x64xf32>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Tt = ktdp.construct_access_tile %Tv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %Zt = ktdp.construct_access_tile %Zv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %St = ktdp.construct_access_tile %Sv[%c0, %c0] {access_tile_set = #t, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  %v_e = tensor.empty() : tensor<4x64xf32>
  %vv = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x64xf32>) outs(%v_e : tensor<4x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.mulf %v, %two : f32
      linalg.yield %r : f32
  } -> tensor<4x64xf32>
  ktdp.store %vv, %St : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %St : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf32>
  %z_e = tensor.empty() : tensor<4x64xf32>
  %z = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x64xf32>) outs(%z_e : tensor<4x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.addf %v, %one : f32
      linalg.yield %r : f32
  } -> tensor<4x64xf32>
  ktdp.store %z, %Zt : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  %w_e = tensor.empty() : tensor<4x64xf32>
  %w = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%vv : tensor<4x64xf32>) outs(%w_e : tensor<4x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.addf %v, %one : f32
      linalg.yield %r : f32
  } -> tensor<4x64xf32>
  ktdp.store %w, %Tt : tensor<4x64xf32>, !ktdp.access_tile<4x64xindex>
  return
}
