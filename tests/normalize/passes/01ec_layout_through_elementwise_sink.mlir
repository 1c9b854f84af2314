// PASS: layout-through-elementwise
// Four row sums expanded to 2x2, added to a loaded 2x2 tile, squared and stored: the
// reshape cannot move to the sums' inputs (a reduction), so it moves the other way. Each
// elementwise generic computes over the sums' shape (4), its other tensor operands
// reshaped back (the loaded tile becomes a load through a 4-element view of B, the empty
// tensors are made in 4 elements), and the store writes the 4 results through a
// 4-element view of Y. No reshape is left.
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %bv_r = ktdp.construct_memory_view %B, sizes: [4], strides: [1]
// CHECK: %yv_r = ktdp.construct_memory_view %Y, sizes: [4], strides: [1]
// CHECK: %r = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4xf16>
// CHECK: %[[B:.*]] = ktdp.load %{{.*}} : <4xindex> -> tensor<4xf16>
// CHECK: %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%r, %[[B]] : tensor<4xf16>, tensor<4xf16>) outs(%[[E]] : tensor<4xf16>)
// CHECK: %z = linalg.generic {{.*}} ins(%s, %s : tensor<4xf16>, tensor<4xf16>) outs(%{{.*}} : tensor<4xf16>)
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %yv_r
// CHECK: ktdp.store %z, %[[T]] : tensor<4xf16>, <4xindex>
#x_all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#sq = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @reshaped_sums(%X: index, %B: index, %Y: index) attributes {grid = [1 : i64]} {
    %c0 = arith.constant 0 : index
    %xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #x_all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %bv = ktdp.construct_memory_view %B, sizes: [2, 2], strides: [2, 1] {coordinate_set = #sq, memory_space = #ktdp.memory_space<global>} : memref<2x2xf16>
    %yv = ktdp.construct_memory_view %Y, sizes: [2, 2], strides: [2, 1] {coordinate_set = #sq, memory_space = #ktdp.memory_space<global>} : memref<2x2xf16>
    %xt = ktdp.construct_access_tile %xv[%c0, %c0] {access_tile_set = #x_all, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
    %bt = ktdp.construct_access_tile %bv[%c0, %c0] {access_tile_set = #sq, access_tile_order = #id2} : memref<2x2xf16> -> !ktdp.access_tile<2x2xindex>
    %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #sq, access_tile_order = #id2} : memref<2x2xf16> -> !ktdp.access_tile<2x2xindex>
    %x = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
    %zero = arith.constant 0.000000e+00 : f16
    %e = tensor.empty() : tensor<4xf16>
    %init = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x64xf16>) outs(%init : tensor<4xf16>) {
    ^bb0(%0: f16, %1: f16):
      %2 = arith.addf %0, %1 : f16
      linalg.yield %2 : f16
    } -> tensor<4xf16>
    %r2 = tensor.expand_shape %r [[0 : i64, 1 : i64]] output_shape [2, 2] : tensor<4xf16> into tensor<2x2xf16>
    %b = ktdp.load %bt : <2x2xindex> -> tensor<2x2xf16>
    %s0 = tensor.empty() : tensor<2x2xf16>
    %s = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%r2, %b : tensor<2x2xf16>, tensor<2x2xf16>) outs(%s0 : tensor<2x2xf16>) {
    ^bb0(%3: f16, %4: f16, %5: f16):
      %6 = arith.addf %3, %4 : f16
      linalg.yield %6 : f16
    } -> tensor<2x2xf16>
    %z0 = tensor.empty() : tensor<2x2xf16>
    %z = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%s, %s : tensor<2x2xf16>, tensor<2x2xf16>) outs(%z0 : tensor<2x2xf16>) {
    ^bb0(%7: f16, %8: f16, %9: f16):
      %10 = arith.mulf %7, %8 : f16
      linalg.yield %10 : f16
    } -> tensor<2x2xf16>
    ktdp.store %z, %yt : tensor<2x2xf16>, <2x2xindex>
    func.return
  }
}
