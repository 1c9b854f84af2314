// Tile t reads rows 4t..4t+3 of A and writes A + A to rows 2t..2t+3 of C: neighbouring
// tiles write two rows each other writes too, with different values (a write race).
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @racy_add(%A: index, %C: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %id = ktdp.get_compute_tile_id : index
  %in_row = arith.muli %id, %c4 : index
  %out_row = arith.muli %id, %c2 : index
  %Av = ktdp.construct_memory_view %A, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<128x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [66, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 65 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<66x64xf16>
  %At = ktdp.construct_access_tile %Av[%in_row, %c0] {
      access_tile_set = #rows4, access_tile_order = #id2 } : memref<128x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%out_row, %c0] {
      access_tile_set = #rows4, access_tile_order = #id2 } : memref<66x64xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %init = tensor.empty() : tensor<4x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x64xf16>) outs(%init : tensor<4x64xf16>) {
  ^bb0(%x: f16, %out: f16):
    %s = arith.addf %x, %x : f16
    linalg.yield %s : f16
  } -> tensor<4x64xf16>
  ktdp.store %y, %Ct : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
