// C = A @ B^T with A 16x32 and B 16x32 f16 (B read transposed: the matmul-shaped generic's
// map for B is (m, n, k) -> (n, k)), accumulated in f16 from a zero fill, one tile.
#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mBt = affine_map<(m, n, k) -> (n, k)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_b(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f16
  %Av = ktdp.construct_memory_view %A, sizes: [16, 32], strides: [32, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [16, 32], strides: [32, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [16, 16], strides: [16, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #a, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #a, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<16x32xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<16x16xindex>
  %a = ktdp.load %At : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
  %acc0 = tensor.empty() : tensor<16x16xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%acc0 : tensor<16x16xf16>) -> tensor<16x16xf16>
  %s = linalg.generic {indexing_maps = [#mA, #mBt, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf16>, tensor<16x32xf16>) outs(%acc : tensor<16x16xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %p = arith.mulf %x, %y : f16
    %q = arith.addf %o, %p : f16
    linalg.yield %q : f16
  } -> tensor<16x16xf16>
  ktdp.store %s, %Ct : tensor<16x16xf16>, !ktdp.access_tile<16x16xindex>
  return
}
