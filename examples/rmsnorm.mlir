// RMSNorm over the rows of a 64x512 f16 tensor: Y = X * rsqrt(mean(X^2) + eps) * W,
// with the mean of squares accumulated in f32. 32 compute tiles, 2 rows each; every tile
// reads the whole weight vector W.
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 511 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
#colmap = affine_map<(d0, d1) -> (d1)>

func.func @rmsnorm(%X: index, %W: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %inv_n = arith.constant 0.001953125 : f32
  %eps = arith.constant 1.0e-05 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [512], strides: [1] {
      coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<512xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x512xf16> -> !ktdp.access_tile<2x512xindex>
  %Wt = ktdp.construct_access_tile %Wv[%c0] {access_tile_set = #vec, access_tile_order = #id1}
      : memref<512xf16> -> !ktdp.access_tile<512xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x512xf16> -> !ktdp.access_tile<2x512xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x512xindex> -> tensor<2x512xf16>
  %w = ktdp.load %Wt : !ktdp.access_tile<512xindex> -> tensor<512xf16>
  %a0 = tensor.empty() : tensor<2xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%a0 : tensor<2xf32>) -> tensor<2xf32>
  %ss = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x512xf16>) outs(%a1 : tensor<2xf32>) {
  ^bb0(%xe: f16, %a: f32):
    %xf = arith.extf %xe : f16 to f32
    %sq = arith.mulf %xf, %xf : f32
    %acc = arith.addf %sq, %a : f32
    linalg.yield %acc : f32
  } -> tensor<2xf32>
  %r0 = tensor.empty() : tensor<2xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ss : tensor<2xf32>) outs(%r0 : tensor<2xf32>) {
  ^bb0(%se: f32, %o: f32):
    %mean = arith.mulf %se, %inv_n : f32
    %v = arith.addf %mean, %eps : f32
    %inv = spyreop.rsqrt %v : f32
    linalg.yield %inv : f32
  } -> tensor<2xf32>
  %y0 = tensor.empty() : tensor<2x512xf16>
  %y = linalg.generic {indexing_maps = [#id2, #rowmap, #colmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %r, %w : tensor<2x512xf16>, tensor<2xf32>, tensor<512xf16>) outs(%y0 : tensor<2x512xf16>) {
  ^bb0(%xe: f16, %re: f32, %we: f16, %o: f16):
    %xf = arith.extf %xe : f16 to f32
    %wf = arith.extf %we : f16 to f32
    %n = arith.mulf %xf, %re : f32
    %s = arith.mulf %n, %wf : f32
    %h = arith.truncf %s : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x512xf16>
  ktdp.store %y, %Yt : tensor<2x512xf16>, !ktdp.access_tile<2x512xindex>
  return
}
