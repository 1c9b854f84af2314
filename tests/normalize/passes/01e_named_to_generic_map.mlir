// PASS: linalg-named-to-generic
// `linalg.map` (its body takes one element of each input) becomes an all-parallel generic
// of identity maps with that body and one more block argument, for the output element.
// CHECK: %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>) {
// CHECK-NEXT: ^{{.*}}(%[[A:.*]]: f16, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f16
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[A]] : f16
// CHECK-NEXT: linalg.yield %[[S]] : f16
// CHECK: %z = linalg.generic {{.*}} ins(%y : tensor<8x64xf16>) outs(%e2 : tensor<8x64xf16>) {
// CHECK-NEXT: ^{{.*}}(%[[C:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[X:.*]] = math.exp %[[C]] : f16
// CHECK-NEXT: linalg.yield %[[X]] : f16
// CHECK-NOT: linalg.map
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @mapped(%X: index, %B: index, %Y: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
    %e = tensor.empty() : tensor<8x64xf16>
    %y = linalg.map ins(%x, %b : tensor<8x64xf16>, tensor<8x64xf16>) outs(%e : tensor<8x64xf16>)
      (%u: f16, %v: f16) {
        %p = arith.mulf %u, %v : f16
        %s = arith.addf %p, %u : f16
        linalg.yield %s : f16
      }
    %e2 = tensor.empty() : tensor<8x64xf16>
    %z = linalg.map { math.exp } ins(%y : tensor<8x64xf16>) outs(%e2 : tensor<8x64xf16>)
    ktdp.store %z, %Yt : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
    func.return
  }
}
