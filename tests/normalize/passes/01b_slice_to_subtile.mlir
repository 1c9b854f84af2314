// PASS: slice-to-subtile
// Two halves of a loaded 2x256 tile taken by tensor.extract_slice become loads of 2x128
// sub-tiles of the same view: the first at the tile's subscripts, the second with 128
// added to the column subscript. The whole tile's load, read by nothing else, goes.
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: ktdp.load %Xt
// CHECK: %[[T0:.*]] = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, {{.*}} -> !ktdp.access_tile<2x128xindex>
// CHECK-NEXT: %lo = ktdp.load %[[T0]] : <2x128xindex> -> tensor<2x128xf16>
// CHECK-NEXT: %[[OFF:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[COL:.*]] = arith.addi %c0, %[[OFF]] : index
// CHECK-NEXT: %[[T1:.*]] = ktdp.construct_access_tile %Xv[%row, %[[COL]]] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, {{.*}} -> !ktdp.access_tile<2x128xindex>
// CHECK-NEXT: %hi = ktdp.load %[[T1]] : <2x128xindex> -> tensor<2x128xf16>
// CHECK-NEXT: arith.addf %lo, %hi : tensor<2x128xf16>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#xall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#yall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

builtin.module attributes {ktdf.device = "spyre"} {
func.func @half_sum(%X: index, %Y: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #xall, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 128], strides: [128, 1] {
      coordinate_set = #yall, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<16x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #half, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<2x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %lo = tensor.extract_slice %x[0, 0] [2, 128] [1, 1] : tensor<2x256xf16> to tensor<2x128xf16>
  %hi = tensor.extract_slice %x[0, 128] [2, 128] [1, 1] : tensor<2x256xf16> to tensor<2x128xf16>
  %y = arith.addf %lo, %hi : tensor<2x128xf16>
  ktdp.store %y, %Yt : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  func.return
}
}
