// An 8x64 tensor split over two scratchpads (rows 0-3 in tile 0's, rows 4-7 in tile 1's,
// both at element offset 0). X is copied into it whole, then read back through tiles that
// straddle the two parts: Y = X, and Yt = the middle rows 2..5 read column-major.
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 - 4 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#mid = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>

func.func @distributed(%X: index, %Y: index, %Yt: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Ytv = ktdp.construct_memory_view %Yt, sizes: [64, 4], strides: [4, 1] {
      coordinate_set = #cols, memory_space = #ktdp.memory_space<global>} : memref<64x4xf16>
  %P0 = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #top, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<4x64xf16>
  %P1 = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #bottom, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<4x64xf16>
  %D = ktdp.construct_distributed_memory_view (%P0, %P1 : memref<4x64xf16>, memref<4x64xf16>) : memref<8x64xf16>
  %Xa = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #whole, access_tile_order = #id2}
      : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %Da = ktdp.construct_access_tile %D[%c0, %c0] {access_tile_set = #whole, access_tile_order = #id2}
      : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %Dm = ktdp.construct_access_tile %D[%c2, %c0] {access_tile_set = #mid, access_tile_order = #tr}
      : memref<8x64xf16> -> !ktdp.access_tile<64x4xindex>
  %Ya = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #whole, access_tile_order = #id2}
      : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %Yta = ktdp.construct_access_tile %Ytv[%c0, %c0] {access_tile_set = #cols, access_tile_order = #id2}
      : memref<64x4xf16> -> !ktdp.access_tile<64x4xindex>
  %x = ktdp.load %Xa : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  ktdp.store %x, %Da : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  %d = ktdp.load %Da : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  ktdp.store %d, %Ya : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  %m = ktdp.load %Dm : !ktdp.access_tile<64x4xindex> -> tensor<64x4xf16>
  ktdp.store %m, %Yta : tensor<64x4xf16>, !ktdp.access_tile<64x4xindex>
  return
}
