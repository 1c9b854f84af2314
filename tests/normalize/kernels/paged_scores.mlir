// Paged attention's scores on 2 tiles (one sequence each): S[b] = (Q[b] @ K_b^T) / 8,
// where K_b is the sequence's 128 keys gathered a page at a time through a block table,
// K_b[t, d] = Kc[Idx[b, t floordiv 32], t mod 32, d] (pages of 32 keys, 4 a sequence).
// split-indirect-variables gathers the keys in their variables' shape, 4 x 32 x 64, merged
// back to 128 rows by a collapse that cannot move into a matmul: the gathered pages are
// copied as they are into a scratchpad slot and the matmul reads the slot as 128 rows.
func.func @paged_scores(%Q: index, %Kc: index, %Idx: index, %S: index) attributes {grid = [2 : i64]} {
  %c0 = arith.constant 0 : index
  %b = ktdp.get_compute_tile_id : index
  %Iv = ktdp.construct_memory_view %Idx, sizes: [2, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
  %Kv = ktdp.construct_memory_view %Kc, sizes: [12, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
  %Qv = ktdp.construct_memory_view %Q, sizes: [2, 16, 64], strides: [1024, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x16x64xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [2, 16, 128], strides: [2048, 128, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x16x128xf16>
  %keys = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Kv[ind(%Iv[%b, (%t floordiv 32)]), (%t mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<128x64xindex>
  %qt = ktdp.construct_access_tile %Qv[%b, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x16x64xf16> -> !ktdp.access_tile<1x16x64xindex>
  %st = ktdp.construct_access_tile %Sv[%b, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x16x128xf16> -> !ktdp.access_tile<1x16x128xindex>
  %k = ktdp.load %keys : <128x64xindex> -> tensor<128x64xf16>
  %q3 = ktdp.load %qt : <1x16x64xindex> -> tensor<1x16x64xf16>
  %q = tensor.collapse_shape %q3 [[0, 1], [2]] : tensor<1x16x64xf16> into tensor<16x64xf16>
  %et = tensor.empty() : tensor<64x128xf16>
  %kt = linalg.transpose ins(%k : tensor<128x64xf16>) outs(%et : tensor<64x128xf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x128xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<16x128xf16>) -> tensor<16x128xf16>
  %qk = linalg.matmul ins(%q, %kt : tensor<16x64xf16>, tensor<64x128xf16>) outs(%acc : tensor<16x128xf16>) -> tensor<16x128xf16>
  %scale = arith.constant 0.125 : f16
  %sc = tensor.splat %scale : tensor<16x128xf16>
  %s = arith.mulf %qk, %sc : tensor<16x128xf16>
  %s3 = tensor.expand_shape %s [[0, 1], [2]] output_shape [1, 16, 128] : tensor<16x128xf16> into tensor<1x16x128xf16>
  ktdp.store %s3, %st : tensor<1x16x128xf16>, <1x16x128xindex>
  func.return
}
