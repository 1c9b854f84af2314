// A SwiGLU feed-forward block on the matrix unit: for 64 tokens of a 128-wide hidden state,
//   gate = X @ Wg, up = X @ Wu           (64x128 by 128x256, f16 products, f32 sums)
//   H = silu(gate) * up                  (the vector unit, in f32, rounded to f16)
//   Y = H @ Wd                           (64x256 by 256x128, f32 sum rounded to f16)
// 8 compute tiles, 8 tokens each; every tile reads the three whole weight matrices.
#xt = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#xw = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#wi = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#wo = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

func.func @ffn_swiglu(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c8 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 128], strides: [128, 1] {coordinate_set = #xw, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Wgv = ktdp.construct_memory_view %Wg, sizes: [128, 256], strides: [256, 1] {coordinate_set = #wi, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Wuv = ktdp.construct_memory_view %Wu, sizes: [128, 256], strides: [256, 1] {coordinate_set = #wi, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Wdv = ktdp.construct_memory_view %Wd, sizes: [256, 128], strides: [128, 1] {coordinate_set = #wo, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 128], strides: [128, 1] {coordinate_set = #xw, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #xt, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %Wgt = ktdp.construct_access_tile %Wgv[%c0, %c0] {access_tile_set = #wi, access_tile_order = #id2} : memref<128x256xf16> -> !ktdp.access_tile<128x256xindex>
  %Wut = ktdp.construct_access_tile %Wuv[%c0, %c0] {access_tile_set = #wi, access_tile_order = #id2} : memref<128x256xf16> -> !ktdp.access_tile<128x256xindex>
  %Wdt = ktdp.construct_access_tile %Wdv[%c0, %c0] {access_tile_set = #wo, access_tile_order = #id2} : memref<256x128xf16> -> !ktdp.access_tile<256x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #xt, access_tile_order = #id2} : memref<64x128xf16> -> !ktdp.access_tile<8x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %wg = ktdp.load %Wgt : !ktdp.access_tile<128x256xindex> -> tensor<128x256xf16>
  %wu = ktdp.load %Wut : !ktdp.access_tile<128x256xindex> -> tensor<128x256xf16>
  %wd = ktdp.load %Wdt : !ktdp.access_tile<256x128xindex> -> tensor<256x128xf16>

  %g0 = tensor.empty() : tensor<8x256xf32>
  %gacc = linalg.fill ins(%zero : f32) outs(%g0 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %gate = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wg : tensor<8x128xf16>, tensor<128x256xf16>) outs(%gacc : tensor<8x256xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x256xf32>
  %u0 = tensor.empty() : tensor<8x256xf32>
  %uacc = linalg.fill ins(%zero : f32) outs(%u0 : tensor<8x256xf32>) -> tensor<8x256xf32>
  %up = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wu : tensor<8x128xf16>, tensor<128x256xf16>) outs(%uacc : tensor<8x256xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x256xf32>
  %h0 = tensor.empty() : tensor<8x256xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<8x256xf32>, tensor<8x256xf32>) outs(%h0 : tensor<8x256xf16>) {
  ^bb0(%g: f32, %u: f32, %o: f16):
    %sg = spyreop.silu %g : f32
    %m = arith.mulf %sg, %u : f32
    %r = arith.truncf %m : f32 to f16
    linalg.yield %r : f16
  } -> tensor<8x256xf16>
  %y0 = tensor.empty() : tensor<8x128xf32>
  %yacc = linalg.fill ins(%zero : f32) outs(%y0 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %ys = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %wd : tensor<8x256xf16>, tensor<256x128xf16>) outs(%yacc : tensor<8x128xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %af = arith.extf %a : f16 to f32
    %bf = arith.extf %b : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x128xf32>
  %yh0 = tensor.empty() : tensor<8x128xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ys : tensor<8x128xf32>) outs(%yh0 : tensor<8x128xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.truncf %v : f32 to f16
    linalg.yield %r : f16
  } -> tensor<8x128xf16>
  ktdp.store %y, %Yt : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}
