// PASS: reshape-to-access
// A page gathered as [1, 16, 1, 64] (the page through ind(), one head) and collapsed to
// [16, 64], expanded to [16, 1, 64] and collapsed again: each reshape only drops or adds
// dimensions of extent 1, so the page is loaded once as [16, 64] through the same gather
// with the unit variables gone (%d0 replaced by its value 0 in the index subscript, %d2
// in the head's). No reshape and no 4-D tile is left.
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: access_tile<1x16x1x64xindex>
// CHECK: %[[T:.*]] = ktdp.construct_indirect_access_tile intermediate_variables(%d1, %d3) %Kv[ind(%Bv[%c2]), (%d1), (%h), (%d3)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 15) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16x4x64xf16>, memref<4xi32> -> !ktdp.access_tile<16x64xindex>
// CHECK-NEXT: %k2 = ktdp.load %[[T]] : <16x64xindex> -> tensor<16x64xf16>
// CHECK: ktdp.store %k2, %Ot : tensor<16x64xf16>, <16x64xindex>
// CHECK-NOT: tensor.collapse_shape
builtin.module attributes {ktdf.device = "spyre"} {
func.func @gathered_page(%K: index, %BT: index, %O: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %h = ktdp.get_compute_tile_id : index
  %Kv = ktdp.construct_memory_view %K, sizes: [8, 16, 4, 64], strides: [4096, 256, 64, 1] {
      coordinate_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<8x16x4x64xf16>
  %Bv = ktdp.construct_memory_view %BT, sizes: [4], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<4xi32>
  %Ov = ktdp.construct_memory_view %O, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<64x64xf16>
  %Kt = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3)
      %Kv[ind(%Bv[%c2 + %d0]), (%d1), (%h + %d2), (%d3)] {
      variables_space_set = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 63 >= 0)>,
      variables_space_order = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)> }
      : memref<8x16x4x64xf16>, memref<4xi32> -> !ktdp.access_tile<1x16x1x64xindex>
  %k4 = ktdp.load %Kt : !ktdp.access_tile<1x16x1x64xindex> -> tensor<1x16x1x64xf16>
  %k = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x16x1x64xf16> into tensor<16x64xf16>
  %k3 = tensor.expand_shape %k [[0], [1, 2]] output_shape [16, 1, 64] : tensor<16x64xf16> into tensor<16x1x64xf16>
  %k2 = tensor.collapse_shape %k3 [[0, 1], [2]] : tensor<16x1x64xf16> into tensor<16x64xf16>
  %row = arith.muli %h, %c2 : index
  %Ot = ktdp.construct_access_tile %Ov[%row, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
  ktdp.store %k2, %Ot : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  return
}
}
