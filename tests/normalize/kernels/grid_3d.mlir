// Y = X + X on 4x4x128 f16 over a 3-D grid [2, 2, 2]: tile (i, j, k) adds the 2x2x64
// block at planes 2i, rows 2j, columns 64k. The normal form numbers the tiles along one
// dimension (the first grid dimension fastest) and computes the coordinates from it.
#block = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#whole = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @grid_3d(%X: index, %Y: index) attributes {grid = [2, 2, 2]} {
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %i, %j, %k = ktdp.get_compute_tile_id : index, index, index
  %plane = arith.muli %i, %c2 : index
  %row = arith.muli %j, %c2 : index
  %col = arith.muli %k, %c64 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 4, 128], strides: [512, 128, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x4x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 4, 128], strides: [512, 128, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x4x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%plane, %row, %col] {access_tile_set = #block, access_tile_order = #id3} : memref<4x4x128xf16> -> !ktdp.access_tile<2x2x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%plane, %row, %col] {access_tile_set = #block, access_tile_order = #id3} : memref<4x4x128xf16> -> !ktdp.access_tile<2x2x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x2x64xindex> -> tensor<2x2x64xf16>
  %y = arith.addf %x, %x : tensor<2x2x64xf16>
  ktdp.store %y, %Yt : tensor<2x2x64xf16>, !ktdp.access_tile<2x2x64xindex>
  return
}
