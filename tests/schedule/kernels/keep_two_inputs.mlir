// Two inputs (X, Z) each read by both programs at the same tile: program 0 stores the
// row maxima of X + Z in the tile's scratchpad (ct_local M), program 1 computes
// Y = X * Z - M. Two regions can be kept across the programs, stacked above the pinned M.
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @two_inputs(%X: index, %Z: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %M_off = arith.constant 0 : index
  %ninf = arith.constant -65504.0 : f16
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Zv = ktdp.construct_memory_view %Z, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %Mv = ktdp.construct_memory_view %M_off, sizes: [2], strides: [1] {
      coordinate_set = #two, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Zt = ktdp.construct_access_tile %Zv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Mt = ktdp.construct_access_tile %Mv[%c0] {access_tile_set = #two, access_tile_order = #id1}
      : memref<2xf16> -> !ktdp.access_tile<2xindex>

  // Program 0: M = max over the row of X + Z.
  %x1 = ktdp.load %Xt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %z1 = ktdp.load %Zt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %m0 = tensor.empty() : tensor<2xf16>
  %m1 = linalg.fill ins(%ninf : f16) outs(%m0 : tensor<2xf16>) -> tensor<2xf16>
  %m = linalg.generic {indexing_maps = [#id2, #id2, #rowmap], iterator_types = ["parallel", "reduction"]}
      ins(%x1, %z1 : tensor<2x256xf16>, tensor<2x256xf16>) outs(%m1 : tensor<2xf16>) {
  ^bb0(%xe: f16, %ze: f16, %acc: f16):
    %s = arith.addf %xe, %ze : f16
    %mx = arith.maximumf %s, %acc : f16
    linalg.yield %mx : f16
  } -> tensor<2xf16>
  ktdp.store %m, %Mt : tensor<2xf16>, !ktdp.access_tile<2xindex>

  // Program 1: Y = X * Z - M.
  %x2 = ktdp.load %Xt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %z2 = ktdp.load %Zt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %m2 = ktdp.load %Mt : !ktdp.access_tile<2xindex> -> tensor<2xf16>
  %y0 = tensor.empty() : tensor<2x256xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x2, %z2, %m2 : tensor<2x256xf16>, tensor<2x256xf16>, tensor<2xf16>) outs(%y0 : tensor<2x256xf16>) {
  ^bb0(%xe: f16, %ze: f16, %me: f16, %o: f16):
    %p = arith.mulf %xe, %ze : f16
    %d = arith.subf %p, %me : f16
    linalg.yield %d : f16
  } -> tensor<2x256xf16>
  ktdp.store %y, %Yt : tensor<2x256xf16>, !ktdp.access_tile<2x256xindex>
  return
}
