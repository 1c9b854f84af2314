// Y = X + X on 8x64 f16 over a 1-D grid [4], read as two coordinates (a 2-D launch's
// spelling, Triton's `pid_m, pid_n`): the grid is seen as [4, 1], so y is 0 in every
// tile and tile (x, 0) adds rows 2x and 2x + 1 (its row is 2x + 8y).
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @grid_past_rank(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %r0 = arith.muli %x, %c2 : index
  %r1 = arith.muli %y, %c8 : index
  %row = arith.addi %r0, %r1 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #block, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %v = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %s = arith.addf %v, %v : tensor<2x64xf16>
  ktdp.store %s, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
