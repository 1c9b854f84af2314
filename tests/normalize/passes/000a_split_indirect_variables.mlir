// PASS: split-indirect-variables
// A paged gather and a paged scatter through one block table: the row variable %t is
// read through floordiv 32 (its page, from the table) and mod 32 (the row within the
// page). Over 128 rows neither is linear; as page %t_q (4) and row %t_r (32) both are.
// The loaded tile comes out 4x32x64 and is merged back to the kernel's 128x64 by a
// collapse; the stored value is expanded to 4x32x64 for the split scatter.
// CHECK: %src = ktdp.construct_indirect_access_tile intermediate_variables(%t_q, %t_r, %d) %Xv[ind(%Iv[%b, %t_q]), (%t_r), (%d)] {variables_space_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<4x32x64xindex>
// CHECK: %dst = ktdp.construct_indirect_access_tile intermediate_variables(%t_q, %t_r, %d) %Yv[ind(%Iv[%b, %t_q]), (%t_r), (%d)]
// CHECK-SAME: -> !ktdp.access_tile<4x32x64xindex>
// CHECK: %[[L:.*]] = ktdp.load %src : <4x32x64xindex> -> tensor<4x32x64xf16>
// CHECK-NEXT: %pages = tensor.collapse_shape %[[L]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<4x32x64xf16> into tensor<128x64xf16>
// CHECK-NEXT: %[[E:.*]] = tensor.expand_shape %pages {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [4, 32, 64] : tensor<128x64xf16> into tensor<4x32x64xf16>
// CHECK-NEXT: ktdp.store %[[E]], %dst : tensor<4x32x64xf16>, <4x32x64xindex>
// CHECK-NOT: floordiv
// CHECK-NOT: mod
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @paged_gather_scatter(%X: index, %Idx: index, %Y: index) attributes {grid = [2 : i64]} {
    %b = ktdp.get_compute_tile_id : index
    %Iv = ktdp.construct_memory_view %Idx, sizes: [2, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
    %Xv = ktdp.construct_memory_view %X, sizes: [12, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 11) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [12, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 11) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
    %src = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Xv[ind(%Iv[%b, (%t floordiv 32)]), (%t mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<128x64xindex>
    %dst = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Yv[ind(%Iv[%b, (%t floordiv 32)]), (%t mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<128x64xindex>
    %pages = ktdp.load %src : <128x64xindex> -> tensor<128x64xf16>
    ktdp.store %pages, %dst : tensor<128x64xf16>, <128x64xindex>
    func.return
  }
}
