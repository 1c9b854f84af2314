// Y[t] = reshape(X[t * 128 : (t + 1) * 128], 4 x 32) on 2 tiles, written with indirect
// access tiles that read no index tensor: the source linearises the tile's variables
// onto the 1-D view (`%t * 128 + %r * 32 + %c`, the tile id an outer value), the
// destination splits that back with `floordiv` / `mod` (quasi-affine, but equal over the
// 4 x 32 box to `%t * 4 + %r` and `%c`). The normal form simplifies the subscripts
// (simplify-indirect-subscripts) and makes both plain tiles on views whose dims are the
// variables (unindexed-tiles).
#x_all = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#y_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#order = affine_map<(d0, d1) -> (d0, d1)>
func.func @split_index_copy(%X: index, %Y: index) attributes {grid = [2]} {
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [256], strides: [1] {
      coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 32], strides: [32, 1] {
      coordinate_set = #y_all, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %src = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
      %Xv[(%t * 128 + %r * 32 + %c)] {variables_space_set = #vars, variables_space_order = #order}
      : memref<256xf16> -> !ktdp.access_tile<4x32xindex>
  %dst = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c)
      %Yv[(%t * 128 + %r * 32 + %c) floordiv 32, (%t * 128 + %r * 32 + %c) mod 32]
      {variables_space_set = #vars, variables_space_order = #order}
      : memref<8x32xf16> -> !ktdp.access_tile<4x32xindex>
  %v = ktdp.load %src : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf16>
  ktdp.store %v, %dst : tensor<4x32xf16>, !ktdp.access_tile<4x32xindex>
  return
}
