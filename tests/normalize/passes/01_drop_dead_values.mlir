// PASS: drop-dead-values
// A compute chain whose result reaches no store is removed; ktdp's views, tiles and loads
// stay, and so does what reaches the store.
// CHECK: %x = ktdp.load %Xt
// CHECK-NEXT: %w = ktdp.load %Wt
// CHECK-NOT: linalg.add
// CHECK: linalg.max
// CHECK-NEXT: ktdp.store
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @dead(%X: index, %W: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Wv = ktdp.construct_memory_view %W, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Wt = ktdp.construct_access_tile %Wv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %w = ktdp.load %Wt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %e0 = tensor.empty() : tensor<2x64xf16>
    %s = linalg.add ins(%x, %w : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e0 : tensor<2x64xf16>) -> tensor<2x64xf16>
    %e1 = tensor.empty() : tensor<2x64xf16>
    %m = linalg.max ins(%x, %x : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e1 : tensor<2x64xf16>) -> tensor<2x64xf16>
    ktdp.store %m, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    func.return
  }
}
