// An f32 matmul of 8-row blocks by a 128x128 weight over a run-time row count (granularity
// 8, up to 16), launched with n = 8. Found by spyre-sched fuzz (seed 4001, kernel 134;
// spyre, solver, latency): "emulated cycles below the roofline bound" (5271 < 8192), a
// false verdict: the bound counted the rows' upper bound, 16, in its MAC term; the bound
// of a launch now takes the launch's run-time arguments (4096 for n = 8).
// ARGS: n=8
func.func @fuzz(%A0: index, %W1: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 8, upperbound = 16>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %x = ktdp.get_compute_tile_id : index
  %N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 8, upperbound = 16> -> index
  %V1 = ktdp.construct_memory_view %A0, sizes: [%N, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x128xf32>
  %V4 = ktdp.construct_memory_view %W1, sizes: [128, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x128xf32>
  %V13 = ktdp.construct_memory_view %Y, sizes: [%N, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x128xf32>
  scf.for %i = %c0 to %N step %c8 {
    // program 0
    %T2 = ktdp.construct_access_tile %V1[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x128xf32> -> !ktdp.access_tile<8x128xindex>
    %v3 = ktdp.load %T2 : !ktdp.access_tile<8x128xindex> -> tensor<8x128xf32>
    %T5 = ktdp.construct_access_tile %V4[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<128x128xf32> -> !ktdp.access_tile<128x128xindex>
    %v6 = ktdp.load %T5 : !ktdp.access_tile<128x128xindex> -> tensor<128x128xf32>
    %k9 = arith.constant 0.0 : f32
    %e7 = tensor.empty() : tensor<8x128xf32>
    %f8 = linalg.fill ins(%k9 : f32) outs(%e7 : tensor<8x128xf32>) -> tensor<8x128xf32>
    %mm10 = linalg.matmul ins(%v3, %v6 : tensor<8x128xf32>, tensor<128x128xf32>) outs(%f8 : tensor<8x128xf32>) -> tensor<8x128xf32>
    %r11 = arith.mulf %mm10, %mm10 : tensor<8x128xf32>
    %r12 = arith.subf %mm10, %r11 : tensor<8x128xf32>
    %T14 = ktdp.construct_access_tile %V13[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x128xf32> -> !ktdp.access_tile<8x128xindex>
    ktdp.store %r12, %T14 : tensor<8x128xf32>, !ktdp.access_tile<8x128xindex>
  }
  return
}
