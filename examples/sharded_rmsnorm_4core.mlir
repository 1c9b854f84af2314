// RMSNorm of an 8x256 f16 tensor sharded over 4 cores by columns: Y = X * rsqrt(mean(X^2)
// + eps) * W. Tile t holds columns 64t..64t+63 of every row: it sums the squares of its
// columns (in f32), the four partial sums are all-reduced across the tiles
// (`ktdp.inter_tile_reduce`: every tile gets the whole row sums), and each tile
// normalises its own columns.
#cols = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#wcols = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#wall = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
#colmap = affine_map<(d0, d1) -> (d1)>
// one group of all four tiles: i in [4g, 4g + 3], g = 0
#all = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>

func.func @sharded_rmsnorm_4core(%X: index, %W: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %inv_n = arith.constant 0.00390625 : f32
  %eps = arith.constant 1.0e-05 : f32
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c64 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [256], strides: [1] {
      coordinate_set = #wall, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %col] {access_tile_set = #cols, access_tile_order = #id2}
      : memref<8x256xf16> -> !ktdp.access_tile<8x64xindex>
  %Wt = ktdp.construct_access_tile %Wv[%col] {access_tile_set = #wcols, access_tile_order = #id1}
      : memref<256xf16> -> !ktdp.access_tile<64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %col] {access_tile_set = #cols, access_tile_order = #id2}
      : memref<8x256xf16> -> !ktdp.access_tile<8x64xindex>

  // This tile's share of every row's sum of squares.
  %x = ktdp.load %Xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %a0 = tensor.empty() : tensor<8xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%a0 : tensor<8xf32>) -> tensor<8xf32>
  %part = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x64xf16>) outs(%a1 : tensor<8xf32>) {
  ^bb0(%xe: f16, %a: f32):
    %xf = arith.extf %xe : f16 to f32
    %sq = arith.mulf %xf, %xf : f32
    %acc = arith.addf %sq, %a : f32
    linalg.yield %acc : f32
  } -> tensor<8xf32>

  // All-reduce of the partial sums over the four tiles.
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<8xf32> -> !ktdp.tile_future<tensor<8xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<8xf32>
  }
  %i0 = tensor.empty() : tensor<8xf32>
  %id = linalg.fill ins(%zero : f32) outs(%i0 : tensor<8xf32>) -> tensor<8xf32>
  %ss = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all, identity(%id : tensor<8xf32>)
      : !ktdp.tile_future<tensor<8xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<8xf32> {
    ^bb0(%l: tensor<8xf32>, %r: tensor<8xf32>):
      %s0 = tensor.empty() : tensor<8xf32>
      %s = linalg.add ins(%l, %r : tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8xf32>) -> tensor<8xf32>
      ktdp.yield_reduced %s : tensor<8xf32>
  }

  // rstd per row, then this tile's columns normalised and scaled.
  %r0 = tensor.empty() : tensor<8xf32>
  %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ss : tensor<8xf32>) outs(%r0 : tensor<8xf32>) {
  ^bb0(%se: f32, %o: f32):
    %mean = arith.mulf %se, %inv_n : f32
    %v = arith.addf %mean, %eps : f32
    %inv = spyreop.rsqrt %v : f32
    linalg.yield %inv : f32
  } -> tensor<8xf32>
  %x2 = ktdp.load %Xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %w = ktdp.load %Wt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %y0 = tensor.empty() : tensor<8x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #rowmap, #colmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x2, %rstd, %w : tensor<8x64xf16>, tensor<8xf32>, tensor<64xf16>) outs(%y0 : tensor<8x64xf16>) {
  ^bb0(%xe: f16, %re: f32, %we: f16, %o: f16):
    %xf = arith.extf %xe : f16 to f32
    %wf = arith.extf %we : f16 to f32
    %n = arith.mulf %xf, %re : f32
    %s = arith.mulf %n, %wf : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<8x64xf16>
  ktdp.store %y, %Yt : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
