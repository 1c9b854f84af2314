// Indirect access tiles: Y[i, j] = X[I[i], j] (gather) and Z[I[i], j] = X[I[i], j]
// (scatter through the same index tensor); rows of Z that I does not name stay zero.
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#is = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @gather_scatter(%X: index, %I: index, %Y: index, %Z: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Iv = ktdp.construct_memory_view %I, sizes: [8], strides: [1] {
      coordinate_set = #is, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #vars, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Zv = ktdp.construct_memory_view %Z, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %g = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Xv[ind(%Iv[%i]), (%j)] {
      variables_space_set = #vars, variables_space_order = #id2}
      : memref<16x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  %s = ktdp.construct_indirect_access_tile intermediate_variables(%i, %j) %Zv[ind(%Iv[%i]), (%j)] {
      variables_space_set = #vars, variables_space_order = #id2}
      : memref<16x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #vars, access_tile_order = #id2}
      : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %x = ktdp.load %g : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  ktdp.store %x, %Yt : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  ktdp.store %x, %s : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
