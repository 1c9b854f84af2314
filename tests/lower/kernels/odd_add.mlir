// C = A * B + A on a 100x96 f16 tensor: 4 compute tiles of 25 rows (an odd count no row
// tile but 1, 5 or 25 divides) and 96 columns (a whole vector and a partial one of 32 lanes).
#rows25 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 24 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @odd_add(%A: index, %B: index, %C: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c25 = arith.constant 25 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c25 : index
  %Av = ktdp.construct_memory_view %A, sizes: [100, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<100x96xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [100, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<100x96xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [100, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<100x96xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #rows25, access_tile_order = #id2}
      : memref<100x96xf16> -> !ktdp.access_tile<25x96xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = #rows25, access_tile_order = #id2}
      : memref<100x96xf16> -> !ktdp.access_tile<25x96xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = #rows25, access_tile_order = #id2}
      : memref<100x96xf16> -> !ktdp.access_tile<25x96xindex>
  %a = ktdp.load %At : !ktdp.access_tile<25x96xindex> -> tensor<25x96xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<25x96xindex> -> tensor<25x96xf16>
  %e = tensor.empty() : tensor<25x96xf16>
  %p = linalg.mul ins(%a, %b : tensor<25x96xf16>, tensor<25x96xf16>) outs(%e : tensor<25x96xf16>) -> tensor<25x96xf16>
  %e2 = tensor.empty() : tensor<25x96xf16>
  %c = linalg.add ins(%p, %a : tensor<25x96xf16>, tensor<25x96xf16>) outs(%e2 : tensor<25x96xf16>) -> tensor<25x96xf16>
  ktdp.store %c, %Ct : tensor<25x96xf16>, !ktdp.access_tile<25x96xindex>
  return
}
