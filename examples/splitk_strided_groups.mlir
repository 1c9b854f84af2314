// C[1, 128] = A[1, 1024] @ B[1024, 128] (f16 in, f32 accumulation) on a 2x4 grid.
// Grid dimension 0 picks the 64 output columns, dimension 1 the 256-long slice of K:
// tile t = out + 2 * k takes columns 64 * out.. and K rows 256 * k.. and multiplies
// them. The partial products of one output slice are summed across its four K tiles:
// `ktdp.inter_tile_reduce` over two strided groups, g = t mod 2 (tiles {0, 2, 4, 6} and
// {1, 3, 5, 7}). The reduce hands back the 1x64 partials' sum as a 64-element vector,
// which the group's k = 0 tile stores.
#aslab = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#bslab = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#aall = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#ball = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#call = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#cslab = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
// group g: the tiles computing output slice g, i = g, g + 2, g + 4, g + 6
#slice_tiles = affine_set<(i)[g] : ((i - g) mod 2 == 0, i - g >= 0, -i + g + 6 >= 0)>
#slices = affine_set<(g) : (g >= 0, -g + 1 >= 0)>

func.func @splitk_strided_groups(%A: index, %B: index, %C: index) attributes {grid = [2, 4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %out, %kk = ktdp.get_compute_tile_id : index, index
  %n = arith.muli %out, %c64 : index
  %k = arith.muli %kk, %c256 : index
  %Av = ktdp.construct_memory_view %A, sizes: [1, 1024], strides: [1024, 1] {
      coordinate_set = #aall, memory_space = #ktdp.memory_space<global>} : memref<1x1024xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [1024, 128], strides: [128, 1] {
      coordinate_set = #ball, memory_space = #ktdp.memory_space<global>} : memref<1024x128xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [128], strides: [1] {
      coordinate_set = #call, memory_space = #ktdp.memory_space<global>} : memref<128xf32>
  %At = ktdp.construct_access_tile %Av[%c0, %k] {access_tile_set = #aslab, access_tile_order = #id2}
      : memref<1x1024xf16> -> !ktdp.access_tile<1x256xindex>
  %Bt = ktdp.construct_access_tile %Bv[%k, %n] {access_tile_set = #bslab, access_tile_order = #id2}
      : memref<1024x128xf16> -> !ktdp.access_tile<256x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%n] {access_tile_set = #cslab, access_tile_order = #id1}
      : memref<128xf32> -> !ktdp.access_tile<64xindex>

  %a = ktdp.load %At : !ktdp.access_tile<1x256xindex> -> tensor<1x256xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<256x64xindex> -> tensor<256x64xf16>
  %acc0 = tensor.empty() : tensor<1x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<1x64xf32>) -> tensor<1x64xf32>
  %part = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<1x256xf16>, tensor<256x64xf16>) outs(%acc : tensor<1x64xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<1x64xf32>

  %fut = ktdp.inter_tile_produce producer_tiles_per_group = #slice_tiles
      : tensor<1x64xf32> -> !ktdp.tile_future<tensor<1x64xf32>, groups = #slices> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<1x64xf32>
  }
  %i0 = tensor.empty() : tensor<1x64xf32>
  %id = linalg.fill ins(%zero : f32) outs(%i0 : tensor<1x64xf32>) -> tensor<1x64xf32>
  %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #slice_tiles, identity(%id : tensor<1x64xf32>)
      : !ktdp.tile_future<tensor<1x64xf32>, groups = #slices> -> tensor<64xf32> {
    ^bb0(%l: tensor<1x64xf32>, %r: tensor<1x64xf32>):
      %s0 = tensor.empty() : tensor<1x64xf32>
      %s = linalg.add ins(%l, %r : tensor<1x64xf32>, tensor<1x64xf32>) outs(%s0 : tensor<1x64xf32>) -> tensor<1x64xf32>
      ktdp.yield_reduced %s : tensor<1x64xf32>
  }

  %writer = arith.cmpi eq, %kk, %c0 : index
  scf.if %writer {
    ktdp.store %sum, %Ct : tensor<64xf32>, !ktdp.access_tile<64xindex>
  }
  return
}
