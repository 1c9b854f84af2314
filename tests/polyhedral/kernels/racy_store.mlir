// Tile t writes rows 2t..2t+3 of a 66x64 output: neighbouring tiles overlap by two rows.
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @racy(%A: index, %C: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c2 : index
  %Av = ktdp.construct_memory_view %A, sizes: [66, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 65 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<66x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [66, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 65 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<66x64xf16>
  %At = ktdp.construct_access_tile %Av[%row0, %c0] {
      access_tile_set = #rows4, access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<66x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row0, %c0] {
      access_tile_set = #rows4, access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<66x64xf16> -> !ktdp.access_tile<4x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  ktdp.store %a, %Ct : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
