// PASS: mark-masked-views
// 100 columns over tiles of 64 in a loop: the second block sticks out of %Xv and %Yv
// (columns 100..127), so both views are marked; %Wv, read in whole 64-column tiles that
// always fit, is not.
// CHECK: %Xv = ktdp.construct_memory_view %X, {{.*}}, ktdf.masked = unit} : memref<4x100xf16>
// CHECK-NEXT: %Yv = ktdp.construct_memory_view %Y, {{.*}}, ktdf.masked = unit} : memref<4x100xf16>
// CHECK-NEXT: %Wv = ktdp.construct_memory_view %W, {{.*}}memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
#xall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 99 >= 0)>
#wall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

builtin.module attributes {ktdf.device = "spyre"} {
func.func @block_loop_tail(%X: index, %Y: index, %W: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 100], strides: [100, 1] {
      coordinate_set = #xall, memory_space = #ktdp.memory_space<global>} : memref<4x100xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 100], strides: [100, 1] {
      coordinate_set = #xall, memory_space = #ktdp.memory_space<global>} : memref<4x100xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #wall, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Wt = ktdp.construct_access_tile %Wv[%row, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<2x64xindex>
  %w = ktdp.load %Wt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  scf.for %j = %c0 to %c128 step %c64 {
    %Xt = ktdp.construct_access_tile %Xv[%row, %j] {access_tile_set = #tile, access_tile_order = #id2}
        : memref<4x100xf16> -> !ktdp.access_tile<2x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %j] {access_tile_set = #tile, access_tile_order = #id2}
        : memref<4x100xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %y = arith.mulf %x, %w : tensor<2x64xf16>
    ktdp.store %y, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  }
  func.return
}
}
