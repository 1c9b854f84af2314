// RMSNorm of a 16x256 f16 tensor on a 2x2 grid: Y = X * rsqrt(mean(X^2) + eps) * W.
// Grid dimension 0 splits the columns in two halves, dimension 1 the rows in two blocks of
// 8. Each tile walks its 8 rows one at a time; per row it sums the squares of its 128
// columns (in f32), the two tiles sharing the rows all-reduce the two partial sums
// (`ktdp.inter_tile_reduce` inside the row loop, one group per row block: tiles {0, 1}
// and {2, 3}) and each normalises its own half of the row.
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#wcols = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#wall = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
#colmap = affine_map<(d0, d1) -> (d1)>
// group g: the two column halves of row block g, linear ids 2g and 2g + 1
#partners = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#blocks = affine_set<(g) : (g >= 0, -g + 1 >= 0)>

func.func @rmsnorm_2x2_rows(%X: index, %W: index, %Y: index) attributes {grid = [2, 2]} {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %inv_n = arith.constant 0.00390625 : f32
  %eps = arith.constant 1.0e-05 : f32
  %half, %block = ktdp.get_compute_tile_id : index, index
  %col = arith.muli %half, %c128 : index
  %first = arith.muli %block, %c8 : index
  %last = arith.addi %first, %c8 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [256], strides: [1] {
      coordinate_set = #wall, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Wt = ktdp.construct_access_tile %Wv[%col] {access_tile_set = #wcols, access_tile_order = #id1}
      : memref<256xf16> -> !ktdp.access_tile<128xindex>
  scf.for %r = %first to %last step %c1 {
    %Xt = ktdp.construct_access_tile %Xv[%r, %col] {access_tile_set = #row, access_tile_order = #id2}
        : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
    %Yt = ktdp.construct_access_tile %Yv[%r, %col] {access_tile_set = #row, access_tile_order = #id2}
        : memref<16x256xf16> -> !ktdp.access_tile<1x128xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
    %a0 = tensor.empty() : tensor<1xf32>
    %a1 = linalg.fill ins(%zero : f32) outs(%a0 : tensor<1xf32>) -> tensor<1xf32>
    %part = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<1x128xf16>) outs(%a1 : tensor<1xf32>) {
    ^bb0(%xe: f16, %a: f32):
      %xf = arith.extf %xe : f16 to f32
      %sq = arith.mulf %xf, %xf : f32
      %acc = arith.addf %sq, %a : f32
      linalg.yield %acc : f32
    } -> tensor<1xf32>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #partners
        : tensor<1xf32> -> !ktdp.tile_future<tensor<1xf32>, groups = #blocks> {
      ^bb0(%gid: index):
        ktdp.yield_partial %part : tensor<1xf32>
    }
    %i0 = tensor.empty() : tensor<1xf32>
    %id = linalg.fill ins(%zero : f32) outs(%i0 : tensor<1xf32>) -> tensor<1xf32>
    %ss = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #partners, identity(%id : tensor<1xf32>)
        : !ktdp.tile_future<tensor<1xf32>, groups = #blocks> -> tensor<1xf32> {
      ^bb0(%l: tensor<1xf32>, %rr: tensor<1xf32>):
        %s0 = tensor.empty() : tensor<1xf32>
        %s = linalg.add ins(%l, %rr : tensor<1xf32>, tensor<1xf32>) outs(%s0 : tensor<1xf32>) -> tensor<1xf32>
        ktdp.yield_reduced %s : tensor<1xf32>
    }
    %w = ktdp.load %Wt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
    %y0 = tensor.empty() : tensor<1x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #rowmap, #colmap, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %ss, %w : tensor<1x128xf16>, tensor<1xf32>, tensor<128xf16>) outs(%y0 : tensor<1x128xf16>) {
    ^bb0(%xe: f16, %se: f32, %we: f16, %o: f16):
      %mean = arith.mulf %se, %inv_n : f32
      %v = arith.addf %mean, %eps : f32
      %inv = spyreop.rsqrt %v : f32
      %xf = arith.extf %xe : f16 to f32
      %wf = arith.extf %we : f16 to f32
      %n = arith.mulf %xf, %inv : f32
      %s = arith.mulf %n, %wf : f32
      %h = arith.truncf %s : f32 to f16
      linalg.yield %h : f16
    } -> tensor<1x128xf16>
    ktdp.store %y, %Yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
  }
  return
}
