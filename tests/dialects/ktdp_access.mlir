// ktdp access tiles (plain, affine subscripts, symbols, non-identity order), indirect
// access tiles (ind() and (expr) dims), load and store. See ktdp_memory.mlir for how
// this file is run.

#rows3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>
#vars = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>

// CHECK-LABEL: func.func @tiles(
func.func @tiles(%A: index, %P: index, %I: index, %m0: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %id = ktdp.get_compute_tile_id : index
  %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<96x64xf16>
  %Iv = ktdp.construct_memory_view %I, sizes: [8, 4], strides: [4, 1] {
      coordinate_set = #vars, memory_space = #ktdp.memory_space<global> } : memref<8x4xi32>
  %Jv = ktdp.construct_memory_view %I, sizes: [8, 4], strides: [4, 1] {
      coordinate_set = #vars, memory_space = #ktdp.memory_space<global> } : memref<8x4xi64>
  %Pv = ktdp.construct_memory_view %P, sizes: [8], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<8xi32>
  // CHECK: %t = ktdp.construct_access_tile %Av[%id, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 2) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %t = ktdp.construct_access_tile %Av[%id, %c0] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  // Affine subscripts print with the fewest parentheses that keep their meaning.
  // CHECK-NEXT: %aff = ktdp.construct_access_tile %Av[%id + 3, %c0 * 2] {{.*}} -> !ktdp.access_tile<3x64xindex>
  %aff = ktdp.construct_access_tile %Av[%id + 3, %c0 * 2] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  // xDSL folds (%id + 1) * 3 to %id * 3 + 3 when it builds the map.
  // CHECK-NEXT: %aff2 = ktdp.construct_access_tile %Av[%id * 3 + 3, %id mod 4 + -1] {{.*}} -> !ktdp.access_tile<3x64xindex>
  %aff2 = ktdp.construct_access_tile %Av[(%id + 1) * 3, %id mod 4 - 1] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  // A symbolic (triangular-ish) set bound by symbols(...), in column-major order.
  // CHECK-NEXT: %sym = ktdp.construct_access_tile %Av[%id, %c0] symbols(%m0) {access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, ((d0 * -1) + 2) >= 0, d1 >= 0, (((d1 * -1) + s0) + -1) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<96x64xf16> -> !ktdp.access_tile<?x3xindex>
  %sym = ktdp.construct_access_tile %Av[%id, %c0] symbols(%m0) {
      access_tile_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + s0 - 1 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d1, d0)> } : memref<96x64xf16> -> !ktdp.access_tile<?x3xindex>
  // Two gathered dims.
  // CHECK-NEXT: %gat = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %Av[ind(%Iv[%m, %k]), ind(%Jv[%m, %k])] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<96x64xf16>, memref<8x4xi32>, memref<8x4xi64> -> !ktdp.access_tile<8x4xindex>
  %gat = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %Av[ind(%Iv[%m, %k]), ind(%Jv[%m, %k])] {
      variables_space_set = #vars, variables_space_order = #rowmajor } : memref<96x64xf16>, memref<8x4xi32>, memref<8x4xi64> -> !ktdp.access_tile<8x4xindex>
  // Mixed: a page table gives the row, the column is an expression of the variables.
  // CHECK-NEXT: %page = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %Av[ind(%Pv[%m]), (%k)] {{{.*}}variables_space_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<96x64xf16>, memref<8xi32> -> !ktdp.access_tile<4x8xindex>
  %page = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %Av[ind(%Pv[%m]), (%k)] {
      variables_space_set = #vars, variables_space_order = affine_map<(d0, d1) -> (d1, d0)> } : memref<96x64xf16>, memref<8xi32> -> !ktdp.access_tile<4x8xindex>
  // Outer SSA values in subscripts, printed structurally (no string substitution).
  // CHECK-NEXT: %outer = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %Av[ind(%Pv[%m + %id]), ((%k + %id) floordiv 2 + %id mod 4 * -1)] {{.*}} -> !ktdp.access_tile<8x4xindex>
  %outer = ktdp.construct_indirect_access_tile intermediate_variables(%m, %k) %Av[ind(%Pv[%m + %id]), ((%k + %id) floordiv 2 - %id mod 4)] {
      variables_space_set = #vars, variables_space_order = #rowmajor } : memref<96x64xf16>, memref<8xi32> -> !ktdp.access_tile<8x4xindex>
  // CHECK-NEXT: %a = ktdp.load %t : <3x64xindex> -> tensor<3x64xf16>
  %a = ktdp.load %t : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  // CHECK-NEXT: %gathered = ktdp.load %gat {note = 1 : i64} : <8x4xindex> -> tensor<8x4xf16>
  %gathered = ktdp.load %gat {note = 1} : !ktdp.access_tile<8x4xindex> -> tensor<8x4xf16>
  // CHECK-NEXT: ktdp.store %a, %aff : tensor<3x64xf16>, <3x64xindex>
  ktdp.store %a, %aff : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  // CHECK-NEXT: func.return
  return
}
