// PASS: untile-loops
// A loop whose body is a whole load -> compute -> store chain (each iteration loads,
// adds the bias to and stores its own row) is folded like a carried one: its rows tile
// the tile's four rows without gaps, so the body is placed once over all four and the
// scheduler picks the block size itself. The bias does not move with the loop.
// CHECK-NOT: scf.for
// CHECK: %[[LB:[0-9]+]] = arith.constant 0 : index
// CHECK-NEXT: %b = ktdp.load %Bt : <64xindex> -> tensor<64xf16>
// CHECK-NEXT: %row = arith.addi %row0, %[[LB]] : index
// CHECK-NEXT: %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>,{{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT: %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {{.*}} -> !ktdp.access_tile<4x64xindex>
// CHECK-NEXT: %x = ktdp.load %Xt : <4x64xindex> -> tensor<4x64xf16>
// CHECK-NEXT: %e = tensor.empty() : tensor<4x64xf16>
// CHECK-NEXT: %y = linalg.generic {{.*}} ins(%x, %b : tensor<4x64xf16>, tensor<64xf16>) outs(%e : tensor<4x64xf16>)
// CHECK: ktdp.store %y, %Yt : tensor<4x64xf16>, <4x64xindex>
// CHECK-NOT: scf.for
#row1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#colmap = affine_map<(d0, d1) -> (d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @rows_bias(%X: index, %B: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = ktdp.get_compute_tile_id : index
    %row0 = arith.muli %t, %c4 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Bt = ktdp.construct_access_tile %Bv[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    scf.for %k = %c0 to %c4 step %c1 {
      %b = ktdp.load %Bt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      %row = arith.addi %row0, %k : index
      %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #row1, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
      %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #row1, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %y = linalg.generic {indexing_maps = [#id2, #colmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%x, %b : tensor<1x64xf16>, tensor<64xf16>) outs(%e : tensor<1x64xf16>) {
      ^bb0(%xe: f16, %be: f16, %o: f16):
        %s = arith.addf %xe, %be : f16
        linalg.yield %s : f16
      } -> tensor<1x64xf16>
      ktdp.store %y, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
    func.return
  }
}
