// PASS: batch-matmul-to-matmuls
// A batch matmul of one batch index whose result a K loop carries (not only stored):
// the 2-D matmul between reshapes, each operand collapsed to its last two dims and the
// result expanded back (reshape-through-loops and reshape-to-access take them further).
// CHECK: %sum = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (tensor<1x16x16xf32>) {
// CHECK: %[[A:.+]] = tensor.collapse_shape %a {{\[\[}}0 : i64, 1 : i64], [2 : i64]] : tensor<1x16x16xf16> into tensor<16x16xf16>
// CHECK-NEXT: %[[B:.+]] = tensor.collapse_shape %b {{\[\[}}0 : i64, 1 : i64], [2 : i64]] : tensor<1x16x16xf16> into tensor<16x16xf16>
// CHECK-NEXT: %[[C:.+]] = tensor.collapse_shape %acc {{\[\[}}0 : i64, 1 : i64], [2 : i64]] : tensor<1x16x16xf32> into tensor<16x16xf32>
// CHECK-NEXT: %[[P:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<16x16xf16>, tensor<16x16xf16>) outs(%[[C]] : tensor<16x16xf32>)
// CHECK: %next = tensor.expand_shape %[[P]] {{\[\[}}0 : i64, 1 : i64], [2 : i64]] output_shape [1, 16, 16] : tensor<16x16xf32> into tensor<1x16x16xf32>
// CHECK-NEXT: scf.yield %next : tensor<1x16x16xf32>
// CHECK-NOT: linalg.batch_matmul
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @batch_of_one_k_loop(%A: index, %B: index, %C: index) attributes {grid = [4 : i64]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant dense<0.000000e+00> : tensor<1x16x16xf32>
    %t = ktdp.get_compute_tile_id : index
    %batch = arith.divui %t, %c2 : index
    %half = arith.remui %t, %c2 : index
    %row = arith.muli %half, %c16 : index
    %Av = ktdp.construct_memory_view %A, sizes: [2, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x32x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [2, 64, 32], strides: [2048, 32, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0, d2 >= 0, ((d2 * -1) + 31) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64x32xf16>
    %Cv = ktdp.construct_memory_view %C, sizes: [2, 32, 32], strides: [1024, 32, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 31) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x32x32xf32>
    scf.for %col = %c0 to %c32 step %c16 {
      %sum = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (tensor<1x16x16xf32>) {
        %At = ktdp.construct_access_tile %Av[%batch, %row, %k] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0, d2 >= 0, ((d2 * -1) + 15) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x32x64xf16> -> !ktdp.access_tile<1x16x16xindex>
        %Bt = ktdp.construct_access_tile %Bv[%batch, %k, %col] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0, d2 >= 0, ((d2 * -1) + 15) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x64x32xf16> -> !ktdp.access_tile<1x16x16xindex>
        %a = ktdp.load %At : <1x16x16xindex> -> tensor<1x16x16xf16>
        %b = ktdp.load %Bt : <1x16x16xindex> -> tensor<1x16x16xf16>
        %next = linalg.batch_matmul ins(%a, %b : tensor<1x16x16xf16>, tensor<1x16x16xf16>) outs(%acc : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
        scf.yield %next : tensor<1x16x16xf32>
      }
      %Ct = ktdp.construct_access_tile %Cv[%batch, %row, %col] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0, d2 >= 0, ((d2 * -1) + 15) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x32x32xf32> -> !ktdp.access_tile<1x16x16xindex>
      ktdp.store %sum, %Ct : tensor<1x16x16xf32>, <1x16x16xindex>
    }
    func.return
  }
}
