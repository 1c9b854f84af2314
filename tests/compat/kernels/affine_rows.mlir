// Two tiles each write 5 rows from 3 * tile inside an affine.for: rows 3 and 4 race.
func.func @aff(%Out: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %id = ktdp.get_compute_tile_id : index
  %ov = ktdp.construct_memory_view %Out, sizes: [8, 4], strides: [4, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<8x4xf16>
  %v = arith.constant dense<1.0> : tensor<1x4xf16>
  affine.for %r = 0 to 5 {
    %row = affine.apply affine_map<(d0)[s0] -> (d0 + s0 * 3)>(%r)[%id]
    %ot = ktdp.construct_access_tile %ov[%row, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 3 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<8x4xf16> -> !ktdp.access_tile<1x4xindex>
    ktdp.store %v, %ot : tensor<1x4xf16>, <1x4xindex>
  }
  return
}
