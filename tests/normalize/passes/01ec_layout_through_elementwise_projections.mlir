// PASS: layout-through-elementwise
// A gathered tile in its variables' shape (page, row in the page, column: 2x2x16) merged
// back to 4 rows, then an elementwise max and a row sum (a reduction over the columns,
// its output read at a projection of the position) stored as 4 sums. The merge cannot
// move up into the gather, so it moves down: through the elementwise generic (its other
// input, a loaded 4x16 tile, read through a reshaped access of the same memory), then
// through the row sum, whose merged dim stays parallel: the sum runs over 2x2x16 into
// 2x2, and the 4 sums are stored through the output's tile seen as 2x2.
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[L:.*]] = ktdp.load %T13 : <2x2x16xindex> -> tensor<2x2x16xf16>
// CHECK: %g22 = linalg.generic {{.*}} ins(%[[L]], %{{.*}} : tensor<2x2x16xf16>, tensor<2x2x16xf16>) outs(%{{.*}} : tensor<2x2x16xf16>)
// CHECK: %red27 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%g22 : tensor<2x2x16xf16>)
// CHECK: } -> tensor<2x2xf16>
// CHECK: ktdp.store %red27, %{{.*}} : tensor<2x2xf16>, <2x2xindex>
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @fuzz(%A0: index, %T6: index, %E2: index, %I3: index, %Y: index) attributes {grid = [1 : i64]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %x = ktdp.get_compute_tile_id : index
    %i1 = arith.muli %x, %c4 : index
    %i15 = arith.muli %x, %c2 : index
    %i32 = arith.muli %x, %c4 : index
    %V2 = ktdp.construct_memory_view %A0, sizes: [4, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %V7 = ktdp.construct_memory_view %T6, sizes: [4, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
    %V14 = ktdp.construct_memory_view %E2, sizes: [4, 2, 16], strides: [32, 16, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 1) >= 0, d2 >= 0, ((d2 * -1) + 15) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x2x16xf16>
    %V16 = ktdp.construct_memory_view %I3, sizes: [2], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
    %V31 = ktdp.construct_memory_view %Y, sizes: [4], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
    %T3 = ktdp.construct_access_tile %V2[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
    %v4 = ktdp.load %T3 : <4x16xindex> -> tensor<4x16xf16>
    %r6 = tensor.empty() : tensor<4x16xf16>
    %r6_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v4, %v4 : tensor<4x16xf16>, tensor<4x16xf16>) outs(%r6 : tensor<4x16xf16>) {
    ^bb0(%0: f16, %1: f16, %2: f16):
      %3 = arith.maximumf %0, %1 : f16
      linalg.yield %3 : f16
    } -> tensor<4x16xf16>
    %T8 = ktdp.construct_access_tile %V7[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
    ktdp.store %r6_1, %T8 : tensor<4x16xf16>, <4x16xindex>
    %T9 = ktdp.construct_access_tile %V7[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x16xf16> -> !ktdp.access_tile<4x16xindex>
    %v10 = ktdp.load %T9 : <4x16xindex> -> tensor<4x16xf16>
    %T13 = ktdp.construct_indirect_access_tile intermediate_variables(%t11_q, %t11_r, %d12) %V14[ind(%V16[%t11_q + %i15]), (%t11_r), (%c0 + %d12)] {variables_space_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 1) >= 0, d2 >= 0, ((d2 * -1) + 15) >= 0)>, variables_space_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<4x2x16xf16>, memref<2xi32> -> !ktdp.access_tile<2x2x16xindex>
    %4 = ktdp.load %T13 : <2x2x16xindex> -> tensor<2x2x16xf16>
    %v17 = tensor.collapse_shape %4 [[0 : i64, 1 : i64], [2 : i64]] : tensor<2x2x16xf16> into tensor<4x16xf16>
    %e20 = tensor.empty() : tensor<4x16xf16>
    %g22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v17, %v10 : tensor<4x16xf16>, tensor<4x16xf16>) outs(%e20 : tensor<4x16xf16>) {
    ^bb0(%a18: f16, %a19: f16, %o23: f16):
      %s21 = arith.maximumf %a18, %a18 : f16
      linalg.yield %s21 : f16
    } -> tensor<4x16xf16>
    %k26 = arith.constant 0.000000e+00 : f16
    %e24 = tensor.empty() : tensor<4xf16>
    %f25 = linalg.fill ins(%k26 : f16) outs(%e24 : tensor<4xf16>) -> tensor<4xf16>
    %red27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%g22 : tensor<4x16xf16>) outs(%f25 : tensor<4xf16>) {
    ^bb0(%x28: f16, %y29: f16):
      %s30 = arith.addf %x28, %y29 : f16
      linalg.yield %s30 : f16
    } -> tensor<4xf16>
    %T33 = ktdp.construct_access_tile %V31[%i32] {access_tile_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 3) >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xf16> -> !ktdp.access_tile<4xindex>
    ktdp.store %red27, %T33 : tensor<4xf16>, <4xindex>
    func.return
  }
}
