// exp of an f16 matmul whose sums reach exp's overflow point. Found by spyre-sched fuzz
// (seed 5002, kernel 292; spyre, every configuration, input seed 292): at [6, 124] the
// reference's sum overflows exp to inf and the emulator's order (as legitimately) gives
// 65250. The element's bound is infinite, yet the comparison required an infinite
// reference to be matched bit for bit whatever its bound: a false MISMATCH. Such an
// element is not checked, so the verdict is UNCHECKED.
// VERDICT: UNCHECKED
func.func @fuzz(%A0: index, %T13: index, %A1: index, %W3: index, %Y: index) attributes {grid = [1, 2]} {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c100 = arith.constant 100 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %i1 = arith.muli %x, %c7 : index
  %i2 = arith.muli %y, %c100 : index
  %i15 = arith.muli %y, %c7 : index
  %i16 = arith.muli %x, %c7 : index
  %i17 = arith.addi %i15, %i16 : index
  %V3 = ktdp.construct_memory_view %A0, sizes: [7, 200], strides: [200, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<7x200xf16>
  %V14 = ktdp.construct_memory_view %T13, sizes: [14], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 13 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<14xf16>
  %V21 = ktdp.construct_memory_view %A1, sizes: [7, 200], strides: [200, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<7x200xf16>
  %V24 = ktdp.construct_memory_view %W3, sizes: [100, 100], strides: [103, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 99 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<100x100xf16>
  %V37 = ktdp.construct_memory_view %Y, sizes: [7, 200], strides: [200, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<7x200xf16>
  // program 0
  %T4 = ktdp.construct_access_tile %V3[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 99 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<7x200xf16> -> !ktdp.access_tile<7x100xindex>
  %v5 = ktdp.load %T4 : !ktdp.access_tile<7x100xindex> -> tensor<7x100xf16>
  %k8 = arith.constant 65504.0 : f16
  %e6 = tensor.empty() : tensor<7xf16>
  %f7 = linalg.fill ins(%k8 : f16) outs(%e6 : tensor<7xf16>) -> tensor<7xf16>
  %red9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v5 : tensor<7x100xf16>) outs(%f7 : tensor<7xf16>) {
  ^bb0(%a10: f16, %y11: f16):
    %s12 = arith.addf %a10, %a10 : f16
    %s13 = arith.minimumf %s12, %y11 : f16
    linalg.yield %s13 : f16
  } -> tensor<7xf16>
  %T18 = ktdp.construct_access_tile %V14[%i17] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 6 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<14xf16> -> !ktdp.access_tile<7xindex>
  ktdp.store %red9, %T18 : tensor<7xf16>, !ktdp.access_tile<7xindex>
  // program 1
  %T19 = ktdp.construct_access_tile %V14[%i17] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 6 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<14xf16> -> !ktdp.access_tile<7xindex>
  %v20 = ktdp.load %T19 : !ktdp.access_tile<7xindex> -> tensor<7xf16>
  %T22 = ktdp.construct_access_tile %V21[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 99 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<7x200xf16> -> !ktdp.access_tile<7x100xindex>
  %v23 = ktdp.load %T22 : !ktdp.access_tile<7x100xindex> -> tensor<7x100xf16>
  %T25 = ktdp.construct_access_tile %V24[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 99 >= 0, d1 >= 0, -d1 + 99 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<100x100xf16> -> !ktdp.access_tile<100x100xindex>
  %v26 = ktdp.load %T25 : !ktdp.access_tile<100x100xindex> -> tensor<100x100xf16>
  %k29 = arith.constant 0.0 : f16
  %e27 = tensor.empty() : tensor<7x100xf16>
  %f28 = linalg.fill ins(%k29 : f16) outs(%e27 : tensor<7x100xf16>) -> tensor<7x100xf16>
  %mm30 = linalg.matmul ins(%v23, %v26 : tensor<7x100xf16>, tensor<100x100xf16>) outs(%f28 : tensor<7x100xf16>) -> tensor<7x100xf16>
  %e33 = tensor.empty() : tensor<7x100xf16>
  %g35 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm30, %v20 : tensor<7x100xf16>, tensor<7xf16>) outs(%e33 : tensor<7x100xf16>) {
  ^bb0(%a31: f16, %a32: f16, %o36: f16):
    %s34 = math.exp %a31 : f16
    linalg.yield %s34 : f16
  } -> tensor<7x100xf16>
  %T38 = ktdp.construct_access_tile %V37[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 99 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<7x200xf16> -> !ktdp.access_tile<7x100xindex>
  ktdp.store %g35, %T38 : tensor<7x100xf16>, !ktdp.access_tile<7x100xindex>
  return
}
