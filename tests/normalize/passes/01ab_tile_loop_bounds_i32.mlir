// PASS: tile-loop-bounds
// A grid-stride loop counted in i32 (Triton's spelling: the tile id cast to i32, i32
// bounds and step): the loop that replaces it counts in i32 too, so the row it computes
// from the counter has the old induction variable's type.
// CHECK: %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[O:.*]] = arith.constant 1 : i32
// CHECK-NEXT: %[[T:.*]] = arith.constant 2 : i32
// CHECK-NEXT: scf.for %iteration = %[[Z]] to %[[T]] step %[[O]] : i32 {
// CHECK-NEXT: %[[S:.*]] = arith.muli %iteration, %c4 : i32
// CHECK-NEXT: %r = arith.addi %t32, %[[S]] : i32
// CHECK-NEXT: %ri = arith.index_cast %r : i32 to index
// CHECK-NOT: scf.if
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
func.func @grid_stride_i32(%X: index, %Y: index) attributes {grid = [4]} {
  %t = ktdp.get_compute_tile_id : index
  %t32 = arith.index_cast %t : index to i32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : i32
  %n = arith.constant 8 : i32
  %xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {
    coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {
    coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  scf.for %r = %t32 to %n step %c4 : i32 {
    %ri = arith.index_cast %r : i32 to index
    %xt = ktdp.construct_access_tile %xv[%ri, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %yt = ktdp.construct_access_tile %yv[%ri, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %y = arith.addf %x, %x : tensor<1x64xf16>
    ktdp.store %y, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
}
