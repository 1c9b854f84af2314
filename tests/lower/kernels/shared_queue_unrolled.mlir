// Found by `spyre-sched fuzz --seed 9502` (kernel 68) on a device whose FIFO queues hold 4:
// the solver gives three FIFOs lx_load -> sfu 4 entries each, sharing the queue of 4 in
// send order, and the lowering sends them twice per block in the unrolled half-vector
// loop, which its order proof must accept (it once wanted each FIFO once per block).
// DEVICE: tests/lower/devices/spyre_queue4.mlir
func.func @fuzz(%A0: index, %B1: index, %T14: index, %A1: index, %B4: index, %A2: index, %Y: index) attributes {grid = [3, 8]} {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %c200 = arith.constant 200 : index
  %x, %y = ktdp.get_compute_tile_id : index, index
  %i1 = arith.muli %x, %c7 : index
  %i2 = arith.muli %y, %c200 : index
  %V3 = ktdp.construct_memory_view %A0, sizes: [21, 1600], strides: [1600, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 20 >= 0, d1 >= 0, -d1 + 1599 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<21x1600xf16>
  %V6 = ktdp.construct_memory_view %B1, sizes: [1600], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 1599 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1600xf16>
  %V15 = ktdp.construct_memory_view %T14, sizes: [21, 1600], strides: [1, 21] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 20 >= 0, d1 >= 0, -d1 + 1599 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<21x1600xf16>
  %V19 = ktdp.construct_memory_view %A1, sizes: [21, 1600], strides: [1600, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 20 >= 0, d1 >= 0, -d1 + 1599 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<21x1600xf16>
  %V22 = ktdp.construct_memory_view %B4, sizes: [21], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 20 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<21xf16>
  %S34 = ktdp.construct_memory_view %c0, sizes: [7, 200], strides: [200, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<7x200xf16>
  %p38 = arith.addi %A2, %c7 : index
  %V39 = ktdp.construct_memory_view %p38, sizes: [21, 1600], strides: [1, 21] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 20 >= 0, d1 >= 0, -d1 + 1599 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<21x1600xf16>
  %V48 = ktdp.construct_memory_view %Y, sizes: [21, 1600], strides: [1600, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 20 >= 0, d1 >= 0, -d1 + 1599 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<21x1600xf16>
  // program 0
  %T4 = ktdp.construct_access_tile %V3[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<21x1600xf16> -> !ktdp.access_tile<7x200xindex>
  %v5 = ktdp.load %T4 : !ktdp.access_tile<7x200xindex> -> tensor<7x200xf16>
  %T7 = ktdp.construct_access_tile %V6[%i2] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 199 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<1600xf16> -> !ktdp.access_tile<200xindex>
  %v8 = ktdp.load %T7 : !ktdp.access_tile<200xindex> -> tensor<200xf16>
  %e11 = tensor.empty() : tensor<7x200xf16>
  %g13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v5, %v8 : tensor<7x200xf16>, tensor<200xf16>) outs(%e11 : tensor<7x200xf16>) {
  ^bb0(%a9: f16, %a10: f16, %o14: f16):
    %s12 = spyreop.softplus %a10 beta 1.0 threshold 20.0 : f16
    linalg.yield %s12 : f16
  } -> tensor<7x200xf16>
  %T16 = ktdp.construct_access_tile %V15[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<21x1600xf16> -> !ktdp.access_tile<7x200xindex>
  ktdp.store %g13, %T16 : tensor<7x200xf16>, !ktdp.access_tile<7x200xindex>
  // program 1
  %T17 = ktdp.construct_access_tile %V15[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<21x1600xf16> -> !ktdp.access_tile<7x200xindex>
  %v18 = ktdp.load %T17 : !ktdp.access_tile<7x200xindex> -> tensor<7x200xf16>
  %T20 = ktdp.construct_access_tile %V19[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<21x1600xf16> -> !ktdp.access_tile<7x200xindex>
  %v21 = ktdp.load %T20 : !ktdp.access_tile<7x200xindex> -> tensor<7x200xf16>
  %T23 = ktdp.construct_access_tile %V22[%i1] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 6 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<21xf16> -> !ktdp.access_tile<7xindex>
  %v24 = ktdp.load %T23 : !ktdp.access_tile<7xindex> -> tensor<7xf16>
  %e28 = tensor.empty() : tensor<7x200xf16>
  %g32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v21, %v18, %v24 : tensor<7x200xf16>, tensor<7x200xf16>, tensor<7xf16>) outs(%e28 : tensor<7x200xf16>) {
  ^bb0(%a25: f16, %a26: f16, %a27: f16, %o33: f16):
    %s29 = math.tanh %a27 : f16
    %s30 = arith.addf %a27, %a26 : f16
    %s31 = spyreop.sigmoid %a26 : f16
    linalg.yield %s31 : f16
  } -> tensor<7x200xf16>
  %T35 = ktdp.construct_access_tile %S34[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<7x200xf16> -> !ktdp.access_tile<7x200xindex>
  ktdp.store %g32, %T35 : tensor<7x200xf16>, !ktdp.access_tile<7x200xindex>
  // program 2
  %T36 = ktdp.construct_access_tile %S34[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<7x200xf16> -> !ktdp.access_tile<7x200xindex>
  %v37 = ktdp.load %T36 : !ktdp.access_tile<7x200xindex> -> tensor<7x200xf16>
  %T40 = ktdp.construct_access_tile %V39[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<21x1600xf16> -> !ktdp.access_tile<7x200xindex>
  %v41 = ktdp.load %T40 : !ktdp.access_tile<7x200xindex> -> tensor<7x200xf16>
  %e43 = tensor.empty() : tensor<7x200xf16>
  %r42 = linalg.add ins(%v41, %v37 : tensor<7x200xf16>, tensor<7x200xf16>) outs(%e43 : tensor<7x200xf16>) -> tensor<7x200xf16>
  %e45 = tensor.empty() : tensor<7x200xf16>
  %r44 = linalg.add ins(%r42, %r42 : tensor<7x200xf16>, tensor<7x200xf16>) outs(%e45 : tensor<7x200xf16>) -> tensor<7x200xf16>
  %e47 = tensor.empty() : tensor<7x200xf16>
  %r46 = linalg.sub ins(%v37, %v37 : tensor<7x200xf16>, tensor<7x200xf16>) outs(%e47 : tensor<7x200xf16>) -> tensor<7x200xf16>
  %T49 = ktdp.construct_access_tile %V48[%i1, %i2] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 199 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<21x1600xf16> -> !ktdp.access_tile<7x200xindex>
  ktdp.store %r46, %T49 : tensor<7x200xf16>, !ktdp.access_tile<7x200xindex>
  return
}
