// A row of B broadcast over 8 rows, the program's only input. Found by spyre-sched fuzz
// (seed 11, a two-program kernel whose second program's result depends only on a bias
// row): hoisting B's fill out of the row loop emptied its DMA stage, dropping that stage
// rebuilt the pipeline's resources, and the load unit kept reading the per-tile buffer
// that nothing filled any more (every output was the memory's poison, or stale data).
func.func @broadcast_rows(%B: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Bv = ktdp.construct_memory_view %B, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Bt = ktdp.construct_access_tile %Bv[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<256xf16> -> !ktdp.access_tile<256xindex>
  %b = ktdp.load %Bt : !ktdp.access_tile<256xindex> -> tensor<256xf16>
  %e = tensor.empty() : tensor<8x256xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<256xf16>) outs(%e : tensor<8x256xf16>) {
  ^bb0(%x: f16, %o: f16):
    %n = arith.negf %x : f16
    linalg.yield %n : f16
  } -> tensor<8x256xf16>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x256xf16> -> !ktdp.access_tile<8x256xindex>
  ktdp.store %y, %Yt : tensor<8x256xf16>, !ktdp.access_tile<8x256xindex>
  return
}
