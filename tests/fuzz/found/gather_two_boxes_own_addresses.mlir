// Five rows of a 5x65 f32 table gathered through an i32 index vector, doubled. Found by
// spyre-sched fuzz (seed 2001, kernel 89; spyre, solver, latency): the stage moves the
// gathered tile as two boxes, each with its own index fetch into its own address buffer,
// and both indirect transfers read the second box's buffer, so the first read it before
// it was filled (the emulator reported index -1 outside the view).
func.func @fuzz(%E0: index, %I1: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %V6 = ktdp.construct_memory_view %E0, sizes: [5, 65], strides: [65, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 64 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<5x65xf32>
  %V7 = ktdp.construct_memory_view %I1, sizes: [5], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 4 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<5xi32>
  %V10 = ktdp.construct_memory_view %Y, sizes: [5, 65], strides: [65, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 64 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<5x65xf32>
  %T5 = ktdp.construct_indirect_access_tile intermediate_variables(%t3, %d4) %V6[ind(%V7[%t3]), (%d4)] {variables_space_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 64 >= 0)>, variables_space_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<5x65xf32>, memref<5xi32> -> !ktdp.access_tile<5x65xindex>
  %v8 = ktdp.load %T5 : !ktdp.access_tile<5x65xindex> -> tensor<5x65xf32>
  %r9 = arith.addf %v8, %v8 : tensor<5x65xf32>
  %T11 = ktdp.construct_access_tile %V10[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 64 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<5x65xf32> -> !ktdp.access_tile<5x65xindex>
  ktdp.store %r9, %T11 : tensor<5x65xf32>, !ktdp.access_tile<5x65xindex>
  return
}
