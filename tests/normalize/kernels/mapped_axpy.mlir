// Y = |X * B + X| over a 32x128 f16 tensor, 4 compute tiles of 8 rows, written with
// `linalg.map`: the long form (a body over one element of each input) for the product
// and sum, the short form `{ math.absf }` for the absolute value.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @mapped_axpy(%X: index, %B: index, %Y: index) attributes {grid = [4]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %row = arith.muli %t, %c8 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<32x128xf16> -> !ktdp.access_tile<8x128xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<32x128xf16> -> !ktdp.access_tile<8x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<32x128xf16> -> !ktdp.access_tile<8x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %e = tensor.empty() : tensor<8x128xf16>
  %s = linalg.map ins(%x, %b : tensor<8x128xf16>, tensor<8x128xf16>) outs(%e : tensor<8x128xf16>)
    (%u: f16, %v: f16) {
      %p = arith.mulf %u, %v : f16
      %q = arith.addf %p, %u : f16
      linalg.yield %q : f16
    }
  %e2 = tensor.empty() : tensor<8x128xf16>
  %y = linalg.map { math.absf } ins(%s : tensor<8x128xf16>) outs(%e2 : tensor<8x128xf16>)
  ktdp.store %y, %Yt : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}
