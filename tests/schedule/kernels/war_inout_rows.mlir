// Two tiles of 2 rows of the in/out argument A: each loads its rows x, stores 2x over them,
// then x + 1 of the old rows to Z. 4x64 f32.
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#h = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @war_global_inout_rows(%A: index, %Z: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %two = arith.constant 2.0 : f32
  %tid = ktdp.get_compute_tile_id : index
  %row = arith.muli %tid, %c2 : index
  %one = arith.constant 1.0 : f32
  %Av = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %Zv = ktdp.construct_memory_view %Z, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #t, memory_space = #ktdp.memory_space<global> } : memref<4x64xf32>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #h, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<2x64xindex>
  %Zt = ktdp.construct_access_tile %Zv[%row, %c0] {access_tile_set = #h, access_tile_order = #o2}
      : memref<4x64xf32> -> !ktdp.access_tile<2x64xindex>
  %x = ktdp.load %At : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf32>
  %y_e = tensor.empty() : tensor<2x64xf32>
  %y = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x64xf32>) outs(%y_e : tensor<2x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.mulf %v, %two : f32
      linalg.yield %r : f32
  } -> tensor<2x64xf32>
  ktdp.store %y, %At : tensor<2x64xf32>, !ktdp.access_tile<2x64xindex>
  %z_e = tensor.empty() : tensor<2x64xf32>
  %z = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x64xf32>) outs(%z_e : tensor<2x64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %r = arith.addf %v, %one : f32
      linalg.yield %r : f32
  } -> tensor<2x64xf32>
  ktdp.store %z, %Zt : tensor<2x64xf32>, !ktdp.access_tile<2x64xindex>
  return
}
