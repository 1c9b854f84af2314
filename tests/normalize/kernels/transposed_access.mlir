// Access tiles traversed in another order than their view's: each tile reads its 4 rows
// of X column-major (a 64x4 tile), scales them by 2 and stores them column-major into the
// same rows of Y; it also reads a 2x4x8 box of the 3-D Z in (d2, d0, d1) order and
// stores it whole into W, an 8x2x4 array (a transpose written as a traversal).
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#xs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#zs = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#zbox = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 7 >= 0)>
#ws = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 3 >= 0)>
#wall = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 3 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#rot = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
func.func @transposed(%X: index, %Y: index, %Z: index, %W: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c4 : index
  %zrow = arith.muli %t, %c2 : index
  %wrow = arith.muli %t, %c8 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #xs, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Zv = ktdp.construct_memory_view %Z, sizes: [4, 4, 8], strides: [32, 8, 1] {coordinate_set = #zs, memory_space = #ktdp.memory_space<global>} : memref<4x4x8xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [16, 2, 4], strides: [8, 4, 1] {coordinate_set = #wall, memory_space = #ktdp.memory_space<global>} : memref<16x2x4xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #blk, access_tile_order = #tr} : memref<8x64xf16> -> !ktdp.access_tile<64x4xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #blk, access_tile_order = #tr} : memref<8x64xf16> -> !ktdp.access_tile<64x4xindex>
  %Zt = ktdp.construct_access_tile %Zv[%zrow, %c0, %c0] {access_tile_set = #zbox, access_tile_order = #rot} : memref<4x4x8xf16> -> !ktdp.access_tile<8x2x4xindex>
  %Wt = ktdp.construct_access_tile %Wv[%wrow, %c0, %c0] {access_tile_set = #ws, access_tile_order = #id3} : memref<16x2x4xf16> -> !ktdp.access_tile<8x2x4xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<64x4xindex> -> tensor<64x4xf16>
  %two = arith.constant dense<2.0> : tensor<64x4xf16>
  %y = arith.mulf %x, %two : tensor<64x4xf16>
  ktdp.store %y, %Yt : tensor<64x4xf16>, !ktdp.access_tile<64x4xindex>
  %z = ktdp.load %Zt : !ktdp.access_tile<8x2x4xindex> -> tensor<8x2x4xf16>
  ktdp.store %z, %Wt : tensor<8x2x4xf16>, !ktdp.access_tile<8x2x4xindex>
  return
}
