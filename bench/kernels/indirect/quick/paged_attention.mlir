// Paged attention, one decode step: 32 heads x 128 head dim, 64 cached tokens in
// 4 pages of 16 (a cache of 8 pages). Written by bench/paged_attention.py; do not
// edit by hand. Same kernel as examples/paged_attention_decode.mlir, at this size.
#kv = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 31 >= 0, d3 >= 0, -d3 + 127 >= 0)>
#bt = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#vars = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 127 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 4095 >= 0)>
#head = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#o3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
#o1 = affine_map<(d0) -> (d0)>
#ps = affine_map<(p, s, d) -> (p, s)>
#pd = affine_map<(p, s, d) -> (p, d)>
#d_of_pd = affine_map<(p, d) -> (d)>
#d_of_psd = affine_map<(p, s, d) -> (d)>
#p_of_ps = affine_map<(p, s) -> (p)>
#p_of_pd = affine_map<(p, d) -> (p)>

func.func @paged_attention(%Q: index, %K: index, %V: index, %BT: index, %O: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %cd = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.08838834764831843 : f32
  %h = ktdp.get_compute_tile_id : index
  %hd = arith.muli %h, %cd : index
  %Qh = arith.addi %Q, %hd : index
  %Qv = ktdp.construct_memory_view %Qh, sizes: [128], strides: [1] {
      coordinate_set = #head, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %Ov = ktdp.construct_memory_view %O, sizes: [4096], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
  %Kv = ktdp.construct_memory_view %K, sizes: [8, 16, 32, 128], strides: [65536, 4096, 128, 1] {
      coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x16x32x128xf16>
  %Vv = ktdp.construct_memory_view %V, sizes: [8, 16, 32, 128], strides: [65536, 4096, 128, 1] {
      coordinate_set = #kv, memory_space = #ktdp.memory_space<global>} : memref<8x16x32x128xf16>
  %Bv = ktdp.construct_memory_view %BT, sizes: [4], strides: [1] {
      coordinate_set = #bt, memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %Kt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %s, %d)
      %Kv[ind(%Bv[%p]), (%s), (%h), (%d)] {variables_space_set = #vars, variables_space_order = #o3}
      : memref<8x16x32x128xf16>, memref<4xi32> -> !ktdp.access_tile<4x16x128xindex>
  %Vt = ktdp.construct_indirect_access_tile intermediate_variables(%p, %s, %d)
      %Vv[ind(%Bv[%p]), (%s), (%h), (%d)] {variables_space_set = #vars, variables_space_order = #o3}
      : memref<8x16x32x128xf16>, memref<4xi32> -> !ktdp.access_tile<4x16x128xindex>
  %Qt = ktdp.construct_access_tile %Qv[%c0] {access_tile_set = #head, access_tile_order = #o1}
      : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %Ot = ktdp.construct_access_tile %Ov[%hd] {access_tile_set = #head, access_tile_order = #o1}
      : memref<4096xf16> -> !ktdp.access_tile<128xindex>
  %q = ktdp.load %Qt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  %k = ktdp.load %Kt : !ktdp.access_tile<4x16x128xindex> -> tensor<4x16x128xf16>
  %v = ktdp.load %Vt : !ktdp.access_tile<4x16x128xindex> -> tensor<4x16x128xf16>
  %s0 = tensor.empty() : tensor<4x16xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %sc = linalg.generic {indexing_maps = [#d_of_psd, #o3, #ps], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<128xf16>, tensor<4x16x128xf16>) outs(%s1 : tensor<4x16xf32>) {
    ^bb0(%a: f16, %b: f16, %acc: f32):
      %af = arith.extf %a : f16 to f32
      %bf = arith.extf %b : f16 to f32
      %m = arith.mulf %af, %bf : f32
      %r = arith.addf %m, %acc : f32
      linalg.yield %r : f32
  } -> tensor<4x16xf32>
  %e0 = tensor.empty() : tensor<4x16xf32>
  %e = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%sc : tensor<4x16xf32>) outs(%e0 : tensor<4x16xf32>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %scale : f32
      %x = math.exp %m : f32
      linalg.yield %x : f32
  } -> tensor<4x16xf32>
  %op0 = tensor.empty() : tensor<4x128xf32>
  %op1 = linalg.fill ins(%zero : f32) outs(%op0 : tensor<4x128xf32>) -> tensor<4x128xf32>
  %opart = linalg.generic {indexing_maps = [#ps, #o3, #pd], iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%e, %v : tensor<4x16xf32>, tensor<4x16x128xf16>) outs(%op1 : tensor<4x128xf32>) {
    ^bb0(%a: f32, %b: f16, %c: f32):
      %bf = arith.extf %b : f16 to f32
      %m = arith.mulf %a, %bf : f32
      %r = arith.addf %m, %c : f32
      linalg.yield %r : f32
  } -> tensor<4x128xf32>
  %lp0 = tensor.empty() : tensor<4xf32>
  %lp1 = linalg.fill ins(%zero : f32) outs(%lp0 : tensor<4xf32>) -> tensor<4xf32>
  %lpart = linalg.generic {indexing_maps = [#o2, #p_of_ps], iterator_types = ["parallel", "reduction"]}
      ins(%e : tensor<4x16xf32>) outs(%lp1 : tensor<4xf32>) {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<4xf32>
  %o0 = tensor.empty() : tensor<128xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%o0 : tensor<128xf32>) -> tensor<128xf32>
  %acc = linalg.generic {indexing_maps = [#o2, #d_of_pd], iterator_types = ["reduction", "parallel"]}
      ins(%opart : tensor<4x128xf32>) outs(%o1 : tensor<128xf32>) {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<128xf32>
  %l0 = tensor.empty() : tensor<128xf32>
  %l1 = linalg.fill ins(%zero : f32) outs(%l0 : tensor<128xf32>) -> tensor<128xf32>
  %l = linalg.generic {indexing_maps = [#p_of_pd, #d_of_pd], iterator_types = ["reduction", "parallel"]}
      ins(%lpart : tensor<4xf32>) outs(%l1 : tensor<128xf32>) {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      linalg.yield %r : f32
  } -> tensor<128xf32>
  %y0 = tensor.empty() : tensor<128xf16>
  %y = linalg.generic {indexing_maps = [#o1, #o1, #o1], iterator_types = ["parallel"]}
      ins(%acc, %l : tensor<128xf32>, tensor<128xf32>) outs(%y0 : tensor<128xf16>) {
    ^bb0(%a: f32, %b: f32, %c: f16):
      %r = arith.divf %a, %b : f32
      %t = arith.truncf %r : f32 to f16
      linalg.yield %t : f16
  } -> tensor<128xf16>
  ktdp.store %y, %Ot : tensor<128xf16>, !ktdp.access_tile<128xindex>
  return
}
