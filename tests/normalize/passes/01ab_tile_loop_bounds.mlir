// PASS: tile-loop-bounds
// A grid-stride loop (from the tile id to 10, step 4): tiles 0 and 1 run three
// iterations, tiles 2 and 3 two. The loop counts 3 iterations on every tile, computes
// the row as before, and guards the body where the row is past the bound.
// CHECK: %[[Z:[0-9]+]] = arith.constant 0 : index
// CHECK-NEXT: %[[O:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[T:.*]] = arith.constant 3 : index
// CHECK-NEXT: scf.for %iteration = %[[Z]] to %[[T]] step %[[O]] {
// CHECK-NEXT: %[[S:.*]] = arith.muli %iteration, %c4 : index
// CHECK-NEXT: %r = arith.addi %t, %[[S]] : index
// CHECK-NEXT: %[[G:.*]] = arith.cmpi slt, %r, %n : index
// CHECK-NEXT: scf.if %[[G]] {
// CHECK-NEXT: %xt = ktdp.construct_access_tile %xv[%r, %c0]
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
func.func @grid_stride_rows(%X: index, %Y: index) attributes {grid = [4, 1]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 10 : index
  %xv = ktdp.construct_memory_view %X, sizes: [10, 64], strides: [64, 1] {
    coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<10x64xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [10, 64], strides: [64, 1] {
    coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<10x64xf16>
  scf.for %r = %t to %n step %c4 {
    %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<10x64xf16> -> !ktdp.access_tile<1x64xindex>
    %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<10x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %ninf = arith.constant 0xFC00 : f16
    %init = tensor.splat %ninf : tensor<1xf16>
    %m = linalg.reduce { arith.maximumf } ins(%x : tensor<1x64xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %ms = tensor.extract %m[%c0] : tensor<1xf16>
    %mt = tensor.splat %ms : tensor<1x64xf16>
    %y = arith.divf %x, %mt : tensor<1x64xf16>
    ktdp.store %y, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
}
