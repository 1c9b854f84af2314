// C = A @ B, 256x512 by 512x128 f16 (f32 sums, rounded to f16 once), 4 tiles of 64 rows,
// on a 128 KiB scratchpad: a tile's 64 whole-K rows of A (64 KiB) do not fit beside even
// the narrowest whole-K panel of B (512 x 64, 64 KiB) and the sums, so the tile pipeline
// streams B in K chunks (stream-k-chunks) and the sums stay in the scratchpad between
// chunks; the chunk and its buffering are the solver's. Bit-identical to the unchunked sums.
// DEVICE: tests/solve/devices/spyre_128k_lx.mlir
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %crows = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %crows : index
  %zero = arith.constant 0.0 : f32
  %Av = ktdp.construct_memory_view %A, sizes: [256, 512], strides: [512, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 511 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>, access_tile_order = #id2}
      : memref<256x512xf16> -> !ktdp.access_tile<64x512xindex>
  %Bv = ktdp.construct_memory_view %B, sizes: [512, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<512x128xf16>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<512x128xf16> -> !ktdp.access_tile<512x128xindex>
  %Cv = ktdp.construct_memory_view %C, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<64x128xindex>
  %a = ktdp.load %At : !ktdp.access_tile<64x512xindex> -> tensor<64x512xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<512x128xindex> -> tensor<512x128xf16>
  %s_acc0 = tensor.empty() : tensor<64x128xf32>
  %s_acc = linalg.fill ins(%zero : f32) outs(%s_acc0 : tensor<64x128xf32>) -> tensor<64x128xf32>
  %s = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<64x512xf16>, tensor<512x128xf16>) outs(%s_acc : tensor<64x128xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x128xf32>
  %h0 = tensor.empty() : tensor<64x128xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<64x128xf32>) outs(%h0 : tensor<64x128xf16>) {
  ^bb0(%se: f32, %o: f16):
    %r = arith.truncf %se : f32 to f16
    linalg.yield %r : f16
  } -> tensor<64x128xf16>
  ktdp.store %h, %Ct : tensor<64x128xf16>, !ktdp.access_tile<64x128xindex>
  return
}
