// PASS: stored-fill-to-generic
// A fill stored as it is becomes a generic with no input yielding the fill's scalar; a
// loaded tile stored as it is (a plain copy: DMA only, no compute) and a store of
// computed data are left alone.
// CHECK: %x = ktdp.load %Xt
// CHECK-NEXT: ktdp.store %x, %Yt
// CHECK-NOT: linalg.yield %{{.*}} : f16
// CHECK: %d = linalg.generic
// CHECK: ktdp.store %d, %Zt
// CHECK-NEXT: %one = arith.constant
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<2x64xf16>
// CHECK-NEXT: %[[K:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E2]] : tensor<2x64xf16>)
// CHECK-NEXT: ^bb0(%{{.*}}: f16):
// CHECK-NEXT: linalg.yield %one : f16
// CHECK-NEXT: } -> tensor<2x64xf16>
// CHECK-NEXT: ktdp.store %[[K]], %Wt
// CHECK-NOT: linalg.fill
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @copy_and_double(%X: index, %Y: index, %Z: index, %W: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Wv = ktdp.construct_memory_view %W, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Zv = ktdp.construct_memory_view %Z, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Zt = ktdp.construct_access_tile %Zv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Wt = ktdp.construct_access_tile %Wv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    ktdp.store %x, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    %e = tensor.empty() : tensor<2x64xf16>
    %d = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) {
    ^bb0(%a: f16, %o: f16):
      %s = arith.addf %a, %a : f16
      linalg.yield %s : f16
    } -> tensor<2x64xf16>
    ktdp.store %d, %Zt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    %one = arith.constant 1.0 : f16
    %e1 = tensor.empty() : tensor<2x64xf16>
    %f = linalg.fill ins(%one : f16) outs(%e1 : tensor<2x64xf16>) -> tensor<2x64xf16>
    ktdp.store %f, %Wt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    func.return
  }
}
