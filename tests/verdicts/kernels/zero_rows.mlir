// Tile t writes A - A (+0 for finite A) to rows 2t..2t+1 of a 66-row C: rows 64 and 65
// are never written (both executors leave them poisoned: NaN).
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @zero_rows(%A: index, %C: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %in_row = arith.muli %id, %c2 : index
  %out_row = arith.muli %id, %c2 : index
  %Av = ktdp.construct_memory_view %A, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<64x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [66, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 65 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<66x64xf16>
  %At = ktdp.construct_access_tile %Av[%in_row, %c0] {
      access_tile_set = #rows2, access_tile_order = #id2 } : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%out_row, %c0] {
      access_tile_set = #rows2, access_tile_order = #id2 } : memref<66x64xf16> -> !ktdp.access_tile<2x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %init = tensor.empty() : tensor<2x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x64xf16>) outs(%init : tensor<2x64xf16>) {
  ^bb0(%x: f16, %out: f16):
    %s = arith.subf %x, %x : f16
    linalg.yield %s : f16
  } -> tensor<2x64xf16>
  ktdp.store %y, %Ct : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
