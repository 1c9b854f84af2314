// PASS: lower-inter-tile
// An all-reduce over two tiles: each stores its partial into a slot pinned in its own
// scratchpad; each reads both slots (core 0's, then core 1's) and sums them from the
// identity in that order, the reference's.
// CHECK: %slot = ktdp.construct_memory_view %[[OFF:.+]], sizes: [1, 64], strides: [64, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>}
// CHECK: %slot_c0 = ktdp.construct_memory_view %[[OFF]], sizes: [1, 64], {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK: %slot_t0 = ktdp.construct_access_tile %slot_c0
// CHECK: %slot_c1 = ktdp.construct_memory_view %[[OFF]], sizes: [1, 64], {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 1>}
// CHECK: %slot_t1 = ktdp.construct_access_tile %slot_c1
// CHECK: %x = ktdp.load %Xt
// CHECK: ktdp.store %x, %slot_t :
// CHECK: %id = linalg.fill
// CHECK: %[[P0:.+]] = ktdp.load %slot_t0
// CHECK: %s = linalg.add ins(%id, %[[P0]] :
// CHECK: %[[P1:.+]] = ktdp.load %slot_t1
// CHECK: %s_1 = linalg.add ins(%s, %[[P1]] :
// CHECK: ktdp.store %s_1, %Yt
// CHECK-NOT: inter_tile
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#both = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @pair_sum(%X: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %t = ktdp.get_compute_tile_id : index
    %Xv = ktdp.construct_memory_view %X, sizes: [2, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [2, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<2x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<2x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #both
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> {
      ^bb0(%gid: index):
        ktdp.yield_partial %x : tensor<1x64xf16>
    }
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<1x64xf16>
    %id = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #both, identity(%id : tensor<1x64xf16>)
        : !ktdp.tile_future<tensor<1x64xf16>, groups = affine_set<(g) : (g == 0)>> -> tensor<1x64xf16> {
      ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
        %i = tensor.empty() : tensor<1x64xf16>
        %s = linalg.add ins(%a, %b : tensor<1x64xf16>, tensor<1x64xf16>) outs(%i : tensor<1x64xf16>) -> tensor<1x64xf16>
        ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    ktdp.store %sum, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    return
  }
}
