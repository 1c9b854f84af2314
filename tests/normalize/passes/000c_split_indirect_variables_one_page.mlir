// PASS: split-indirect-variables
// A tile of one page: its 32 rows start at %row = 32 * tile id and read the block table
// at (%row + %t) floordiv 32, the page's row at (%row + %t) mod 32. %row is written as
// 32 * %row_div32; over one page %t needs no split, so the tile keeps its variables and
// shape (no reshape after the load) and its subscripts become %row_div32 and %t.
// CHECK: %row_div32 = arith.divsi %row, %{{.*}} : index
// CHECK-NEXT: %src = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Xv[ind(%Iv[%row_div32]), (%t), (%d)]
// CHECK-SAME: -> !ktdp.access_tile<32x64xindex>
// CHECK-NEXT: %dst = ktdp.construct_access_tile
// CHECK-NEXT: %pages = ktdp.load %src : <32x64xindex> -> tensor<32x64xf16>
// CHECK-NOT: collapse_shape
// CHECK-NOT: floordiv
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @paged_rows(%X: index, %Idx: index, %Y: index) attributes {grid = [2 : i64]} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %b = ktdp.get_compute_tile_id : index
    %row = arith.muli %b, %c32 : index
    %Iv = ktdp.construct_memory_view %Idx, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
    %Xv = ktdp.construct_memory_view %X, sizes: [6, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 5) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6x32x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %src = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Xv[ind(%Iv[((%row + %t) floordiv 32)]), ((%row + %t) mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<6x32x64xf16>, memref<4xi32> -> !ktdp.access_tile<32x64xindex>
    %dst = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %pages = ktdp.load %src : <32x64xindex> -> tensor<32x64xf16>
    ktdp.store %pages, %dst : tensor<32x64xf16>, <32x64xindex>
    func.return
  }
}
