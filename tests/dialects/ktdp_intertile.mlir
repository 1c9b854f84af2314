// ktdp inter-tile communication: produce (short, long and older future forms), consume
// (broadcast and routed), reduce with a combiner. See ktdp_memory.mlir for how this
// file is run. Ops print the future type in the short form `<(T...), groups = ...>`.

#group0 = affine_set<(g) : (g == 0)>
#tiles = affine_set<(i)[g] : (i >= 0, -i + 3 >= 0)>

// CHECK-LABEL: func.func @comm(%fut: !ktdp.tile_future<(tensor<64xf16>), groups = affine_set<(d0) : (d0 == 0)>>) attributes {grid = [4 : i64]} {
func.func @comm(%fut: !ktdp.tile_future<(tensor<64xf16>), groups = affine_set<(g) : (g == 0)>>) attributes {grid = [4]} {
  %zero = arith.constant 0.0 : f16
  %x = tensor.empty() : tensor<64xf16>
  %y = tensor.empty() : tensor<64xi32>
  // CHECK: %f = ktdp.inter_tile_produce producer_tiles_per_group = affine_set<(d0)[s0] : (d0 >= 0, ((d0 * -1) + 3) >= 0)> -> <(tensor<64xf16>), groups = affine_set<(d0) : (d0 == 0)>> {
  // CHECK-NEXT: ^bb0(%gid: index):
  // CHECK-NEXT:   ktdp.yield_partial %x : tensor<64xf16>
  // CHECK-NEXT: }
  %f = ktdp.inter_tile_produce producer_tiles_per_group = #tiles -> <(tensor<64xf16>), groups = #group0> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<64xf16>
  }
  // Two partials, written with the long type.
  // CHECK: %two = ktdp.inter_tile_produce producer_tiles_per_group = {{.*}} -> <(tensor<64xf16>, tensor<64xi32>), groups = affine_set<(d0) : (d0 == 0)>> {
  // CHECK: ktdp.yield_partial %x, %y : tensor<64xf16>, tensor<64xi32>
  %two = ktdp.inter_tile_produce producer_tiles_per_group = #tiles -> !ktdp.tile_future<(tensor<64xf16>, tensor<64xi32>), groups = affine_set<(g) : (g == 0)>> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x, %y : tensor<64xf16>, tensor<64xi32>
  }
  // The older form `: T -> !ktdp.tile_future<T, groups = ...>` reads the same.
  // CHECK: %old = ktdp.inter_tile_produce producer_tiles_per_group = {{.*}} -> <(tensor<64xf16>), groups = affine_set<(d0) : (d0 == 0)>> {
  %old = ktdp.inter_tile_produce producer_tiles_per_group = #tiles : tensor<64xf16> -> !ktdp.tile_future<tensor<64xf16>, groups = #group0> {
  ^bb0(%gid: index):
    ktdp.yield_partial %x : tensor<64xf16>
  }
  // CHECK: %bcast = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = affine_set<(d0)[s0] : (d0 >= 0, ((d0 * -1) + 3) >= 0)> : <(tensor<64xf16>), groups = affine_set<(d0) : (d0 == 0)>> -> tensor<64xf16>
  %bcast = ktdp.inter_tile_consume(%f) consumer_tiles_per_group = #tiles : <(tensor<64xf16>), groups = #group0> -> tensor<64xf16>
  // Routed, and reshaped: the result holds the same elements as the partial.
  // CHECK-NEXT: %routed = ktdp.inter_tile_consume(%old) consumer_tiles_per_group = {{.*}}, producer_dependency_per_consumer = affine_set<(d0)[s0] : ((d0 + (s0 * -1)) == 0)> : <(tensor<64xf16>), groups = {{.*}}> -> tensor<1x64xf16>
  %routed = ktdp.inter_tile_consume(%old) consumer_tiles_per_group = #tiles, producer_dependency_per_consumer = affine_set<(p)[c] : (p - c == 0)> : !ktdp.tile_future<(tensor<64xf16>), groups = #group0> -> tensor<1x64xf16>
  // CHECK-NEXT: %pair, %pair_1 = ktdp.inter_tile_consume(%two) {{.*}} -> tensor<64xf16>, tensor<64xi32>
  %pair:2 = ktdp.inter_tile_consume(%two) consumer_tiles_per_group = #tiles : <(tensor<64xf16>, tensor<64xi32>), groups = #group0> -> tensor<64xf16>, tensor<64xi32>
  // CHECK-NEXT: %arg = ktdp.inter_tile_consume(%fut) {{.*}} -> tensor<64xf16>
  %arg = ktdp.inter_tile_consume(%fut) consumer_tiles_per_group = #tiles : <(tensor<64xf16>), groups = #group0> -> tensor<64xf16>
  %e = tensor.empty() : tensor<64xf16>
  %ident = linalg.fill ins(%zero : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  // CHECK: %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = {{.*}}, identity(%ident : tensor<64xf16>) : <(tensor<64xf16>), groups = affine_set<(d0) : (d0 == 0)>> -> tensor<64xf16> {
  // CHECK-NEXT: ^bb{{[0-9]+}}(%lhs: tensor<64xf16>, %rhs: tensor<64xf16>):
  // CHECK-NEXT:   %out = tensor.empty() : tensor<64xf16>
  // CHECK-NEXT:   %s = linalg.add ins(%lhs, %rhs : tensor<64xf16>, tensor<64xf16>) outs(%out : tensor<64xf16>) -> tensor<64xf16>
  // CHECK-NEXT:   ktdp.yield_reduced %s : tensor<64xf16>
  // CHECK-NEXT: }
  %sum = ktdp.inter_tile_reduce(%f) consumer_tiles_per_group = #tiles, identity(%ident : tensor<64xf16>) : <(tensor<64xf16>), groups = #group0> -> tensor<64xf16> {
  ^bb0(%lhs: tensor<64xf16>, %rhs: tensor<64xf16>):
    %out = tensor.empty() : tensor<64xf16>
    %s = linalg.add ins(%lhs, %rhs : tensor<64xf16>, tensor<64xf16>) outs(%out : tensor<64xf16>) -> tensor<64xf16>
    ktdp.yield_reduced %s : tensor<64xf16>
  }
  return
}
