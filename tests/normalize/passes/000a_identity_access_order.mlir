// PASS: identity-access-order
// A tile read column-major becomes the same box read in row order, then transposed; a
// tile stored column-major stores the value transposed back, through the box in row
// order.
// CHECK: %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = {{.*}}, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
// CHECK: %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = {{.*}}, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
// CHECK: %[[L:.*]] = ktdp.load %Xt : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<64x4xf16>
// CHECK-NEXT: %x = linalg.transpose ins(%[[L]]:tensor<4x64xf16>) outs(%[[E]]:tensor<64x4xf16>) permutation = [1, 0]
// CHECK-NEXT: %two = arith.constant
// CHECK-NEXT: %y = arith.mulf %x, %two : tensor<64x4xf16>
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<4x64xf16>
// CHECK-NEXT: %[[B:.*]] = linalg.transpose ins(%y:tensor<64x4xf16>) outs(%[[E2]]:tensor<4x64xf16>) permutation = [1, 0]
// CHECK-NEXT: ktdp.store %[[B]], %Yt : tensor<4x64xf16>, <4x64xindex>
// CHECK-NOT: (d1, d0)
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @transposed(%X: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c4 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #blk, access_tile_order = #tr} : memref<8x64xf16> -> !ktdp.access_tile<64x4xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #blk, access_tile_order = #tr} : memref<8x64xf16> -> !ktdp.access_tile<64x4xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<64x4xindex> -> tensor<64x4xf16>
    %two = arith.constant dense<2.0> : tensor<64x4xf16>
    %y = arith.mulf %x, %two : tensor<64x4xf16>
    ktdp.store %y, %Yt : tensor<64x4xf16>, !ktdp.access_tile<64x4xindex>
    return
  }
}
