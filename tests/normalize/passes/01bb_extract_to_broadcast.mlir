// PASS: extract-to-broadcast
// The row maximum read out of its one-element result by tensor.extract and spread by
// tensor.splat becomes a broadcast generic of that result (its one dim onto the row dim,
// of extent 1); the row sum used inside a generic body becomes one more input of that
// generic; tensor.from_elements of the maximum is the one-element result itself.
// CHECK-NOT: tensor.extract
// CHECK-NOT: tensor.from_elements
// CHECK: %[[MX:.*]] = linalg.reduce
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x128xf16>
// CHECK-NEXT: %ms = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[MX]] : tensor<1xf16>) outs(%[[E]] : tensor<1x128xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: linalg.yield %[[IN]] : f16
// CHECK: %d = arith.subf %x, %ms : tensor<1x128xf16>
// CHECK: %[[SM:.*]] = linalg.reduce
// CHECK: %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e, %[[SM]] : tensor<1x128xf16>, tensor<1xf16>)
// CHECK-NEXT: ^bb0(%ee: f16, %[[S:.*]]: f16, %o: f16):
// CHECK-NEXT: arith.divf %ee, %[[S]] : f16
// CHECK: ktdp.store %y, %Yt
// CHECK-NEXT: ktdp.store %[[MX]], %Mt
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @extract_softmax(%X: index, %Y: index, %M: index) attributes {grid = [8 : i64]} {
    %c0 = arith.constant 0 : index
    %ninf = arith.constant 0xfc00 : f16
    %zero = arith.constant 0.000000e+00 : f16
    %t = ktdp.get_compute_tile_id : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %Mv = ktdp.construct_memory_view %M, sizes: [8], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 7) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
    %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
    %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
    %Mt = ktdp.construct_access_tile %Mv[%t] {access_tile_set = affine_set<(d0) : (d0 >= 0, (d0 * -1) >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<8xf16> -> !ktdp.access_tile<1xindex>
    %x = ktdp.load %Xt : <1x128xindex> -> tensor<1x128xf16>
    %minit = tensor.splat %ninf : tensor<1xf16>
    %mx = linalg.reduce ins(%x:tensor<1x128xf16>) outs(%minit:tensor<1xf16>) dimensions = [1]
    (%0: f16, %1: f16) {
      %2 = arith.maximumf %0, %1 : f16
      linalg.yield %2 : f16
    }
    %m = tensor.extract %mx[%c0] : tensor<1xf16>
    %ms = tensor.splat %m : tensor<1x128xf16>
    %d = arith.subf %x, %ms : tensor<1x128xf16>
    %e = math.exp %d : tensor<1x128xf16>
    %sinit = tensor.splat %zero : tensor<1xf16>
    %sm = linalg.reduce ins(%e:tensor<1x128xf16>) outs(%sinit:tensor<1xf16>) dimensions = [1]
    (%3: f16, %4: f16) {
      %5 = arith.addf %3, %4 : f16
      linalg.yield %5 : f16
    }
    %s = tensor.extract %sm[%c0] : tensor<1xf16>
    %y0 = tensor.empty() : tensor<1x128xf16>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%e : tensor<1x128xf16>) outs(%y0 : tensor<1x128xf16>) {
    ^bb0(%ee: f16, %o: f16):
      %q = arith.divf %ee, %s : f16
      linalg.yield %q : f16
    } -> tensor<1x128xf16>
    ktdp.store %y, %Yt : tensor<1x128xf16>, <1x128xindex>
    %mm = tensor.from_elements %m : tensor<1xf16>
    ktdp.store %mm, %Mt : tensor<1xf16>, <1xindex>
    func.return
  }
}
