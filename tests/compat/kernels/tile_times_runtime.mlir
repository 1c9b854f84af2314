// Eight tiles split M rows (a run-time size): tile t writes rows t * (M / 8) .. +M/8-1.
// `t * (M / 8)` is affine once the tile is fixed: no race, no masked row.
func.func @tile_times_runtime(%Out: index, %m: !ktdp.runtime_arg<index, granularity = 8, upperbound = 64>) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %M = ktdp.runtime_arg_extract value from %m : <index, granularity = 8, upperbound = 64> -> index
  %id = ktdp.get_compute_tile_id : index
  %chunk = arith.divui %M, %c8 : index
  %lo = arith.muli %id, %chunk : index
  %hi = arith.addi %lo, %chunk : index
  %ov = ktdp.construct_memory_view %Out, sizes: [%M, 4], strides: [4, 1] {
    coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 3 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<?x4xf16>
  %v = arith.constant dense<3.0> : tensor<1x4xf16>
  scf.for %r = %lo to %hi step %c1 {
    %ot = ktdp.construct_access_tile %ov[%r, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 3 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<?x4xf16> -> !ktdp.access_tile<1x4xindex>
    ktdp.store %v, %ot : tensor<1x4xf16>, <1x4xindex>
  }
  return
}
