// PASS: tensor-elementwise-to-generic
// arith and math ops on tensors become all-parallel generics over the result's shape
// (identity maps, a tensor.empty to write), the same op on elements in the body; a cast
// changes the element type, properties (fast-math flags) are kept.
// CHECK-NOT: arith.{{[a-z]+}} %{{.*}} : tensor
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<2x64xf32>
// CHECK-NEXT: %[[W:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%[[E1]] : tensor<2x64xf32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT: %[[C:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT: linalg.yield %[[C]] : f32
// CHECK: %[[EX:.*]] = linalg.generic
// CHECK-SAME: ins(%[[W]] : tensor<2x64xf32>)
// CHECK: math.exp %{{.*}} fastmath<fast> : f32
// CHECK: %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[EX]], %[[W]] : tensor<2x64xf32>, tensor<2x64xf32>)
// CHECK: arith.subf %{{.*}}, %{{.*}} : f32
// CHECK: %[[H:.*]] = linalg.generic
// CHECK-SAME: ins(%[[S]] : tensor<2x64xf32>) outs(%{{.*}} : tensor<2x64xf16>)
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: ktdp.store %[[H]], %Yt
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @expm1(%X: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %w = arith.extf %x : tensor<2x64xf16> to tensor<2x64xf32>
    %e = math.exp %w fastmath<fast> : tensor<2x64xf32>
    %s = arith.subf %e, %w : tensor<2x64xf32>
    %h = arith.truncf %s : tensor<2x64xf32> to tensor<2x64xf16>
    ktdp.store %h, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    func.return
  }
}
