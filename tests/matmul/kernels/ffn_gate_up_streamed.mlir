// A SwiGLU feed-forward block whose gate and up panels crowd out X's row tile on a
// 128 KiB scratchpad: 64 tokens x 1024 -> 128 -> 1024, f16, 4 tiles of 16 rows.
// gate = X @ Wg and up = X @ Wu (f32 sums) are fused in one tile pipeline; a whole-K
// column panel of either weight (1024 x 64 f16, 128 KiB) fills the scratchpad alone, so
// each is streamed in K chunks beside X's held row tile (stream-k-chunks, two panels in
// one tile pipeline) instead of the K loop being chunked with the f32 products held whole.
// H = silu(gate) * up rounded to f16, Y = H @ Wd rounded to f16.
// DEVICE: tests/solve/devices/spyre_128k_lx.mlir
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

func.func @ffn(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %crows = arith.constant 16 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %crows : index
  %zero = arith.constant 0.0 : f32
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 1024], strides: [1024, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, access_tile_order = #id2}
      : memref<64x1024xf16> -> !ktdp.access_tile<16x1024xindex>
  %Wgv = ktdp.construct_memory_view %Wg, sizes: [1024, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1024x128xf16>
  %Wgt = ktdp.construct_access_tile %Wgv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<1024x128xf16> -> !ktdp.access_tile<1024x128xindex>
  %Wuv = ktdp.construct_memory_view %Wu, sizes: [1024, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1024x128xf16>
  %Wut = ktdp.construct_access_tile %Wuv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<1024x128xf16> -> !ktdp.access_tile<1024x128xindex>
  %Wdv = ktdp.construct_memory_view %Wd, sizes: [128, 1024], strides: [1024, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x1024xf16>
  %Wdt = ktdp.construct_access_tile %Wdv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, access_tile_order = #id2}
      : memref<128x1024xf16> -> !ktdp.access_tile<128x1024xindex>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 1024], strides: [1024, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 1023 >= 0)>, access_tile_order = #id2}
      : memref<64x1024xf16> -> !ktdp.access_tile<16x1024xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<16x1024xindex> -> tensor<16x1024xf16>
  %wg = ktdp.load %Wgt : !ktdp.access_tile<1024x128xindex> -> tensor<1024x128xf16>
  %wu = ktdp.load %Wut : !ktdp.access_tile<1024x128xindex> -> tensor<1024x128xf16>
  %wd = ktdp.load %Wdt : !ktdp.access_tile<128x1024xindex> -> tensor<128x1024xf16>
  %gate_acc0 = tensor.empty() : tensor<16x128xf32>
  %gate_acc = linalg.fill ins(%zero : f32) outs(%gate_acc0 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %gate = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wg : tensor<16x1024xf16>, tensor<1024x128xf16>) outs(%gate_acc : tensor<16x128xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x128xf32>
  %up_acc0 = tensor.empty() : tensor<16x128xf32>
  %up_acc = linalg.fill ins(%zero : f32) outs(%up_acc0 : tensor<16x128xf32>) -> tensor<16x128xf32>
  %up = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wu : tensor<16x1024xf16>, tensor<1024x128xf16>) outs(%up_acc : tensor<16x128xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x128xf32>
  %h0 = tensor.empty() : tensor<16x128xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<16x128xf32>, tensor<16x128xf32>) outs(%h0 : tensor<16x128xf16>) {
  ^bb0(%g: f32, %u: f32, %o: f16):
    %sg = spyreop.silu %g : f32
    %m = arith.mulf %sg, %u : f32
    %r = arith.truncf %m : f32 to f16
    linalg.yield %r : f16
  } -> tensor<16x128xf16>
  %ys_acc0 = tensor.empty() : tensor<16x1024xf32>
  %ys_acc = linalg.fill ins(%zero : f32) outs(%ys_acc0 : tensor<16x1024xf32>) -> tensor<16x1024xf32>
  %ys = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %wd : tensor<16x128xf16>, tensor<128x1024xf16>) outs(%ys_acc : tensor<16x1024xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<16x1024xf32>
  %y0 = tensor.empty() : tensor<16x1024xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ys : tensor<16x1024xf32>) outs(%y0 : tensor<16x1024xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.truncf %v : f32 to f16
    linalg.yield %r : f16
  } -> tensor<16x1024xf16>
  ktdp.store %y, %Yt : tensor<16x1024xf16>, !ktdp.access_tile<16x1024xindex>
  return
}
