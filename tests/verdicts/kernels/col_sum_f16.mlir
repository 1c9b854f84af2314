// A column sum of a 5x64 f16 block accumulated in f16 (found by spyre-sched fuzz): the
// schedule sums row by row in a loop-carried f16 vector, so the comparison's bound is
// for an f16 accumulator, not f32.
func.func @col_sum_f16(%A0: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %x = ktdp.get_compute_tile_id : index
  %i1 = arith.muli %x, %c5 : index
  %i13 = arith.muli %x, %c64 : index
  %V2 = ktdp.construct_memory_view %A0, sizes: [5, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<5x64xf16>
  %V12 = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  // program 0
  %T3 = ktdp.construct_access_tile %V2[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<5x64xf16> -> !ktdp.access_tile<5x64xindex>
  %v4 = ktdp.load %T3 : !ktdp.access_tile<5x64xindex> -> tensor<5x64xf16>
  %k7 = arith.constant 0.0 : f16
  %e5 = tensor.empty() : tensor<64xf16>
  %f6 = linalg.fill ins(%k7 : f16) outs(%e5 : tensor<64xf16>) -> tensor<64xf16>
  %red8 = linalg.reduce ins(%v4 : tensor<5x64xf16>) outs(%f6 : tensor<64xf16>) dimensions = [0]
    (%x9: f16, %y10: f16) {
      %s11 = arith.addf %x9, %y10 : f16
      linalg.yield %s11 : f16
    }
  %T14 = ktdp.construct_access_tile %V12[%i13] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<64xindex>
  ktdp.store %red8, %T14 : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
