// PASS: layout-through-elementwise
// A gathered tile in its variables' shape (head, page, row, feature: 2x4x32x64), its page
// and row merged back to 128 tokens, then transposed to Y's (token, head, feature) order
// and stored. The gather cannot take the merge (its shape is its variables'), so the
// merge moves down: through the transpose, whose groups move as units (the transpose
// runs over 2x4x32x64 to 4x32x2x64), to the store, which stores through Y's tile split
// the same way. No reshape is left.
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[L:.*]] = ktdp.load %Xt : <2x4x32x64xindex> -> tensor<2x4x32x64xf16>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x32x2x64xf16>
// CHECK-NEXT: %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]{{.*}} ins(%[[L]] : tensor<2x4x32x64xf16>) outs(%[[E]] : tensor<4x32x2x64xf16>)
// CHECK: %[[Y:.*]] = ktdp.construct_access_tile %Yv_r{{.*}} -> !ktdp.access_tile<4x32x2x64xindex>
// CHECK-NEXT: ktdp.store %[[T]], %[[Y]] : tensor<4x32x2x64xf16>, <4x32x2x64xindex>
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @paged_copy(%X: index, %Idx: index, %Y: index) attributes {grid = [2 : i64]} {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %b = ktdp.get_compute_tile_id : index
    %Iv = ktdp.construct_memory_view %Idx, sizes: [2, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
    %Xv = ktdp.construct_memory_view %X, sizes: [12, 2, 32, 64], strides: [4096, 2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, ((d0 * -1) + 11) >= 0, d1 >= 0, ((d1 * -1) + 1) >= 0, d2 >= 0, ((d2 * -1) + 31) >= 0, d3 >= 0, ((d3 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x2x32x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [256, 2, 64], strides: [128, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 1) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x2x64xf16>
    %Xt = ktdp.construct_indirect_access_tile intermediate_variables(%h, %t_q, %t_r, %d) %Xv[ind(%Iv[%b, %t_q]), (%h), (%t_r), (%d)] {variables_space_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0, d2 >= 0, ((d2 * -1) + 31) >= 0, d3 >= 0, ((d3 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>} : memref<12x2x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<2x4x32x64xindex>
    %row = arith.muli %b, %c128 : index
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 1) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<256x2x64xf16> -> !ktdp.access_tile<128x2x64xindex>
    %0 = ktdp.load %Xt : <2x4x32x64xindex> -> tensor<2x4x32x64xf16>
    %pages = tensor.collapse_shape %0 [[0 : i64], [1 : i64, 2 : i64], [3 : i64]] : tensor<2x4x32x64xf16> into tensor<2x128x64xf16>
    %1 = tensor.empty() : tensor<128x2x64xf16>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%pages : tensor<2x128x64xf16>) outs(%1 : tensor<128x2x64xf16>) {
    ^bb0(%3: f16, %4: f16):
      linalg.yield %3 : f16
    } -> tensor<128x2x64xf16>
    ktdp.store %2, %Yt : tensor<128x2x64xf16>, <128x2x64xindex>
    func.return
  }
}
