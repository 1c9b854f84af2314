// Found by `spyre-sched fuzz --seed 9502` (kernel 60) on a device whose FIFO queues hold 4:
// two computes fused in one tile loop send 2 and 3 FIFOs l1_load -> sfu in one phase, 5 on a
// queue of 4, so they share it in send order; their sends sit in two blocks, which the
// lowering's order proof must accept (it once wanted every FIFO in every block).
// DEVICE: tests/lower/devices/sample_queue4.mlir
// ARGS: n=21
func.func @fuzz(%A0: index, %T10: index, %A1: index, %W3: index, %B4: index, %T36: index, %W6: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 7, upperbound = 21>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %x = ktdp.get_compute_tile_id : index
  %N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 7, upperbound = 21> -> index
  %V1 = ktdp.construct_memory_view %A0, sizes: [%N, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf32>
  %V11 = ktdp.construct_memory_view %T10, sizes: [%N], strides: [1] {coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %V15 = ktdp.construct_memory_view %A1, sizes: [%N, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf32>
  %V18 = ktdp.construct_memory_view %W3, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
  %V25 = ktdp.construct_memory_view %B4, sizes: [%N], strides: [1] {coordinate_set = affine_set<(d0)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?xf32>
  %V37 = ktdp.construct_memory_view %T36, sizes: [%N, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf32>
  %V43 = ktdp.construct_memory_view %W6, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf32>
  %V61 = ktdp.construct_memory_view %Y, sizes: [%N, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf32>
  scf.for %i = %c0 to %N step %c7 {
    // program 0
    %T2 = ktdp.construct_access_tile %V1[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf32> -> !ktdp.access_tile<7x64xindex>
    %v3 = ktdp.load %T2 : !ktdp.access_tile<7x64xindex> -> tensor<7x64xf32>
    %k6 = arith.constant -3.0e38 : f32
    %e4 = tensor.empty() : tensor<7xf32>
    %f5 = linalg.fill ins(%k6 : f32) outs(%e4 : tensor<7xf32>) -> tensor<7xf32>
    %red7 = linalg.reduce ins(%v3 : tensor<7x64xf32>) outs(%f5 : tensor<7xf32>) dimensions = [1]
      (%x8: f32, %y9: f32) {
        %s10 = arith.maximumf %x8, %y9 : f32
        linalg.yield %s10 : f32
      }
    %T12 = ktdp.construct_access_tile %V11[%i] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 6 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<?xf32> -> !ktdp.access_tile<7xindex>
    ktdp.store %red7, %T12 : tensor<7xf32>, !ktdp.access_tile<7xindex>
    // program 1
    %T13 = ktdp.construct_access_tile %V11[%i] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 6 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<?xf32> -> !ktdp.access_tile<7xindex>
    %v14 = ktdp.load %T13 : !ktdp.access_tile<7xindex> -> tensor<7xf32>
    %T16 = ktdp.construct_access_tile %V15[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf32> -> !ktdp.access_tile<7x64xindex>
    %v17 = ktdp.load %T16 : !ktdp.access_tile<7x64xindex> -> tensor<7x64xf32>
    %T19 = ktdp.construct_access_tile %V18[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf32> -> !ktdp.access_tile<64x64xindex>
    %v20 = ktdp.load %T19 : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf32>
    %k23 = arith.constant 0.0 : f32
    %e21 = tensor.empty() : tensor<7x64xf32>
    %f22 = linalg.fill ins(%k23 : f32) outs(%e21 : tensor<7x64xf32>) -> tensor<7x64xf32>
    %mm24 = linalg.matmul ins(%v17, %v20 : tensor<7x64xf32>, tensor<64x64xf32>) outs(%f22 : tensor<7x64xf32>) -> tensor<7x64xf32>
    %T26 = ktdp.construct_access_tile %V25[%i] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 6 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<?xf32> -> !ktdp.access_tile<7xindex>
    %v27 = ktdp.load %T26 : !ktdp.access_tile<7xindex> -> tensor<7xf32>
    %e31 = tensor.empty() : tensor<7x64xf32>
    %g35 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm24, %v14, %v27 : tensor<7x64xf32>, tensor<7xf32>, tensor<7xf32>) outs(%e31 : tensor<7x64xf32>) {
    ^bb0(%a28: f32, %a29: f32, %a30: f32, %o36: f32):
      %s32 = math.exp %a29 : f32
      %s33 = arith.subf %a30, %a29 : f32
      %s34 = spyreop.gelu %a29 : f32
      linalg.yield %s34 : f32
    } -> tensor<7x64xf32>
    %T38 = ktdp.construct_access_tile %V37[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf32> -> !ktdp.access_tile<7x64xindex>
    ktdp.store %g35, %T38 : tensor<7x64xf32>, !ktdp.access_tile<7x64xindex>
    // program 2
    %T39 = ktdp.construct_access_tile %V37[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf32> -> !ktdp.access_tile<7x64xindex>
    %v40 = ktdp.load %T39 : !ktdp.access_tile<7x64xindex> -> tensor<7x64xf32>
    %T41 = ktdp.construct_access_tile %V15[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf32> -> !ktdp.access_tile<7x64xindex>
    %v42 = ktdp.load %T41 : !ktdp.access_tile<7x64xindex> -> tensor<7x64xf32>
    %T44 = ktdp.construct_access_tile %V43[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf32> -> !ktdp.access_tile<64x64xindex>
    %v45 = ktdp.load %T44 : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf32>
    %k48 = arith.constant 0.0 : f32
    %e46 = tensor.empty() : tensor<7x64xf32>
    %f47 = linalg.fill ins(%k48 : f32) outs(%e46 : tensor<7x64xf32>) -> tensor<7x64xf32>
    %mm49 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v42, %v45 : tensor<7x64xf32>, tensor<64x64xf32>) outs(%f47 : tensor<7x64xf32>) {
    ^bb0(%a50: f32, %a51: f32, %y52: f32):
      %s53 = arith.mulf %a50, %a51 : f32
      %s54 = arith.addf %y52, %s53 : f32
      linalg.yield %s54 : f32
    } -> tensor<7x64xf32>
    %e57 = tensor.empty() : tensor<7x64xf32>
    %g59 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%mm49, %v40 : tensor<7x64xf32>, tensor<7x64xf32>) outs(%e57 : tensor<7x64xf32>) {
    ^bb0(%a55: f32, %a56: f32, %o60: f32):
      %s58 = spyreop.exp %a55 : f32
      linalg.yield %s58 : f32
    } -> tensor<7x64xf32>
    %T62 = ktdp.construct_access_tile %V61[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf32> -> !ktdp.access_tile<7x64xindex>
    ktdp.store %g59, %T62 : tensor<7x64xf32>, !ktdp.access_tile<7x64xindex>
  }
  return
}
