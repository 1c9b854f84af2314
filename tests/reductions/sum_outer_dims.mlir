// S[k] = sum_{i,j} X[i, j, k] over a 4x8x64 f16 tensor: a reduction over the two outer
// dimensions, the innermost one parallel. 2 compute tiles, 32 columns each.
#tile = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#whole = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#cols = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#inner = affine_map<(d0, d1, d2) -> (d2)>

func.func @sum_outer(%X: index, %S: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c32 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 8, 64], strides: [512, 64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0, %col] {access_tile_set = #tile, access_tile_order = #id3}
      : memref<4x8x64xf16> -> !ktdp.access_tile<4x8x32xindex>
  %St = ktdp.construct_access_tile %Sv[%col] {access_tile_set = #cols, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<32xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x8x32xindex> -> tensor<4x8x32xf16>
  %acc0 = tensor.empty() : tensor<32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<32xf32>) -> tensor<32xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #inner], iterator_types = ["reduction", "reduction", "parallel"]}
      ins(%x : tensor<4x8x32xf16>) outs(%acc : tensor<32xf32>) {
  ^bb0(%xe: f16, %a: f32):
    %w = arith.extf %xe : f16 to f32
    %s = arith.addf %w, %a : f32
    linalg.yield %s : f32
  } -> tensor<32xf32>
  %h0 = tensor.empty() : tensor<32xf16>
  %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<32xf32>) outs(%h0 : tensor<32xf16>) {
  ^bb0(%se: f32, %o: f16):
    %n = arith.truncf %se : f32 to f16
    linalg.yield %n : f16
  } -> tensor<32xf16>
  ktdp.store %h, %St : tensor<32xf16>, !ktdp.access_tile<32xindex>
  return
}
