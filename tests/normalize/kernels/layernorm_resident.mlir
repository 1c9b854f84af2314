// Y = (X - mean) * rsqrt(var + eps) * gamma + beta over the rows of a 16x256 f16 tensor,
// 4 compute tiles of 4 rows. gamma and beta are loaded once, before the `scf.for` that
// walks the tile's rows one at a time; the statistics are accumulated in f32.
#row1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
#colmap = affine_map<(d0, d1) -> (d1)>

func.func @layernorm_resident(%X: index, %G: index, %Bt: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %inv_n = arith.constant 0.00390625 : f32
  %eps = arith.constant 1.0e-05 : f32
  %t = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %t, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Gv = ktdp.construct_memory_view %G, sizes: [256], strides: [1] {
      coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Bv = ktdp.construct_memory_view %Bt, sizes: [256], strides: [1] {
      coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Gt = ktdp.construct_access_tile %Gv[%c0] {access_tile_set = #vec, access_tile_order = #id1}
      : memref<256xf16> -> !ktdp.access_tile<256xindex>
  %Btt = ktdp.construct_access_tile %Bv[%c0] {access_tile_set = #vec, access_tile_order = #id1}
      : memref<256xf16> -> !ktdp.access_tile<256xindex>
  %gamma = ktdp.load %Gt : !ktdp.access_tile<256xindex> -> tensor<256xf16>
  %beta = ktdp.load %Btt : !ktdp.access_tile<256xindex> -> tensor<256xf16>
  scf.for %k = %c0 to %c4 step %c1 {
    %row = arith.addi %row0, %k : index
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #row1, access_tile_order = #id2}
        : memref<16x256xf16> -> !ktdp.access_tile<1x256xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #row1, access_tile_order = #id2}
        : memref<16x256xf16> -> !ktdp.access_tile<1x256xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
    %a0 = tensor.empty() : tensor<1xf32>
    %a1 = linalg.fill ins(%zero : f32) outs(%a0 : tensor<1xf32>) -> tensor<1xf32>
    %xw = arith.extf %x : tensor<1x256xf16> to tensor<1x256xf32>
    %sum = linalg.reduce ins(%xw : tensor<1x256xf32>) outs(%a1 : tensor<1xf32>) dimensions = [1]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %m0 = tensor.empty() : tensor<1xf32>
    %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%sum : tensor<1xf32>) outs(%m0 : tensor<1xf32>) {
    ^bb0(%se: f32, %o: f32):
      %mv = arith.mulf %se, %inv_n : f32
      linalg.yield %mv : f32
    } -> tensor<1xf32>
    %q0 = tensor.empty() : tensor<1xf32>
    %q1 = linalg.fill ins(%zero : f32) outs(%q0 : tensor<1xf32>) -> tensor<1xf32>
    %sq = linalg.generic {indexing_maps = [#id2, #rowmap, #rowmap], iterator_types = ["parallel", "reduction"]}
        ins(%x, %mean : tensor<1x256xf16>, tensor<1xf32>) outs(%q1 : tensor<1xf32>) {
    ^bb0(%xe: f16, %me: f32, %a: f32):
      %xf = arith.extf %xe : f16 to f32
      %d = arith.subf %xf, %me : f32
      %d2 = arith.mulf %d, %d : f32
      %acc2 = arith.addf %d2, %a : f32
      linalg.yield %acc2 : f32
    } -> tensor<1xf32>
    %r0 = tensor.empty() : tensor<1xf32>
    %rstd = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%sq : tensor<1xf32>) outs(%r0 : tensor<1xf32>) {
    ^bb0(%ve: f32, %o: f32):
      %var = arith.mulf %ve, %inv_n : f32
      %ve2 = arith.addf %var, %eps : f32
      %inv = math.rsqrt %ve2 : f32
      linalg.yield %inv : f32
    } -> tensor<1xf32>
    %y0 = tensor.empty() : tensor<1x256xf16>
    %y = linalg.generic {indexing_maps = [#id2, #rowmap, #rowmap, #colmap, #colmap, #id2],
                         iterator_types = ["parallel", "parallel"]}
        ins(%x, %mean, %rstd, %gamma, %beta : tensor<1x256xf16>, tensor<1xf32>, tensor<1xf32>, tensor<256xf16>, tensor<256xf16>)
        outs(%y0 : tensor<1x256xf16>) {
    ^bb0(%xe: f16, %me: f32, %re: f32, %ge: f16, %be: f16, %o: f16):
      %xf = arith.extf %xe : f16 to f32
      %gf = arith.extf %ge : f16 to f32
      %bf = arith.extf %be : f16 to f32
      %d = arith.subf %xf, %me : f32
      %n = arith.mulf %d, %re : f32
      %g = arith.mulf %n, %gf : f32
      %o2 = arith.addf %g, %bf : f32
      %h = arith.truncf %o2 : f32 to f16
      linalg.yield %h : f16
    } -> tensor<1x256xf16>
    ktdp.store %y, %Yt : tensor<1x256xf16>, !ktdp.access_tile<1x256xindex>
  }
  return
}
