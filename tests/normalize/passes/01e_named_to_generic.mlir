// PASS: linalg-named-to-generic
// linalg.broadcast: the input map leaves out the added dim (here the rows), the body
// yields the input element. linalg.reduce: reduction iterator on the reduced dim, the
// output map keeps the others, the combiner is the body. linalg.add: upstream's
// generalisation.
// CHECK-NOT: linalg.broadcast
// CHECK-NOT: linalg.reduce
// CHECK-NOT: linalg.add
// CHECK: %[[BB:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<64xf16>) outs(%e : tensor<2x64xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: linalg.yield %[[IN]] : f16
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %[[BB]] : tensor<2x64xf16>, tensor<2x64xf16>)
// CHECK: arith.addf
// CHECK: %[[M:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%[[Y]] : tensor<2x64xf16>) outs(%m1 : tensor<2xf16>)
// CHECK-NEXT: ^bb0(%[[I:.*]]: f16, %[[ACC:.*]]: f16):
// CHECK-NEXT: %[[MX:.*]] = arith.maximumf %[[I]], %[[ACC]] : f16
// CHECK-NEXT: linalg.yield %[[MX]] : f16
// CHECK: ktdp.store %[[M]], %Mt
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @biased_max(%X: index, %B: index, %M: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %ninf = arith.constant -65504.0 : f16
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Mv = ktdp.construct_memory_view %M, sizes: [4], strides: [1] {coordinate_set = #four, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %Mt = ktdp.construct_access_tile %Mv[%row] {access_tile_set = #two, access_tile_order = #id1} : memref<4xf16> -> !ktdp.access_tile<2xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %e = tensor.empty() : tensor<2x64xf16>
    %bb = linalg.broadcast ins(%b : tensor<64xf16>) outs(%e : tensor<2x64xf16>) dimensions = [0]
    %e2 = tensor.empty() : tensor<2x64xf16>
    %y = linalg.add ins(%x, %bb : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e2 : tensor<2x64xf16>) -> tensor<2x64xf16>
    %m0 = tensor.empty() : tensor<2xf16>
    %m1 = linalg.fill ins(%ninf : f16) outs(%m0 : tensor<2xf16>) -> tensor<2xf16>
    %m = linalg.reduce ins(%y : tensor<2x64xf16>) outs(%m1 : tensor<2xf16>) dimensions = [1]
      (%in: f16, %acc: f16) {
        %mx = arith.maximumf %in, %acc : f16
        linalg.yield %mx : f16
      }
    ktdp.store %m, %Mt : tensor<2xf16>, !ktdp.access_tile<2xindex>
    func.return
  }
}
