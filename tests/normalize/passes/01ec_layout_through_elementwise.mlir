// PASS: layout-through-elementwise
// A 1024-element sum of two loaded rows plus a fill, expanded to 4x256 for a compute,
// becomes the same generic over 4x256: the two loads are made through 4x256 views of
// the same memory (reshape-to-access's rule), the fill and its empty tensor are made in
// the new shape. No reshape is left.
// CHECK-NOT: tensor.expand_shape
// CHECK: %xv_r = ktdp.construct_memory_view %X, sizes: [4, 1024], strides: [256, 1]
// CHECK: %bv_r = ktdp.construct_memory_view %B, sizes: [4, 1024], strides: [256, 1]
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x256xf16>
// CHECK: %[[ONES:.*]] = linalg.fill ins(%one : f16) outs(%[[E]] : tensor<4x256xf16>) -> tensor<4x256xf16>
// CHECK: %[[X:.*]] = ktdp.load %{{.*}} : <4x256xindex> -> tensor<4x256xf16>
// CHECK: %[[B:.*]] = ktdp.load %{{.*}} : <4x256xindex> -> tensor<4x256xf16>
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[B]], %[[ONES]] : tensor<4x256xf16>, tensor<4x256xf16>, tensor<4x256xf16>)
// CHECK: %z = linalg.generic {{.*}} ins(%[[S]], %[[S]] : tensor<4x256xf16>, tensor<4x256xf16>)
// CHECK: ktdp.store %z
#all = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @reshaped_sum(%X: index, %B: index, %Y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f16
    %xv = ktdp.construct_memory_view %X, sizes: [1024], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
    %bv = ktdp.construct_memory_view %B, sizes: [1024], strides: [1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
    %yv = ktdp.construct_memory_view %Y, sizes: [4, 256], strides: [256, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
    %xt = ktdp.construct_access_tile %xv[%c0] {access_tile_set = #all, access_tile_order = #id1} : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
    %bt = ktdp.construct_access_tile %bv[%c0] {access_tile_set = #all, access_tile_order = #id1} : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
    %yt = ktdp.construct_access_tile %yv[%c0, %c0] {access_tile_set = #out, access_tile_order = #id2} : memref<4x256xf16> -> !ktdp.access_tile<4x256xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
    %e = tensor.empty() : tensor<1024xf16>
    %ones = linalg.fill ins(%one : f16) outs(%e : tensor<1024xf16>) -> tensor<1024xf16>
    %s0 = tensor.empty() : tensor<1024xf16>
    %s = linalg.generic {indexing_maps = [#id1, #id1, #id1, #id1], iterator_types = ["parallel"]}
        ins(%x, %b, %ones : tensor<1024xf16>, tensor<1024xf16>, tensor<1024xf16>) outs(%s0 : tensor<1024xf16>) {
    ^bb0(%xe: f16, %be: f16, %oe: f16, %out: f16):
      %p = arith.addf %xe, %be : f16
      %q = arith.addf %p, %oe : f16
      linalg.yield %q : f16
    } -> tensor<1024xf16>
    %s2 = tensor.expand_shape %s [[0, 1]] output_shape [4, 256] : tensor<1024xf16> into tensor<4x256xf16>
    %z0 = tensor.empty() : tensor<4x256xf16>
    %z = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%s2, %s2 : tensor<4x256xf16>, tensor<4x256xf16>) outs(%z0 : tensor<4x256xf16>) {
    ^bb0(%u: f16, %v: f16, %out: f16):
      %m = arith.mulf %u, %v : f16
      linalg.yield %m : f16
    } -> tensor<4x256xf16>
    ktdp.store %z, %yt : tensor<4x256xf16>, !ktdp.access_tile<4x256xindex>
    func.return
  }
}
