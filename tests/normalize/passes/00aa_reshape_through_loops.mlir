// PASS: reshape-through-loops
// A K loop whose accumulator each iteration collapses from 1x16x16 to 16x16 and yields
// expanded back (a batch matmul of one batch index, as batch-matmul-to-matmuls leaves
// it): the loop carries 16x16, its splat initial value made again in that shape, and the
// result is expanded after the loop for its store. The operands' collapses are left to
// reshape-to-access.
// CHECK: scf.for %col
// CHECK-NEXT: %[[Z:.+]] = arith.constant dense<0.000000e+00> : tensor<16x16xf32>
// CHECK-NEXT: %sum = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %[[Z]]) -> (tensor<16x16xf32>) {
// CHECK: tensor.collapse_shape %a
// CHECK: tensor.collapse_shape %b
// CHECK-NOT: tensor.collapse_shape %acc
// CHECK: linalg.generic {{.*}} outs(%acc : tensor<16x16xf32>)
// CHECK: scf.yield %[[M:.+]] : tensor<16x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[E:.+]] = tensor.expand_shape %sum {{\[\[}}0 : i64, 1 : i64], [2 : i64]] output_shape [1, 16, 16] : tensor<16x16xf32> into tensor<1x16x16xf32>
// CHECK: ktdp.store %[[E]], %Ct : tensor<1x16x16xf32>
// CHECK-NOT: tensor<1x16x16xf32> = arith.constant
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
        %0 = tensor.collapse_shape %a [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x16x16xf16> into tensor<16x16xf16>
        %1 = tensor.collapse_shape %b [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x16x16xf16> into tensor<16x16xf16>
        %2 = tensor.collapse_shape %acc [[0 : i64, 1 : i64], [2 : i64]] : tensor<1x16x16xf32> into tensor<16x16xf32>
        %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%0, %1 : tensor<16x16xf16>, tensor<16x16xf16>) outs(%2 : tensor<16x16xf32>) {
        ^bb0(%4: f16, %5: f16, %6: f32):
          %7 = arith.extf %4 : f16 to f32
          %8 = arith.extf %5 : f16 to f32
          %9 = arith.mulf %7, %8 : f32
          %10 = arith.addf %6, %9 : f32
          linalg.yield %10 : f32
        } -> tensor<16x16xf32>
        %next = tensor.expand_shape %3 [[0 : i64, 1 : i64], [2 : i64]] output_shape [1, 16, 16] : tensor<16x16xf32> into tensor<1x16x16xf32>
        scf.yield %next : tensor<1x16x16xf32>
      }
      %Ct = ktdp.construct_access_tile %Cv[%batch, %row, %col] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0, d2 >= 0, ((d2 * -1) + 15) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x32x32xf32> -> !ktdp.access_tile<1x16x16xindex>
      ktdp.store %sum, %Ct : tensor<1x16x16xf32>, <1x16x16xindex>
    }
    func.return
  }
}
