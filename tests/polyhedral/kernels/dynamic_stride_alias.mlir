// Two views of one tensor: %Td with a run-time row stride, %Ts with a constant one. The
// store through %Td and the load through %Ts cannot be compared element by element.
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @alias(%T: index, %n: !ktdp.runtime_arg<index, granularity = 64, upperbound = 512>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 64, upperbound = 512> -> index
  %Td = ktdp.construct_memory_view %T, sizes: [16, %N], strides: [%N, 1] {
      coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, s0 - d1 - 1 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<16x?xf16>
  %Ts = ktdp.construct_memory_view %T, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<16x64xf16>
  %St = ktdp.construct_access_tile %Ts[%c0, %c0] {
      access_tile_set = #blk, access_tile_order = #rm } : memref<16x64xf16> -> !ktdp.access_tile<2x64xindex>
  %Dt = ktdp.construct_access_tile %Td[%c0, %c0] {
      access_tile_set = #blk, access_tile_order = #rm } : memref<16x?xf16> -> !ktdp.access_tile<2x64xindex>
  %a = ktdp.load %St : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  ktdp.store %a, %Dt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  %b = ktdp.load %St : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  return
}
