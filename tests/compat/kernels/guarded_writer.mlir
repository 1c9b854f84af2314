// Every tile computes a row, but only tile 0 stores it (a guarded writer): no race.
func.func @guarded_writer(%Out: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %id = ktdp.get_compute_tile_id : index
  %ov = ktdp.construct_memory_view %Out, sizes: [1, 8], strides: [8, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<1x8xf16>
  %ot = ktdp.construct_access_tile %ov[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<1x8xf16> -> !ktdp.access_tile<1x8xindex>
  %v = arith.constant dense<2.0> : tensor<1x8xf16>
  %is_writer = arith.cmpi eq, %id, %c0 : index
  scf.if %is_writer {
    ktdp.store %v, %ot : tensor<1x8xf16>, <1x8xindex>
  }
  return
}
