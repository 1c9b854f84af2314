// Y = A * B + C * D + E on one 2x256 f16 tile: one elementwise compute fed by five FIFOs
// lx_load -> sfu (the shape of LayerNorm's normalisation, small), for the FIFO depth and
// vectors-per-instruction decisions.
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @five_operand_fma(%A: index, %B: index, %C: index, %D: index, %E: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [2, 256], strides: [256, 1] {
      coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<2x256xf16>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<2x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Bv = ktdp.construct_memory_view %B, sizes: [2, 256], strides: [256, 1] {
      coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<2x256xf16>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<2x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Cv = ktdp.construct_memory_view %C, sizes: [2, 256], strides: [256, 1] {
      coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<2x256xf16>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<2x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Dv = ktdp.construct_memory_view %D, sizes: [2, 256], strides: [256, 1] {
      coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<2x256xf16>
  %Dt = ktdp.construct_access_tile %Dv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<2x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Ev = ktdp.construct_memory_view %E, sizes: [2, 256], strides: [256, 1] {
      coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<2x256xf16>
  %Et = ktdp.construct_access_tile %Ev[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<2x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Yv = ktdp.construct_memory_view %Y, sizes: [2, 256], strides: [256, 1] {
      coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<2x256xf16>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<2x256xf16> -> !ktdp.access_tile<2x256xindex>
  %a = ktdp.load %At : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %c = ktdp.load %Ct : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %d = ktdp.load %Dt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %e = ktdp.load %Et : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %out = tensor.empty() : tensor<2x256xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2, #id2, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c, %d, %e : tensor<2x256xf16>, tensor<2x256xf16>, tensor<2x256xf16>, tensor<2x256xf16>, tensor<2x256xf16>)
      outs(%out : tensor<2x256xf16>) {
  ^bb0(%xa: f16, %xb: f16, %xc: f16, %xd: f16, %xe: f16, %o: f16):
    %ab = arith.mulf %xa, %xb : f16
    %cd = arith.mulf %xc, %xd : f16
    %s = arith.addf %ab, %cd : f16
    %r = arith.addf %s, %xe : f16
    linalg.yield %r : f16
  } -> tensor<2x256xf16>
  ktdp.store %y, %Yt : tensor<2x256xf16>, !ktdp.access_tile<2x256xindex>
  return
}
