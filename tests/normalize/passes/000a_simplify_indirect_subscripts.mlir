// PASS: simplify-indirect-subscripts
// An indirect tile that splits a linearised index again with floordiv / mod: over its
// 4 x 32 variable box, `(t * 128 + r * 32 + c) floordiv 32` is `r + 4 * t` and the `mod
// 32` is `c` (isl's gist over the box). The source's subscript, already linear, stays.
// CHECK: %src = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %Xv[(%t * 128 + %r * 32 + %c)]
// CHECK: %dst = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %Yv[(%r + %t * 4), (%c)]
// CHECK-NOT: floordiv
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @split_index_copy(%X: index, %Y: index) attributes {grid = [2 : i64]} {
    %t = ktdp.get_compute_tile_id : index
    %Xv = ktdp.construct_memory_view %X, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %src = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %Xv[(%t * 128 + %r * 32 + %c)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<256xf16> -> !ktdp.access_tile<4x32xindex>
    %dst = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %Yv[((%t * 128 + %r * 32 + %c) floordiv 32), ((%t * 128 + %r * 32 + %c) mod 32)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x32xf16> -> !ktdp.access_tile<4x32xindex>
    %v = ktdp.load %src : <4x32xindex> -> tensor<4x32xf16>
    ktdp.store %v, %dst : tensor<4x32xf16>, <4x32xindex>
    func.return
  }
}
