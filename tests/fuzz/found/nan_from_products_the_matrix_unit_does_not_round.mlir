// spyre-sched fuzz: mismatch (outputs differ), found by campaign seed 7301, kernel 951 (all 4 spyre configurations)
// VERDICT: UNCHECKED
// Y = mm26 - mm26 where mm26 = (mm12^3) W: the reference rounds each f16 product of the
// second matmul, and some overflow to +inf and -inf, so its sum is NaN; the matrix unit
// adds each product unrounded into its accumulator and stays finite (Y = 0). Infinite
// terms of both signs make the sum's bound NaN (may be anything), and an operand that
// may be anything makes the subtraction so: unchecked, never a MISMATCH.
func.func @fuzz(%A0: index, %W1: index, %T15: index, %W3: index, %Y: index) attributes {grid = [4, 4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c65 = arith.constant 65 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %i1 = arith.muli %x, %c2 : index
  %i2 = arith.muli %y, %c65 : index
  %V3 = ktdp.construct_memory_view %A0, sizes: [8, 260], strides: [260, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 259 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x260xf16>
  %V6 = ktdp.construct_memory_view %W1, sizes: [65, 65], strides: [65, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 64 >= 0, d1 >= 0, -d1 + 64 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<65x65xf16>
  %V16 = ktdp.construct_memory_view %T15, sizes: [8, 260], strides: [260, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 259 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x260xf16>
  %V20 = ktdp.construct_memory_view %W3, sizes: [65, 65], strides: [65, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 64 >= 0, d1 >= 0, -d1 + 64 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<65x65xf16>
  %V29 = ktdp.construct_memory_view %Y, sizes: [8, 260], strides: [260, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 259 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x260xf16>
  // program 0
  %T4 = ktdp.construct_access_tile %V3[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 64 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x260xf16> -> !ktdp.access_tile<2x65xindex>
  %v5 = ktdp.load %T4 : !ktdp.access_tile<2x65xindex> -> tensor<2x65xf16>
  %T7 = ktdp.construct_access_tile %V6[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 64 >= 0, d1 >= 0, -d1 + 64 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<65x65xf16> -> !ktdp.access_tile<65x65xindex>
  %v8 = ktdp.load %T7 : !ktdp.access_tile<65x65xindex> -> tensor<65x65xf16>
  %k11 = arith.constant 0.0 : f16
  %e9 = tensor.empty() : tensor<2x65xf16>
  %f10 = linalg.fill ins(%k11 : f16) outs(%e9 : tensor<2x65xf16>) -> tensor<2x65xf16>
  %mm12 = linalg.matmul ins(%v5, %v8 : tensor<2x65xf16>, tensor<65x65xf16>) outs(%f10 : tensor<2x65xf16>) -> tensor<2x65xf16>
  %r13 = arith.subf %mm12, %mm12 : tensor<2x65xf16>
  %r14 = arith.mulf %mm12, %mm12 : tensor<2x65xf16>
  %r15 = arith.mulf %mm12, %r14 : tensor<2x65xf16>
  %T17 = ktdp.construct_access_tile %V16[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 64 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x260xf16> -> !ktdp.access_tile<2x65xindex>
  ktdp.store %r15, %T17 : tensor<2x65xf16>, !ktdp.access_tile<2x65xindex>
  // program 1
  %T18 = ktdp.construct_access_tile %V16[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 64 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x260xf16> -> !ktdp.access_tile<2x65xindex>
  %v19 = ktdp.load %T18 : !ktdp.access_tile<2x65xindex> -> tensor<2x65xf16>
  %T21 = ktdp.construct_access_tile %V20[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 64 >= 0, d1 >= 0, -d1 + 64 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<65x65xf16> -> !ktdp.access_tile<65x65xindex>
  %v22 = ktdp.load %T21 : !ktdp.access_tile<65x65xindex> -> tensor<65x65xf16>
  %k25 = arith.constant 0.0 : f16
  %e23 = tensor.empty() : tensor<2x65xf16>
  %f24 = linalg.fill ins(%k25 : f16) outs(%e23 : tensor<2x65xf16>) -> tensor<2x65xf16>
  %mm26 = linalg.matmul ins(%v19, %v22 : tensor<2x65xf16>, tensor<65x65xf16>) outs(%f24 : tensor<2x65xf16>) -> tensor<2x65xf16>
  %r27 = arith.maximumf %mm26, %mm26 : tensor<2x65xf16>
  %r28 = arith.subf %mm26, %mm26 : tensor<2x65xf16>
  %T30 = ktdp.construct_access_tile %V29[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 64 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x260xf16> -> !ktdp.access_tile<2x65xindex>
  ktdp.store %r28, %T30 : tensor<2x65xf16>, !ktdp.access_tile<2x65xindex>
  return
}
