// PASS: select-compare-to-generic
// A select on tensors driven by a comparison on tensors: one elementwise generic computes
// both, so no i1 tensor is left between two computes.
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x64xf16>
// CHECK-NEXT: %y = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%x, %b, %x, %b : tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>, tensor<4x64xf16>) outs(%[[E]] : tensor<4x64xf16>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[T:.*]]: f16, %[[F:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[C:.*]] = arith.cmpf olt, %[[A]], %[[B]] : f16
// CHECK-NEXT: %[[S:.*]] = arith.select %[[C]], %[[T]], %[[F]] : f16
// CHECK-NEXT: linalg.yield %[[S]] : f16
// CHECK-NOT: tensor<4x64xi1>
// CHECK: ktdp.store %y, %Yt
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
func.func @lower_of_two(%X: index, %B: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %lt = arith.cmpf olt, %x, %b : tensor<4x64xf16>
  %y = arith.select %lt, %x, %b : tensor<4x64xi1>, tensor<4x64xf16>
  ktdp.store %y, %Yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  func.return
}
}
