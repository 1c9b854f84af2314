// PASS: reshape-to-access
// A 1x1 tile collapsed to rank 0: a rank-0 view whose origin is the tile's element
// (%B + 2 * 4 + 2, computed before any loop), and a rank-0 tile on it.
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[O:.*]] = arith.addi %{{.*}}, %B : index
// CHECK-NEXT: %bv_r = ktdp.construct_memory_view %[[O]], sizes: [], strides: [] {coordinate_set = affine_set<() : ()>, memory_space = #ktdp.memory_space<global>} : memref<f16>
// CHECK: %[[T:.*]] = ktdp.construct_access_tile %bv_r[] {access_tile_set = affine_set<() : ()>, access_tile_order = affine_map<() -> ()>} : memref<f16> -> !ktdp.access_tile<index>
// CHECK-NEXT: %b = ktdp.load %[[T]] : <index> -> tensor<f16>
builtin.module attributes {ktdf.device = "spyre"} {
func.func @reshape_scalar(%B: index, %X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %bv = ktdp.construct_memory_view %B, sizes: [4, 4], strides: [4, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x4xf16>
  %xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x64xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x64xf16>
  %bt = ktdp.construct_access_tile %bv[%c2, %c2] {
    access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 == 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x4xf16> -> !ktdp.access_tile<1x1xindex>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %b2 = ktdp.load %bt : <1x1xindex> -> tensor<1x1xf16>
  %b = tensor.collapse_shape %b2 [] : tensor<1x1xf16> into tensor<f16>
  %x = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %bb = linalg.broadcast ins(%b : tensor<f16>) outs(%e : tensor<4x64xf16>) dimensions = [0, 1]
  %y = arith.addf %x, %bb : tensor<4x64xf16>
  ktdp.store %y, %yt : tensor<4x64xf16>, <4x64xindex>
  func.return
}
}
