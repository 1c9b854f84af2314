// Y = silu(A) on a 256x128 f16 tensor: 32 compute tiles, 8 rows each. Both shipped
// devices define silu as x * sigmoid(x) (two roundings; the op alone rounds once).
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @silu(%A: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c8 : index
  %Av = ktdp.construct_memory_view %A, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #rows8, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<8x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows8, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<8x128xindex>
  %a = ktdp.load %At : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf16>
  %init = tensor.empty() : tensor<8x128xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x128xf16>) outs(%init : tensor<8x128xf16>) {
  ^bb0(%x: f16, %out: f16):
    %s = spyreop.silu %x : f16
    linalg.yield %s : f16
  } -> tensor<8x128xf16>
  ktdp.store %y, %Yt : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}
