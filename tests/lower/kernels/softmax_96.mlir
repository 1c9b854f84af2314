// Y = softmax(X) over the rows of a 64x96 f16 tensor: every row ends in a partial vector
// (96 = 64 + 32 lanes), so the row maximum, exp(0) = 1 in padding lanes and the row sum
// would all be wrong if padding entered them. 32 compute tiles of 2 rows each,
// written as three load -> compute -> store groups. The intermediates (row maxima M, the
// exponentials E and the row sums S) are pinned by the kernel in each tile's own
// scratchpad (ct_local views at fixed element offsets), so they never go back to device
// memory: group 2 reads what group 1 stored, group 3 reads what group 2 stored.
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @softmax_rows(%X: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %E_off = arith.constant 0 : index
  %M_off = arith.constant 512 : index
  %S_off = arith.constant 576 : index
  %ninf = arith.constant -65504.0 : f16
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
  // Scratchpad-resident intermediates of this tile (local coordinates).
  %Ev = ktdp.construct_memory_view %E_off, sizes: [2, 96], strides: [96, 1] {
      coordinate_set = #rows2, memory_space = #ktdp.memory_space<ct_local>} : memref<2x96xf16>
  %Mv = ktdp.construct_memory_view %M_off, sizes: [2], strides: [1] {
      coordinate_set = #two, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf16>
  %Sv = ktdp.construct_memory_view %S_off, sizes: [2], strides: [1] {
      coordinate_set = #two, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf32>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x96xf16> -> !ktdp.access_tile<2x96xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x96xf16> -> !ktdp.access_tile<2x96xindex>
  %Et = ktdp.construct_access_tile %Ev[%c0, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<2x96xf16> -> !ktdp.access_tile<2x96xindex>
  %Mt = ktdp.construct_access_tile %Mv[%c0] {access_tile_set = #two, access_tile_order = #id1}
      : memref<2xf16> -> !ktdp.access_tile<2xindex>
  %St = ktdp.construct_access_tile %Sv[%c0] {access_tile_set = #two, access_tile_order = #id1}
      : memref<2xf32> -> !ktdp.access_tile<2xindex>

  // Group 1: row maxima.
  %x1 = ktdp.load %Xt : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
  %m0 = tensor.empty() : tensor<2xf16>
  %m1 = linalg.fill ins(%ninf : f16) outs(%m0 : tensor<2xf16>) -> tensor<2xf16>
  %m = linalg.reduce ins(%x1 : tensor<2x96xf16>) outs(%m1 : tensor<2xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %mx = arith.maximumf %in, %acc : f16
      linalg.yield %mx : f16
    }
  ktdp.store %m, %Mt : tensor<2xf16>, !ktdp.access_tile<2xindex>

  // Group 2: E = exp(X - M) and S = sum(E), from X and the pinned maxima.
  %x2 = ktdp.load %Xt : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
  %m2 = ktdp.load %Mt : !ktdp.access_tile<2xindex> -> tensor<2xf16>
  %e0 = tensor.empty() : tensor<2x96xf16>
  %e = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x2, %m2 : tensor<2x96xf16>, tensor<2xf16>) outs(%e0 : tensor<2x96xf16>) {
  ^bb0(%xe: f16, %me: f16, %o: f16):
    %d = arith.subf %xe, %me : f16
    %ex = spyreop.exp %d : f16
    linalg.yield %ex : f16
  } -> tensor<2x96xf16>
  %s0 = tensor.empty() : tensor<2xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<2xf32>) -> tensor<2xf32>
  %s = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<2x96xf16>) outs(%s1 : tensor<2xf32>) {
  ^bb0(%ee: f16, %a: f32):
    %w = arith.extf %ee : f16 to f32
    %sum = arith.addf %w, %a : f32
    linalg.yield %sum : f32
  } -> tensor<2xf32>
  ktdp.store %e, %Et : tensor<2x96xf16>, !ktdp.access_tile<2x96xindex>
  ktdp.store %s, %St : tensor<2xf32>, !ktdp.access_tile<2xindex>

  // Group 3: Y = E / S.
  %e3 = ktdp.load %Et : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
  %s3 = ktdp.load %St : !ktdp.access_tile<2xindex> -> tensor<2xf32>
  %y0 = tensor.empty() : tensor<2x96xf16>
  %y = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e3, %s3 : tensor<2x96xf16>, tensor<2xf32>) outs(%y0 : tensor<2x96xf16>) {
  ^bb0(%ee: f16, %se: f32, %o: f16):
    %w = arith.extf %ee : f16 to f32
    %q = arith.divf %w, %se : f32
    %h = arith.truncf %q : f32 to f16
    linalg.yield %h : f16
  } -> tensor<2x96xf16>
  ktdp.store %y, %Yt : tensor<2x96xf16>, !ktdp.access_tile<2x96xindex>
  return
}
