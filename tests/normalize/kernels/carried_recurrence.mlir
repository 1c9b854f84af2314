// A recurrence over the blocks of each tile's slab: acc = acc * 0.5 + x_k, for the four
// 2x128 blocks x_k of a 2x512 slab, then stored. The carried value is not a reduction's
// accumulator, so the loop is not folded: the orchestrator runs it iteration by
// iteration, carrying `acc` in a slot of the tile's own scratchpad.
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @carried_recurrence(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f16
  %half = arith.constant dense<0.5> : tensor<2x128xf16>
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %e = tensor.empty() : tensor<2x128xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<2x128xf16>) -> tensor<2x128xf16>
  %last = scf.for %col = %c0 to %c512 step %c128 iter_args(%acc = %init) -> (tensor<2x128xf16>) {
    %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #block, access_tile_order = #id2}
        : memref<8x512xf16> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
    %scaled = arith.mulf %acc, %half : tensor<2x128xf16>
    %next = arith.addf %scaled, %x : tensor<2x128xf16>
    scf.yield %next : tensor<2x128xf16>
  }
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #block, access_tile_order = #id2}
      : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
  ktdp.store %last, %Yt : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  return
}
