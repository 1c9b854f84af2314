// Column sums of 4-row blocks over a 2x8x2 grid, each tile's 100 sums stored into a flat
// output at (x + 2z) * 800 + y * 100. Found by spyre-sched fuzz (seed 4001, kernel 74, in
// bf16): `check` took over a minute proving every output element is written, because isl
// projected the tile ids out of one formula in which the linear tile id is split into
// grid coordinates by floor divisions; the union is now made tile by tile.
func.func @fuzz(%A0: index, %Y: index) attributes {grid = [2, 8, 2]} {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  %c800 = arith.constant 800 : index
  %x, %y, %z = ktdp.get_compute_tile_id : index, index, index
  %i1 = arith.muli %z, %c2 : index
  %i2 = arith.addi %x, %i1 : index
  %i3 = arith.muli %i2, %c4 : index
  %i4 = arith.muli %y, %c100 : index
  %i16 = arith.muli %i2, %c800 : index
  %i17 = arith.muli %y, %c100 : index
  %i18 = arith.addi %i16, %i17 : index
  %V5 = ktdp.construct_memory_view %A0, sizes: [16, 800], strides: [800, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 799 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16x800xf16>
  %V15 = ktdp.construct_memory_view %Y, sizes: [3200], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3199 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<3200xf16>
  // program 0
  %T6 = ktdp.construct_access_tile %V5[%i3, %i4] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 99 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<16x800xf16> -> !ktdp.access_tile<4x100xindex>
  %v7 = ktdp.load %T6 : !ktdp.access_tile<4x100xindex> -> tensor<4x100xf16>
  %k10 = arith.constant 0.0 : f16
  %e8 = tensor.empty() : tensor<100xf16>
  %f9 = linalg.fill ins(%k10 : f16) outs(%e8 : tensor<100xf16>) -> tensor<100xf16>
  %red11 = linalg.reduce ins(%v7 : tensor<4x100xf16>) outs(%f9 : tensor<100xf16>) dimensions = [0]
    (%x12: f16, %y13: f16) {
      %s14 = arith.addf %x12, %y13 : f16
      linalg.yield %s14 : f16
    }
  %T19 = ktdp.construct_access_tile %V15[%i18] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 99 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<3200xf16> -> !ktdp.access_tile<100xindex>
  ktdp.store %red11, %T19 : tensor<100xf16>, !ktdp.access_tile<100xindex>
  return
}
