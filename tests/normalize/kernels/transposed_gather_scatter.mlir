// Indirect access tiles traversed column-major (`variables_space_order = (d1, d0)`): each
// of 4 tiles gathers 2 rows of a table E by index, as a 64x2 tile, and stores it into its
// 2 columns of Y; and reads its 2 rows of U column-major and scatters them into F at the
// same indices (the normal form reads each tile in its variables' order and transposes).
#tab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#idx = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#two = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#u = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#ycols = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_gather_scatter(%E: index, %I: index, %U: index, %Y: index, %F: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %r0 = arith.muli %t, %c2 : index
  %Ev = ktdp.construct_memory_view %E, sizes: [64, 64], strides: [64, 1] {coordinate_set = #tab, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Fv = ktdp.construct_memory_view %F, sizes: [64, 64], strides: [64, 1] {coordinate_set = #tab, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Iv = ktdp.construct_memory_view %I, sizes: [8], strides: [1] {coordinate_set = #idx, memory_space = #ktdp.memory_space<global>} : memref<8xi32>
  %Uv = ktdp.construct_memory_view %U, sizes: [8, 64], strides: [64, 1] {coordinate_set = #u, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 8], strides: [8, 1] {coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<64x8xf16>
  %G = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d) %Ev[ind(%Iv[%r0 + %i]), (%d)] {variables_space_set = #two, variables_space_order = #tr} : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<64x2xindex>
  %S = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d) %Fv[ind(%Iv[%r0 + %i]), (%d)] {variables_space_set = #two, variables_space_order = #tr} : memref<64x64xf16>, memref<8xi32> -> !ktdp.access_tile<64x2xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %r0] {access_tile_set = #ycols, access_tile_order = #id2} : memref<64x8xf16> -> !ktdp.access_tile<64x2xindex>
  %Ut = ktdp.construct_access_tile %Uv[%r0, %c0] {access_tile_set = #two, access_tile_order = #tr} : memref<8x64xf16> -> !ktdp.access_tile<64x2xindex>
  %g = ktdp.load %G : !ktdp.access_tile<64x2xindex> -> tensor<64x2xf16>
  ktdp.store %g, %Yt : tensor<64x2xf16>, !ktdp.access_tile<64x2xindex>
  %u = ktdp.load %Ut : !ktdp.access_tile<64x2xindex> -> tensor<64x2xf16>
  ktdp.store %u, %S : tensor<64x2xf16>, !ktdp.access_tile<64x2xindex>
  return
}
