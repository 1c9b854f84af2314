// S[i] = B[i] + sum_j X[i, j] over a 16x256 f32 X, 8 compute tiles of 2 rows: the
// `linalg.reduce` accumulates onto the loaded B (its initial value is a loaded tensor,
// not a fill).
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @sum_onto_loaded(%X: index, %B: index, %S: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x256xf32>
  %Bv = ktdp.construct_memory_view %B, sizes: [16], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
  %Sv = ktdp.construct_memory_view %S, sizes: [16], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<16x256xf32> -> !ktdp.access_tile<2x256xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row] {access_tile_set = #two, access_tile_order = #id1}
      : memref<16xf32> -> !ktdp.access_tile<2xindex>
  %St = ktdp.construct_access_tile %Sv[%row] {access_tile_set = #two, access_tile_order = #id1}
      : memref<16xf32> -> !ktdp.access_tile<2xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf32>
  %b = ktdp.load %Bt : !ktdp.access_tile<2xindex> -> tensor<2xf32>
  %s = linalg.reduce ins(%x : tensor<2x256xf32>) outs(%b : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  ktdp.store %s, %St : tensor<2xf32>, !ktdp.access_tile<2xindex>
  return
}
