// C = A + B on 4x96 f16, 2 compute tiles of 2 rows: the columns are not a multiple of
// the 64-lane vector (a partial last vector).
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @small_add(%A: index, %B: index, %C: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Av = ktdp.construct_memory_view %A, sizes: [4, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [4, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
  %a = ktdp.load %At : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
  %e = tensor.empty() : tensor<2x96xf16>
  %s = linalg.add ins(%a, %b : tensor<2x96xf16>, tensor<2x96xf16>) outs(%e : tensor<2x96xf16>) -> tensor<2x96xf16>
  %e2 = tensor.empty() : tensor<2x96xf16>
  %c = linalg.mul ins(%s, %a : tensor<2x96xf16>, tensor<2x96xf16>) outs(%e2 : tensor<2x96xf16>) -> tensor<2x96xf16>
  ktdp.store %c, %Ct : tensor<2x96xf16>, !ktdp.access_tile<2x96xindex>
  return
}
