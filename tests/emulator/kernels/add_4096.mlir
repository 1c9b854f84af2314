// C = A + B on a 4096x4096 f16 tensor, split over 32 compute tiles: tile t owns rows 128t..128t+127 (speed benchmark).
#rows3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 128 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c3 : index
  %Av = ktdp.construct_memory_view %A, sizes: [4096, 4096], strides: [4096, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<4096x4096xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4096, 4096], strides: [4096, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<4096x4096xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [4096, 4096], strides: [4096, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<4096x4096xf16>
  %At = ktdp.construct_access_tile %Av[%row0, %c0] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<4096x4096xf16> -> !ktdp.access_tile<128x4096xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row0, %c0] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<4096x4096xf16> -> !ktdp.access_tile<128x4096xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row0, %c0] {
      access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<4096x4096xf16> -> !ktdp.access_tile<128x4096xindex>
  %a = ktdp.load %At : !ktdp.access_tile<128x4096xindex> -> tensor<128x4096xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<128x4096xindex> -> tensor<128x4096xf16>
  %e = tensor.empty() : tensor<128x4096xf16>
  %c = linalg.add ins(%a, %b : tensor<128x4096xf16>, tensor<128x4096xf16>) outs(%e : tensor<128x4096xf16>) -> tensor<128x4096xf16>
  ktdp.store %c, %Ct : tensor<128x4096xf16>, !ktdp.access_tile<128x4096xindex>
  return
}
