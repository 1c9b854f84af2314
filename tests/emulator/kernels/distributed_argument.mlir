// X (128x64 f16) arrives distributed by rows over the scratchpads of 4 tiles: rows
// 32k..32k+31 in tile k's, each at the same offset %X. Tile t copies the 32 rows of X
// from (32t + 16) mod 112 (tile 1: rows 48..79, half from core 1, half from core 2; tile
// 3: rows 0..31) to rows 32t.. of O in device memory; Y, distributed like X, gets 2*X.
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 - 64 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 - 96 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @distributed_argument(%X: index, %O: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %id = ktdp.get_compute_tile_id : index
  %x0 = ktdp.construct_memory_view %X, sizes: [32, 64], strides: [64, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
  %x1 = ktdp.construct_memory_view %X, sizes: [32, 64], strides: [64, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32x64xf16>
  %x2 = ktdp.construct_memory_view %X, sizes: [32, 64], strides: [64, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<32x64xf16>
  %x3 = ktdp.construct_memory_view %X, sizes: [32, 64], strides: [64, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<32x64xf16>
  %Xd = ktdp.construct_distributed_memory_view (%x0, %x1, %x2, %x3 : memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>) : memref<128x64xf16>
  %y0 = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
  %y1 = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32x64xf16>
  %y2 = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<32x64xf16>
  %y3 = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<32x64xf16>
  %Yd = ktdp.construct_distributed_memory_view (%y0, %y1, %y2, %y3 : memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>) : memref<128x64xf16>
  %Ov = ktdp.construct_memory_view %O, sizes: [128, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %row = affine.apply affine_map<(t) -> ((t * 32 + 16) mod 112)>(%id)
  %own = arith.muli %id, %c32 : index
  %Xt = ktdp.construct_access_tile %Xd[%row, %c0] {access_tile_set = #tile, access_tile_order = #rm} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %Ot = ktdp.construct_access_tile %Ov[%own, %c0] {access_tile_set = #tile, access_tile_order = #rm} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %Xo = ktdp.construct_access_tile %Xd[%own, %c0] {access_tile_set = #tile, access_tile_order = #rm} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %Yt = ktdp.construct_access_tile %Yd[%own, %c0] {access_tile_set = #tile, access_tile_order = #rm} : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  ktdp.store %x, %Ot : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  %xo = ktdp.load %Xo : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %e = tensor.empty() : tensor<32x64xf16>
  %d = linalg.add ins(%xo, %xo : tensor<32x64xf16>, tensor<32x64xf16>) outs(%e : tensor<32x64xf16>) -> tensor<32x64xf16>
  ktdp.store %d, %Yt : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
