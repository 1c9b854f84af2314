// S[j] = sum_i X[i, j] over each tile's 8 x 128 f16 block of a 256 x 128 tensor (a column
// sum: the reduced dim d0 is not the innermost), accumulated in f32, rounded to f16 once.
// 32 compute tiles, 8 rows each; tile t writes its 128 partial sums at S[128 t].
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#outset = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#cols = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#colmap = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>

func.func @col_sum(%X: index, %S: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c8 : index
  %c128 = arith.constant 128 : index
  %col = arith.muli %t, %c128 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [4096], strides: [1] {
      coordinate_set = #outset, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows8, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<8x128xindex>
  %St = ktdp.construct_access_tile %Sv[%col] {access_tile_set = #cols, access_tile_order = #id1}
      : memref<4096xf16> -> !ktdp.access_tile<128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %a0 = tensor.empty() : tensor<128xf32>
  %a = linalg.fill ins(%zero : f32) outs(%a0 : tensor<128xf32>) -> tensor<128xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #colmap], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<8x128xf16>) outs(%a : tensor<128xf32>) {
  ^bb0(%xe: f16, %acc: f32):
    %w = arith.extf %xe : f16 to f32
    %s = arith.addf %w, %acc : f32
    linalg.yield %s : f32
  } -> tensor<128xf32>
  %h0 = tensor.empty() : tensor<128xf16>
  %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<128xf32>) outs(%h0 : tensor<128xf16>) {
  ^bb0(%se: f32, %o: f16):
    %n = arith.truncf %se : f32 to f16
    linalg.yield %n : f16
  } -> tensor<128xf16>
  ktdp.store %h, %St : tensor<128xf16>, !ktdp.access_tile<128xindex>
  return
}
