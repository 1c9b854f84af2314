// PASS: unindexed-tiles
// Two indirect tiles that read no index tensor become plain tiles: each on a 4 x 32 view
// of the same memory whose dims are the variables (strides: r walks 32 elements, c one),
// its offset the tile's first element (`t * 128` past the argument, as arith ops).
// CHECK: %[[K0:.+]] = arith.constant 128 : index
// CHECK-NEXT: %[[M0:.+]] = arith.muli %t, %[[K0]] : index
// CHECK-NEXT: %[[O0:.+]] = arith.addi %X, %[[M0]] : index
// CHECK-NEXT: %[[Z0:.+]] = arith.constant 0 : index
// CHECK-NEXT: %[[V0:.+]] = ktdp.construct_memory_view %[[O0]], sizes: [4, 32], strides: [32, 1] {{.*}} : memref<4x32xf16>
// CHECK-NEXT: %src = ktdp.construct_access_tile %[[V0]][%[[Z0]], %[[Z0]]] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK: %[[M1:.+]] = arith.muli %t, %{{.+}} : index
// CHECK-NEXT: %[[O1:.+]] = arith.addi %Y, %[[M1]] : index
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: %[[V1:.+]] = ktdp.construct_memory_view %[[O1]], sizes: [4, 32], strides: [32, 1]
// CHECK: %dst = ktdp.construct_access_tile %[[V1]]
// CHECK-NOT: construct_indirect_access_tile
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @split_index_copy(%X: index, %Y: index) attributes {grid = [2 : i64]} {
    %t = ktdp.get_compute_tile_id : index
    %Xv = ktdp.construct_memory_view %X, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 32], strides: [32, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %src = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %Xv[(%t * 128 + %r * 32 + %c)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<256xf16> -> !ktdp.access_tile<4x32xindex>
    %dst = ktdp.construct_indirect_access_tile intermediate_variables(%r, %c) %Yv[(%r + %t * 4), (%c)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x32xf16> -> !ktdp.access_tile<4x32xindex>
    %v = ktdp.load %src : <4x32xindex> -> tensor<4x32xf16>
    ktdp.store %v, %dst : tensor<4x32xf16>, <4x32xindex>
    func.return
  }
}
