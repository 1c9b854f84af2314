// A SwiGLU feed-forward block whose hidden activations H go through device memory: 256
// tokens x 128 -> 256 -> 128, f16, 4 tiles of 64 rows. gate = X @ Wg and up = X @ Wu (f32
// sums), H = silu(gate) * up rounded to f16 and stored; each tile loads its rows of H back
// for Y = H @ Wd. On a 128 KiB scratchpad the first program runs gate, up and H in one tile
// pipeline whose DMA unit loads Wg, then Wu (it waits for its own loads), inside a row tile
// loop that fetches X, which both matmuls read, once per row tile.
// DEVICE: tests/solve/devices/spyre_128k_lx.mlir
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

func.func @ffn(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index, %H: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %crows = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %crows : index
  %zero = arith.constant 0.0 : f32
  %Xv = ktdp.construct_memory_view %X, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<64x128xindex>
  %Wgv = ktdp.construct_memory_view %Wg, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Wgt = ktdp.construct_access_tile %Wgv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<128x256xindex>
  %Wuv = ktdp.construct_memory_view %Wu, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Wut = ktdp.construct_access_tile %Wuv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<128x256xindex>
  %Wdv = ktdp.construct_memory_view %Wd, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Wdt = ktdp.construct_access_tile %Wdv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<256x128xindex>
  %Yv = ktdp.construct_memory_view %Y, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<64x128xindex>
  %Hv = ktdp.construct_memory_view %H, sizes: [256, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x256xf16>
  %Ht = ktdp.construct_access_tile %Hv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #id2}
      : memref<256x256xf16> -> !ktdp.access_tile<64x256xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<64x128xindex> -> tensor<64x128xf16>
  %wg = ktdp.load %Wgt : !ktdp.access_tile<128x256xindex> -> tensor<128x256xf16>
  %wu = ktdp.load %Wut : !ktdp.access_tile<128x256xindex> -> tensor<128x256xf16>
  %wd = ktdp.load %Wdt : !ktdp.access_tile<256x128xindex> -> tensor<256x128xf16>
  %gate_acc0 = tensor.empty() : tensor<64x256xf32>
  %gate_acc = linalg.fill ins(%zero : f32) outs(%gate_acc0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %gate = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wg : tensor<64x128xf16>, tensor<128x256xf16>) outs(%gate_acc : tensor<64x256xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  %up_acc0 = tensor.empty() : tensor<64x256xf32>
  %up_acc = linalg.fill ins(%zero : f32) outs(%up_acc0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %up = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %wu : tensor<64x128xf16>, tensor<128x256xf16>) outs(%up_acc : tensor<64x256xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x256xf32>
  %h0 = tensor.empty() : tensor<64x256xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%gate, %up : tensor<64x256xf32>, tensor<64x256xf32>) outs(%h0 : tensor<64x256xf16>) {
  ^bb0(%g: f32, %u: f32, %o: f16):
    %sg = spyreop.silu %g : f32
    %m = arith.mulf %sg, %u : f32
    %r = arith.truncf %m : f32 to f16
    linalg.yield %r : f16
  } -> tensor<64x256xf16>
  ktdp.store %h, %Ht : tensor<64x256xf16>, !ktdp.access_tile<64x256xindex>
  %hl = ktdp.load %Ht : !ktdp.access_tile<64x256xindex> -> tensor<64x256xf16>
  %ys_acc0 = tensor.empty() : tensor<64x128xf32>
  %ys_acc = linalg.fill ins(%zero : f32) outs(%ys_acc0 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %ys = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%hl, %wd : tensor<64x256xf16>, tensor<256x128xf16>) outs(%ys_acc : tensor<64x128xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  %y0 = tensor.empty() : tensor<64x128xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ys : tensor<64x128xf32>) outs(%y0 : tensor<64x128xf16>) {
  ^bb0(%v: f32, %o: f16):
    %r = arith.truncf %v : f32 to f16
    linalg.yield %r : f16
  } -> tensor<64x128xf16>
  ktdp.store %y, %Yt : tensor<64x128xf16>, !ktdp.access_tile<64x128xindex>
  return
}
