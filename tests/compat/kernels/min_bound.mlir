// Three tiles share 5 rows, two each: tile t writes rows 2t .. min(2t + 2, 5) - 1, so
// the last tile writes one row. Exact with min modelled: no race, nothing masked.
func.func @min_bound(%Out: index) attributes {grid = [3]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %id = ktdp.get_compute_tile_id : index
  %start = arith.muli %id, %c2 : index
  %next = arith.addi %start, %c2 : index
  %end = arith.minsi %next, %c5 : index
  %ov = ktdp.construct_memory_view %Out, sizes: [5, 4], strides: [4, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<5x4xf16>
  %v = arith.constant dense<1.0> : tensor<1x4xf16>
  scf.for %r = %start to %end step %c1 {
    %ot = ktdp.construct_access_tile %ov[%r, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 3 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<5x4xf16> -> !ktdp.access_tile<1x4xindex>
    ktdp.store %v, %ot : tensor<1x4xf16>, <1x4xindex>
  }
  return
}
