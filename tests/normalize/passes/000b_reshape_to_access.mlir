// PASS: reshape-to-access
// A row loaded as 1x256 and collapsed to 256 is loaded as 256 elements through a 1-D view
// of the same memory (origin %X, stride 1, as far as the 4x256 view reaches), at the
// row's offset; the expanded result is stored as 256 elements the same way. No reshape
// is left.
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
// CHECK: %xv_r = ktdp.construct_memory_view %X, sizes: [1024], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1023) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
// CHECK: %yv_r = ktdp.construct_memory_view %Y, sizes: [1024], strides: [1]
// CHECK: scf.for
// CHECK: %[[XT:.*]] = ktdp.construct_access_tile %xv_r[%row * 256 + %c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, {{.*}} -> !ktdp.access_tile<256xindex>
// CHECK-NEXT: %x = ktdp.load %[[XT]] : <256xindex> -> tensor<256xf16>
// CHECK: %y = arith.mulf %x, %three : tensor<256xf16>
// CHECK-NEXT: %[[YT:.*]] = ktdp.construct_access_tile %yv_r[%row * 256 + %c0] {{.*}} -> !ktdp.access_tile<256xindex>
// CHECK-NEXT: ktdp.store %y, %[[YT]] : tensor<256xf16>, <256xindex>
builtin.module attributes {ktdf.device = "spyre"} {
func.func @reshape_rows(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %first = arith.muli %t, %c2 : index
  %xv = ktdp.construct_memory_view %X, sizes: [4, 256], strides: [256, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x256xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [4, 256], strides: [256, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x256xf16>
  scf.for %k = %c0 to %c2 step %c1 {
    %row = arith.addi %first, %k : index
    %xt = ktdp.construct_access_tile %xv[%row, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>
    %yt = ktdp.construct_access_tile %yv[%row, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 255 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x256xf16> -> !ktdp.access_tile<1x256xindex>
    %x2 = ktdp.load %xt : <1x256xindex> -> tensor<1x256xf16>
    %x = tensor.collapse_shape %x2 [[0, 1]] : tensor<1x256xf16> into tensor<256xf16>
    %three = arith.constant dense<3.0> : tensor<256xf16>
    %y = arith.mulf %x, %three : tensor<256xf16>
    %y2 = tensor.expand_shape %y [[0, 1]] output_shape [1, 256] : tensor<256xf16> into tensor<1x256xf16>
    ktdp.store %y2, %yt : tensor<1x256xf16>, <1x256xindex>
  }
  func.return
}
}
