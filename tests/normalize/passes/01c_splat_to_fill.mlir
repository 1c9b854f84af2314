// PASS: splat-to-fill
// A splat constant and a tensor.splat of a scalar become tensor.empty + linalg.fill;
// the constant's value becomes a scalar constant.
// CHECK-NOT: dense<
// CHECK-NOT: tensor.splat
// CHECK: %[[H:.*]] = arith.constant 5.000000e-01 : f16
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x64xf16>
// CHECK-NEXT: %[[HALF:.*]] = linalg.fill ins(%[[H]] : f16) outs(%[[E]] : tensor<2x64xf16>) -> tensor<2x64xf16>
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<2x64xf16>
// CHECK-NEXT: %[[S:.*]] = linalg.fill ins(%one : f16) outs(%[[E2]] : tensor<2x64xf16>) -> tensor<2x64xf16>
// CHECK: arith.mulf %x, %[[HALF]] : tensor<2x64xf16>
// CHECK-NEXT: arith.addf %{{.*}}, %[[S]] : tensor<2x64xf16>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @axpb(%X: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %one = arith.constant 1.0 : f16
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %half = arith.constant dense<0.5> : tensor<2x64xf16>
    %ones = tensor.splat %one : tensor<2x64xf16>
    %h = arith.mulf %x, %half : tensor<2x64xf16>
    %y = arith.addf %h, %ones : tensor<2x64xf16>
    ktdp.store %y, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    func.return
  }
}
