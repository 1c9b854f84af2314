// C = A + B on a 96x64 f16 tensor, split over 32 compute tiles: off by one: tile t touches rows 3t..3t+3.
#rows3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c3 : index
  %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<96x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<96x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<96x64xf16>
  %At = ktdp.construct_access_tile %Av[%row0, %c0] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row0, %c0] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row0, %c0] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %c = linalg.add ins(%a, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) -> tensor<4x64xf16>
  ktdp.store %c, %Ct : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
