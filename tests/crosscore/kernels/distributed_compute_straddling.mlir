// Compute on tiles that straddle the parts of distributed views: X's rows 0..7 and 8..15
// are two arrays, Y's rows 0..5 and 6..15 two others; each tile reads a 16-row column
// block of X whole, computes 2x + 1, and stores it into the same block of Y. Each tile
// is staged through the tile's own scratchpad, and the copies to and from it are cut at
// the parts' edges (rows 8 of X, 6 of Y).
#x0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#x1 = affine_set<(d0, d1) : (d0 >= 8, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y1 = affine_set<(d0, d1) : (d0 >= 6, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddling(%X0: index, %X1: index, %Y0: index, %Y1: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c64 : index
  %X0v = ktdp.construct_memory_view %X0, sizes: [8, 128], strides: [128, 1] {coordinate_set = #x0, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %X1v = ktdp.construct_memory_view %X1, sizes: [8, 128], strides: [128, 1] {coordinate_set = #x1, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Y0v = ktdp.construct_memory_view %Y0, sizes: [6, 128], strides: [128, 1] {coordinate_set = #y0, memory_space = #ktdp.memory_space<global>} : memref<6x128xf16>
  %Y1v = ktdp.construct_memory_view %Y1, sizes: [10, 128], strides: [128, 1] {coordinate_set = #y1, memory_space = #ktdp.memory_space<global>} : memref<10x128xf16>
  %X = ktdp.construct_distributed_memory_view (%X0v, %X1v : memref<8x128xf16>, memref<8x128xf16>) : memref<16x128xf16>
  %Y = ktdp.construct_distributed_memory_view (%Y0v, %Y1v : memref<6x128xf16>, memref<10x128xf16>) : memref<16x128xf16>
  %Xt = ktdp.construct_access_tile %X[%c0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x128xf16> -> !ktdp.access_tile<16x64xindex>
  %Yt = ktdp.construct_access_tile %Y[%c0, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<16x128xf16> -> !ktdp.access_tile<16x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
  %two = arith.constant dense<2.0> : tensor<16x64xf16>
  %one = arith.constant dense<1.0> : tensor<16x64xf16>
  %x2 = arith.mulf %x, %two : tensor<16x64xf16>
  %y = arith.addf %x2, %one : tensor<16x64xf16>
  ktdp.store %y, %Yt : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  return
}
