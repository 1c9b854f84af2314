// Paged attention on 2 tiles (one sequence each), the whole step:
// O[b] = softmax(Q[b] @ K_b^T / 8) @ V_b, with K_b and V_b the sequence's 128 keys and values
// gathered a page at a time through one block table (pages of 32, 4 a sequence):
// K_b[t, d] = Kc[Idx[b, t floordiv 32], t mod 32, d], and V_b the same over Vc. Each gather
// is split into page and row (split-indirect-variables); the merged pages feed a matmul,
// which the merge cannot move into, so both gathered tiles are copied into scratchpad
// slots the two matmuls read as 128 rows. The softmax runs over each score row.
func.func @paged_attention_step(%Q: index, %Kc: index, %Vc: index, %Idx: index, %O: index) attributes {grid = [2 : i64]} {
  %c0 = arith.constant 0 : index
  %b = ktdp.get_compute_tile_id : index
  %Iv = ktdp.construct_memory_view %Idx, sizes: [2, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
  %Kv = ktdp.construct_memory_view %Kc, sizes: [12, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
  %Qv = ktdp.construct_memory_view %Q, sizes: [2, 16, 64], strides: [1024, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x16x64xf16>
  %Vv = ktdp.construct_memory_view %Vc, sizes: [12, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
  %Ov = ktdp.construct_memory_view %O, sizes: [2, 16, 64], strides: [1024, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x16x64xf16>
  %keys = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Kv[ind(%Iv[%b, (%t floordiv 32)]), (%t mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<128x64xindex>
  %qt = ktdp.construct_access_tile %Qv[%b, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x16x64xf16> -> !ktdp.access_tile<1x16x64xindex>
  %vals = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d) %Vv[ind(%Iv[%b, (%t floordiv 32)]), (%t mod 32), (%d)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<12x32x64xf16>, memref<2x4xi32> -> !ktdp.access_tile<128x64xindex>
  %ot = ktdp.construct_access_tile %Ov[%b, %c0, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<2x16x64xf16> -> !ktdp.access_tile<1x16x64xindex>
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
  %ninf = arith.constant -65504.0 : f16
  %m0 = tensor.empty() : tensor<16xf16>
  %m1 = linalg.fill ins(%ninf : f16) outs(%m0 : tensor<16xf16>) -> tensor<16xf16>
  %m = linalg.reduce ins(%s : tensor<16x128xf16>) outs(%m1 : tensor<16xf16>) dimensions = [1]
    (%in: f16, %acc2: f16) {
      %mx = arith.maximumf %in, %acc2 : f16
      linalg.yield %mx : f16
    }
  %e0 = tensor.empty() : tensor<16x128xf16>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s, %m : tensor<16x128xf16>, tensor<16xf16>) outs(%e0 : tensor<16x128xf16>) {
  ^bb0(%xe: f16, %me: f16, %o: f16):
    %df = arith.subf %xe, %me : f16
    %x1 = math.exp %df : f16
    linalg.yield %x1 : f16
  } -> tensor<16x128xf16>
  %zero32 = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<16xf32>
  %s1 = linalg.fill ins(%zero32 : f32) outs(%s0 : tensor<16xf32>) -> tensor<16xf32>
  %exw = arith.extf %ex : tensor<16x128xf16> to tensor<16x128xf32>
  %sum = linalg.reduce ins(%exw : tensor<16x128xf32>) outs(%s1 : tensor<16xf32>) dimensions = [1]
    (%in: f32, %acc3: f32) {
      %a = arith.addf %in, %acc3 : f32
      linalg.yield %a : f32
    }
  %sumh = arith.truncf %sum : tensor<16xf32> to tensor<16xf16>
  %p0 = tensor.empty() : tensor<16x128xf16>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sumh : tensor<16x128xf16>, tensor<16xf16>) outs(%p0 : tensor<16x128xf16>) {
  ^bb0(%xe: f16, %se: f16, %o: f16):
    %qd = arith.divf %xe, %se : f16
    linalg.yield %qd : f16
  } -> tensor<16x128xf16>
  %v = ktdp.load %vals : <128x64xindex> -> tensor<128x64xf16>
  %eo = tensor.empty() : tensor<16x64xf16>
  %acco = linalg.fill ins(%zero : f16) outs(%eo : tensor<16x64xf16>) -> tensor<16x64xf16>
  %out = linalg.matmul ins(%p, %v : tensor<16x128xf16>, tensor<128x64xf16>) outs(%acco : tensor<16x64xf16>) -> tensor<16x64xf16>
  %o3 = tensor.expand_shape %out [[0, 1], [2]] output_shape [1, 16, 64] : tensor<16x64xf16> into tensor<1x16x64xf16>
  ktdp.store %o3, %ot : tensor<1x16x64xf16>, <1x16x64xindex>
  func.return
}
