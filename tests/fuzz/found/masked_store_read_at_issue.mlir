// Two masked rows (63 of 64 columns in the view) doubled, one row per tile iteration, the
// output buffer written once per iteration (modulo 1). Found by spyre-sched fuzz (seed 17,
// kernel 165; sample_device, solver, memory objective): a DMA whose transfer is masked on
// its target side read its source at landing rather than at issue, so the store of row 0
// carried row 1's result, which the next iteration had already written into the buffer.
func.func @fuzz(%A0: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %x = ktdp.get_compute_tile_id : index
  %i1 = arith.muli %x, %c2 : index
  %V2 = ktdp.construct_memory_view %A0, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 62 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %V10 = ktdp.construct_memory_view %Y, sizes: [2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 62 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
  %T3 = ktdp.construct_access_tile %V2[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  %v4 = ktdp.load %T3 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %e6 = tensor.empty() : tensor<2x64xf16>
  %g8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v4 : tensor<2x64xf16>) outs(%e6 : tensor<2x64xf16>) {
  ^bb0(%a5: f16, %o9: f16):
    %s7 = arith.addf %a5, %a5 : f16
    linalg.yield %s7 : f16
  } -> tensor<2x64xf16>
  %T11 = ktdp.construct_access_tile %V10[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  ktdp.store %g8, %T11 : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
