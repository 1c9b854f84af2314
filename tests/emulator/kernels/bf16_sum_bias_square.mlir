// A bf16 column sum broadcast into a bias add, then squared (found by the fuzzer, seed 16,
// kernel 109): bf16 data, a bf16 constant (the fill's 0.1, bits from the shared numerics'
// rounding), a sum reordered by the schedule and an intermediate in the scratchpad. Run
// on a test device with bf16 lanes; the shipped devices have none, so `spyre` refuses it
// naming the unit (tests/emulator/test_bf16.py).
// DEVICE: tests/emulator/devices/bf16_lanes.mlir
func.func @fuzz(%A0: index, %A1: index, %B2: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c64 = arith.constant 64 : index
  %x = ktdp.get_compute_tile_id : index
  %i1 = arith.muli %x, %c5 : index
  %V2 = ktdp.construct_memory_view %A0, sizes: [5, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<5x64xbf16>
  %S12 = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<64xbf16>
  %V16 = ktdp.construct_memory_view %A1, sizes: [5, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<5x64xbf16>
  %V19 = ktdp.construct_memory_view %B2, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xbf16>
  %S29 = ktdp.construct_memory_view %c64, sizes: [5, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<5x64xbf16>
  %V35 = ktdp.construct_memory_view %Y, sizes: [5, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<5x64xbf16>
  // program 0
  %T3 = ktdp.construct_access_tile %V2[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<5x64xbf16> -> !ktdp.access_tile<5x64xindex>
  %v4 = ktdp.load %T3 : !ktdp.access_tile<5x64xindex> -> tensor<5x64xbf16>
  %k7 = arith.constant 0.1 : bf16
  %e5 = tensor.empty() : tensor<64xbf16>
  %f6 = linalg.fill ins(%k7 : bf16) outs(%e5 : tensor<64xbf16>) -> tensor<64xbf16>
  %red8 = linalg.reduce ins(%v4 : tensor<5x64xbf16>) outs(%f6 : tensor<64xbf16>) dimensions = [0]
    (%x9: bf16, %y10: bf16) {
      %s11 = arith.addf %x9, %y10 : bf16
      linalg.yield %s11 : bf16
    }
  %T13 = ktdp.construct_access_tile %S12[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xbf16> -> !ktdp.access_tile<64xindex>
  ktdp.store %red8, %T13 : tensor<64xbf16>, !ktdp.access_tile<64xindex>
  // program 1
  %T14 = ktdp.construct_access_tile %S12[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xbf16> -> !ktdp.access_tile<64xindex>
  %v15 = ktdp.load %T14 : !ktdp.access_tile<64xindex> -> tensor<64xbf16>
  %T17 = ktdp.construct_access_tile %V16[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<5x64xbf16> -> !ktdp.access_tile<5x64xindex>
  %v18 = ktdp.load %T17 : !ktdp.access_tile<5x64xindex> -> tensor<5x64xbf16>
  %T20 = ktdp.construct_access_tile %V19[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xbf16> -> !ktdp.access_tile<64xindex>
  %v21 = ktdp.load %T20 : !ktdp.access_tile<64xindex> -> tensor<64xbf16>
  %e25 = tensor.empty() : tensor<5x64xbf16>
  %g27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%v18, %v15, %v21 : tensor<5x64xbf16>, tensor<64xbf16>, tensor<64xbf16>) outs(%e25 : tensor<5x64xbf16>) {
  ^bb0(%a22: bf16, %a23: bf16, %a24: bf16, %o28: bf16):
    %s26 = arith.addf %a24, %a23 : bf16
    linalg.yield %s26 : bf16
  } -> tensor<5x64xbf16>
  %T30 = ktdp.construct_access_tile %S29[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<5x64xbf16> -> !ktdp.access_tile<5x64xindex>
  ktdp.store %g27, %T30 : tensor<5x64xbf16>, !ktdp.access_tile<5x64xindex>
  // program 2
  %T31 = ktdp.construct_access_tile %S29[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<5x64xbf16> -> !ktdp.access_tile<5x64xindex>
  %v32 = ktdp.load %T31 : !ktdp.access_tile<5x64xindex> -> tensor<5x64xbf16>
  %e34 = tensor.empty() : tensor<5x64xbf16>
  %r33 = linalg.mul ins(%v32, %v32 : tensor<5x64xbf16>, tensor<5x64xbf16>) outs(%e34 : tensor<5x64xbf16>) -> tensor<5x64xbf16>
  %T36 = ktdp.construct_access_tile %V35[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<5x64xbf16> -> !ktdp.access_tile<5x64xindex>
  ktdp.store %r33, %T36 : tensor<5x64xbf16>, !ktdp.access_tile<5x64xindex>
  return
}
