// Two tiles gather rows of X through an index tensor: tile t reads X[I[i], 32t + j] for
// i < 4, j < 32. Which rows is known only at run time; the columns are affine.
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#is = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_columns(%X: index, %I: index, %Y: index) attributes {grid = [2]} {
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c32 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Iv = ktdp.construct_memory_view %I, sizes: [4], strides: [1] {
      coordinate_set = #is, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Xv[ind(%Iv[%i]), (%j + %col)] {
      variables_space_set = #vars, variables_space_order = #id2}
      : memref<16x64xf16>, memref<4xi32> -> !ktdp.access_tile<4x32xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %col] {access_tile_set = #vars, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x32xindex>
  %x = ktdp.load %g : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf16>
  ktdp.store %x, %Yt : tensor<4x32xf16>, !ktdp.access_tile<4x32xindex>
  return
}
