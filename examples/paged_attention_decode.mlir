// One decode step of paged attention: for each of 32 heads (one per compute tile), the new
// token's query q (64 wide) attends to the 32 cached tokens of its sequence, stored in 2
// pages of 16 tokens that the block table BT names in a cache of 16 pages
// (K[page, slot, head, dim], V alike). The pages are gathered through indirect access
// tiles (page = BT[p]); the dot products and sums are reduction-shaped linalg.generic:
//   s[p, t] = sum_d q[d] K[BT[p], t, h, d]     e = exp(s / 8)
//   o[d] = sum_p sum_t e[p, t] V[BT[p], t, h, d] / sum_p sum_t e[p, t]
// The sums over pages and slots are two single-dimension reductions (per page, then over
// pages); q is broadcast to every token by its indexing map, and the softmax denominator's
// per-page sums to every output column by the last sum's map. Without the running maximum
// of a production kernel: inputs in [-2, 2] keep s / 8 within f32's exp range.
#kv = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#bt = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#order3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>
#qs1 = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#row1 = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#pq = affine_map<(p, s, d) -> (d)>
#pk = affine_map<(p, s, d) -> (p, s, d)>
#ps = affine_map<(p, s, d) -> (p, s)>
#id2ps = affine_map<(p, s) -> (p, s)>
#pd = affine_map<(p, s, d) -> (p, d)>
#pd1 = affine_map<(p, d) -> (d)>

func.func @paged_attention_decode(%Q: index, %K: index, %V: index, %BT: index, %O: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32  // 1 / sqrt(64)
  %h = ktdp.get_compute_tile_id : index
  %c64 = arith.constant 64 : index
  %h64 = arith.muli %h, %c64 : index
  %Qh = arith.addi %Q, %h64 : index
  %Qv = ktdp.construct_memory_view %Qh, sizes: [64], strides: [1] {
      coordinate_set = #row1, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Ov = ktdp.construct_memory_view %O, sizes: [2048], strides: [1] {
      coordinate_set = #qs1, memory_space = #ktdp.memory_space<global>} : memref<2048xf16>
  %Kv = ktdp.construct_memory_view %K, sizes: [16, 16, 32, 64], strides: [32768, 2048, 64, 1] {
      coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<16x16x32x64xf16>
  %Vv = ktdp.construct_memory_view %V, sizes: [16, 16, 32, 64], strides: [32768, 2048, 64, 1] {
      coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<16x16x32x64xf16>
  %Bv = ktdp.construct_memory_view %BT, sizes: [2], strides: [1] {
      coordinate_set = #bt, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
  %Kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %s, %d)
      %Kv[ind(%Bv[%p]), (%s), (%h), (%d)] {variables_space_set = #vars, variables_space_order = #order3}
      : memref<16x16x32x64xf16>, memref<2xi32> -> !ktdp.access_tile<2x16x64xindex>
  %Vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %s, %d)
      %Vv[ind(%Bv[%p]), (%s), (%h), (%d)] {variables_space_set = #vars, variables_space_order = #order3}
      : memref<16x16x32x64xf16>, memref<2xi32> -> !ktdp.access_tile<2x16x64xindex>
  %Qt = ktdp.construct_access_tile %Qv[%c0] {access_tile_set = #row1, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %Ot = ktdp.construct_access_tile %Ov[%h64] {access_tile_set = #row1, access_tile_order = #id1}
      : memref<2048xf16> -> !ktdp.access_tile<64xindex>
  %q = ktdp.load %Qt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %k = ktdp.load %Kt : !ktdp.access_tile<2x16x64xindex> -> tensor<2x16x64xf16>
  %v = ktdp.load %Vt : !ktdp.access_tile<2x16x64xindex> -> tensor<2x16x64xf16>
  %s0 = tensor.empty() : tensor<2x16xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<2x16xf32>) -> tensor<2x16xf32>
  %sc = linalg.generic {indexing_maps = [#pq, #pk, #ps], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<64xf16>, tensor<2x16x64xf16>) outs(%s1 : tensor<2x16xf32>) {
    ^bb0(%a: f16, %b: f16, %acc: f32):
      %af = arith.extf %a : f16 to f32
      %bf = arith.extf %b : f16 to f32
      %m = arith.mulf %af, %bf : f32
      %r = arith.addf %m, %acc : f32
      linalg.yield %r : f32
  } -> tensor<2x16xf32>
  %e0 = tensor.empty() : tensor<2x16xf32>
  %e = linalg.generic {indexing_maps = [#id2ps, #id2ps], iterator_types = ["parallel", "parallel"]}
      ins(%sc : tensor<2x16xf32>) outs(%e0 : tensor<2x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %scale : f32
      %x = math.exp %m : f32
      linalg.yield %x : f32
  } -> tensor<2x16xf32>
  %op0 = tensor.empty() : tensor<2x64xf32>
  %op1 = linalg.fill ins(%zero : f32) outs(%op0 : tensor<2x64xf32>) -> tensor<2x64xf32>
  %opart = linalg.generic {indexing_maps = [#ps, #pk, #pd], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%e, %v : tensor<2x16xf32>, tensor<2x16x64xf16>) outs(%op1 : tensor<2x64xf32>) {
    ^bb0(%a: f32, %b: f16, %c: f32):
      %bf = arith.extf %b : f16 to f32
      %m = arith.mulf %a, %bf : f32
      %r = arith.addf %m, %c : f32
      linalg.yield %r : f32
  } -> tensor<2x64xf32>
  %lp0 = tensor.empty() : tensor<2xf32>
  %lp1 = linalg.fill ins(%zero : f32) outs(%lp0 : tensor<2xf32>) -> tensor<2xf32>
  %lpart = linalg.generic {indexing_maps = [#id2ps, affine_map<(p, s) -> (p)>], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<2x16xf32>) outs(%lp1 : tensor<2xf32>) {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<2xf32>
  %o0 = tensor.empty() : tensor<64xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<64xf32>) -> tensor<64xf32>
  %acc = linalg.generic {indexing_maps = [#id2, #pd1], iterator_types = ["reduction", "parallel"]}
      ins(%opart : tensor<2x64xf32>) outs(%o1 : tensor<64xf32>) {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<64xf32>
  %l0 = tensor.empty() : tensor<64xf32>
  %l1 = linalg.fill ins(%zero : f32) outs(%l0 : tensor<64xf32>) -> tensor<64xf32>
  %l = linalg.generic {indexing_maps = [affine_map<(p, d) -> (p)>, #pd1], iterator_types = ["reduction", "parallel"]}
      ins(%lpart : tensor<2xf32>) outs(%l1 : tensor<64xf32>) {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<64xf32>
  %y0 = tensor.empty() : tensor<64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d) -> (d)>, affine_map<(d) -> (d)>, affine_map<(d) -> (d)>], iterator_types = ["parallel"]}
      ins(%acc, %l : tensor<64xf32>, tensor<64xf32>) outs(%y0 : tensor<64xf16>) {
    ^bb0(%a: f32, %b: f32, %c: f16):
      %r = arith.divf %a, %b : f32
      %t = arith.truncf %r : f32 to f16
      linalg.yield %t : f16
  } -> tensor<64xf16>
  ktdp.store %y, %Ot : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
