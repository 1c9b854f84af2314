// Y = (X + X) @ W on an 8x64 tile and a 64x64 weight, f16 throughout: the matmul reads an
// intermediate the program computed into the scratchpad (nothing is fused into a matmul),
// and W, read by every row block, is fetched once before the loop nest (its fill was the
// only transfer of its stage). One compute tile.
#s = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @matmul_of_intermediate(%X: index, %W: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [64, 64], strides: [64, 1] {coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #s, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %Wt = ktdp.construct_access_tile %Wv[%c0, %c0] {access_tile_set = #w, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #s, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %w = ktdp.load %Wt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %h0 = tensor.empty() : tensor<8x64xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x64xf16>) outs(%h0 : tensor<8x64xf16>) {
  ^bb0(%g: f16, %o: f16):
    %r = arith.addf %g, %g : f16
    linalg.yield %r : f16
  } -> tensor<8x64xf16>
  %y0 = tensor.empty() : tensor<8x64xf16>
  %yacc = linalg.fill ins(%zero : f16) outs(%y0 : tensor<8x64xf16>) -> tensor<8x64xf16>
  %y = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %w : tensor<8x64xf16>, tensor<64x64xf16>) outs(%yacc : tensor<8x64xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %p = arith.mulf %a, %b : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  } -> tensor<8x64xf16>
  ktdp.store %y, %Yt : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  return
}
