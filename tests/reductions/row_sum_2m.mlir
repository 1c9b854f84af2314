// S[i] = sum_j X[i, j] over a 2x2097152 f16 tensor, accumulated in f32 and rounded
// to f16 once; 2 compute tiles of 1 row(s) each.
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 2097151 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 2097151 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 0 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @row_sum(%X: index, %S: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %cr = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %cr : index
  %Xv = ktdp.construct_memory_view %X, sizes: [2, 2097152], strides: [2097152, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<2x2097152xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [2], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<2x2097152xf16> -> !ktdp.access_tile<1x2097152xindex>
  %St = ktdp.construct_access_tile %Sv[%row] {access_tile_set = #rows, access_tile_order = #id1}
      : memref<2xf16> -> !ktdp.access_tile<1xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x2097152xindex> -> tensor<1x2097152xf16>
  %acc0 = tensor.empty() : tensor<1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<1xf32>) -> tensor<1xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x2097152xf16>) outs(%acc : tensor<1xf32>) {
  ^bb0(%xe: f16, %a: f32):
    %w = arith.extf %xe : f16 to f32
    %s = arith.addf %w, %a : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %h0 = tensor.empty() : tensor<1xf16>
  %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<1xf32>) outs(%h0 : tensor<1xf16>) {
  ^bb0(%se: f32, %o: f16):
    %n = arith.truncf %se : f32 to f16
    linalg.yield %n : f16
  } -> tensor<1xf16>
  ktdp.store %h, %St : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}
