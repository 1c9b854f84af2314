// D = (A @ B)^T: a linalg.matmul of 8x32 by 32x16 f16 tiles into an empty f16
// accumulator (it reads as zeros), then a 2-D linalg.transpose of the product in the
// scratchpad. Two compute tiles, each 8 rows of A.
#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#aw = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#d = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#dw = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @named_matmul_transpose(%A: index, %B: index, %D: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c8 : index
  %Av = ktdp.construct_memory_view %A, sizes: [16, 32], strides: [32, 1] {coordinate_set = #aw, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [32, 16], strides: [16, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
  %Dv = ktdp.construct_memory_view %D, sizes: [16, 16], strides: [16, 1] {coordinate_set = #dw, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #a, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<8x32xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #b, access_tile_order = #id2} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
  %Dt = ktdp.construct_access_tile %Dv[%c0, %row] {access_tile_set = #d, access_tile_order = #id2} : memref<16x16xf16> -> !ktdp.access_tile<16x8xindex>
  %a = ktdp.load %At : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<32x16xindex> -> tensor<32x16xf16>
  %e = tensor.empty() : tensor<8x16xf16>
  %p = linalg.matmul ins(%a, %b : tensor<8x32xf16>, tensor<32x16xf16>) outs(%e : tensor<8x16xf16>) -> tensor<8x16xf16>
  %e2 = tensor.empty() : tensor<16x8xf16>
  %d = linalg.transpose ins(%p : tensor<8x16xf16>) outs(%e2 : tensor<16x8xf16>) permutation = [1, 0]
  ktdp.store %d, %Dt : tensor<16x8xf16>, !ktdp.access_tile<16x8xindex>
  return
}
