// PASS: split-indirect-variables
// A tile's rows start at %row = 64 * tile id, and its gather reads the block table at
// (%row + %t) floordiv 32 and the page's row at (%row + %t) mod 32: the outer value %row
// is a known multiple of 32, so it is written as 32 * %row_div32 and %t splits into page
// and row as when it stood alone (its pages: %t_q + %row_div32, its row: %t_r).
// CHECK: %[[C:.*]] = arith.constant 32 : index
// CHECK-NEXT: %row_div32 = arith.divsi %row, %[[C]] : index
// CHECK-NEXT: %src = ktdp.construct_indirect_access_tile intermediate_variables(%t_q, %t_r, %d) %Xv[ind(%Iv[%t_q + %row_div32]), (%t_r), (%d)]
// CHECK-SAME: -> !ktdp.access_tile<2x32x64xindex>
// CHECK: tensor.collapse_shape
// CHECK-NOT: floordiv
// CHECK-NOT: mod
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @paged_rows(%X: index, %Idx: index, %Y: index) attributes {grid = [2 : i64]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %b = ktdp.get_compute_tile_id : index
    %row = arith.muli %b, %c64 : index
    %Iv = ktdp.construct_memory_view %Idx, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
    %Xv = ktdp.construct_memory_view %X, sizes: [6, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 5) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6x32x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [128, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %src = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Xv[ind(%Iv[((%row + %t) floordiv 32)]), ((%row + %t) mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<6x32x64xf16>, memref<4xi32> -> !ktdp.access_tile<64x64xindex>
    %dst = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<128x64xf16> -> !ktdp.access_tile<64x64xindex>
    %pages = ktdp.load %src : <64x64xindex> -> tensor<64x64xf16>
    ktdp.store %pages, %dst : tensor<64x64xf16>, <64x64xindex>
    func.return
  }
}
