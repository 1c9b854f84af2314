// PASS: compare-to-mask
// cmpf + select in a compute body: the comparison becomes the device's float mask in the
// compared type. ugt is the negation of ole: the mask of ole with the two values swapped;
// oeq is equal as it is.
// CHECK: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[M:.*]] = spyreop.compare <lesserequal> %[[A]], %[[B]] : f16
// CHECK-NEXT: %[[S:.*]] = spyreop.select %[[M]], %[[B]], %[[A]] : f16
// CHECK-NEXT: %[[Q:.*]] = spyreop.compare <equal> %[[S]], %[[A]] : f16
// CHECK-NEXT: %[[R:.*]] = spyreop.select %[[Q]], %[[A]], %[[S]] : f16
// CHECK-NEXT: linalg.yield %[[R]] : f16
// CHECK-NOT: arith.cmpf
// CHECK-NOT: arith.select
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
  %e = tensor.empty() : tensor<4x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %gt = arith.cmpf ugt, %a, %c : f16
    %s = arith.select %gt, %a, %c : f16
    %eq = arith.cmpf oeq, %s, %a : f16
    %r = arith.select %eq, %a, %s : f16
    linalg.yield %r : f16
  } -> tensor<4x64xf16>
  ktdp.store %y, %Yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  func.return
}
}
