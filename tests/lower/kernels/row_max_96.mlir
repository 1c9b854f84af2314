// M[i] = max_j (-(X[i, j] * X[i, j]) - 1) over an 8x96 f16 tensor. The last vector of each
// row is partial (96 = 64 + 32 lanes); a padding lane would give -(0 * 0) - 1 = -1, larger
// than every real value when |X| >= 1 (tests/lower/test_partial_vectors.py feeds such X),
// so padding entering the maximum shows. 4 compute tiles, 2 rows each.
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @row_max_96(%X: index, %M: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %ninf = arith.constant -65504.0 : f16
  %one = arith.constant 1.0 : f16
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x96xf16>
  %Mv = ktdp.construct_memory_view %M, sizes: [8], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<8x96xf16> -> !ktdp.access_tile<2x96xindex>
  %Mt = ktdp.construct_access_tile %Mv[%row] {access_tile_set = #two, access_tile_order = #id1}
      : memref<8xf16> -> !ktdp.access_tile<2xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
  %acc0 = tensor.empty() : tensor<2xf16>
  %acc = linalg.fill ins(%ninf : f16) outs(%acc0 : tensor<2xf16>) -> tensor<2xf16>
  %m = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x96xf16>) outs(%acc : tensor<2xf16>) {
  ^bb0(%xe: f16, %a: f16):
    %sq = arith.mulf %xe, %xe : f16
    %neg = arith.negf %sq : f16
    %v = arith.subf %neg, %one : f16
    %r = arith.maximumf %v, %a : f16
    linalg.yield %r : f16
  } -> tensor<2xf16>
  ktdp.store %m, %Mt : tensor<2xf16>, !ktdp.access_tile<2xindex>
  return
}
