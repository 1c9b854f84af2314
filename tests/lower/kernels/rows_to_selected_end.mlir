// One tile walks rows start .. end of a 5-row tensor, end = min(start + 8, 5) written as
// arith.cmpi + arith.select (the spelling of a kernel generated for any number of tiles,
// here one): with one tile its id is 0, so the bounds are constants.
func.func @rows_to_selected_end(%X: index, %Y: index) attributes {grid = [1, 1]} {
  %id = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %start = arith.muli %id, %c8 : index
  %end_raw = arith.addi %start, %c8 : index
  %less = arith.cmpi slt, %end_raw, %c5 : index
  %end = arith.select %less, %end_raw, %c5 : index
  %xv = ktdp.construct_memory_view %X, sizes: [5, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<5x64xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [5, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<5x64xf16>
  scf.for %r = %start to %end step %c1 {
    %xt = ktdp.construct_access_tile %xv[%r, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<5x64xf16> -> !ktdp.access_tile<1x64xindex>
    %yt = ktdp.construct_access_tile %yv[%r, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<5x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %xt : <1x64xindex> -> tensor<1x64xf16>
    %e = math.exp %x : tensor<1x64xf16>
    ktdp.store %e, %yt : tensor<1x64xf16>, <1x64xindex>
  }
  return
}
