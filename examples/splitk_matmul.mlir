// C = A @ B (16x256 times 256x64, f16 in, f32 out) split along K over 4 cores: tile t
// multiplies A's columns 64t..64t+63 by B's rows 64t..64t+63, accumulating in f32; the
// four partial products are all-reduced across the tiles (`ktdp.inter_tile_reduce`),
// and tile 0 stores the sum.
#aslab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#bslab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cset = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#aall = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#ball = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
// one group of all four tiles: i in [4g, 4g + 3], g = 0
#all = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>

func.func @splitk_matmul(%A: index, %B: index, %C: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %k = arith.muli %t, %c64 : index
  %Av = ktdp.construct_memory_view %A, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #aall, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [256, 64], strides: [64, 1] {
      coordinate_set = #ball, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = #cset, memory_space = #ktdp.memory_space<global>} : memref<16x64xf32>
  %At = ktdp.construct_access_tile %Av[%c0, %k] {access_tile_set = #aslab, access_tile_order = #id2}
      : memref<16x256xf16> -> !ktdp.access_tile<16x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%k, %c0] {access_tile_set = #bslab, access_tile_order = #id2}
      : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #cset, access_tile_order = #id2}
      : memref<16x64xf32> -> !ktdp.access_tile<16x64xindex>

  // This tile's share of the K sum.
  %a = ktdp.load %At : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %acc0 = tensor.empty() : tensor<16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %part = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x64xf16>, tensor<64x64xf16>) outs(%acc : tensor<16x64xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<16x64xf32>

  // All-reduce of the partial products.
  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all
      : tensor<16x64xf32> -> !ktdp.tile_future<tensor<16x64xf32>, groups = affine_set<(g) : (g == 0)>> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<16x64xf32>
  }
  %i0 = tensor.empty() : tensor<16x64xf32>
  %id = linalg.fill ins(%zero : f32) outs(%i0 : tensor<16x64xf32>) -> tensor<16x64xf32>
  %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all, identity(%id : tensor<16x64xf32>)
      : !ktdp.tile_future<tensor<16x64xf32>, groups = affine_set<(g) : (g == 0)>> -> tensor<16x64xf32> {
    ^bb0(%l: tensor<16x64xf32>, %r: tensor<16x64xf32>):
      %s0 = tensor.empty() : tensor<16x64xf32>
      %s = linalg.add ins(%l, %r : tensor<16x64xf32>, tensor<16x64xf32>) outs(%s0 : tensor<16x64xf32>) -> tensor<16x64xf32>
      ktdp.yield_reduced %s : tensor<16x64xf32>
  }

  %is0 = arith.cmpi eq, %t, %c0 : index
  scf.if %is0 {
    ktdp.store %sum, %Ct : tensor<16x64xf32>, !ktdp.access_tile<16x64xindex>
  }
  return
}
