// PASS: lower-inter-tile
// Two groups ({0, 1} and {2, 3}) reduce to the first tile of each (tiles 1 and 3 are
// no consumers): the reads differ between the tiles that make them, and not every tile
// makes one, so each group's consumer reads its producers' slots under a guard on the
// tile id and stores the sum in a slot of its own scratchpad, which it then loads.
// CHECK: %slot_c0 = ktdp.construct_memory_view {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>}
// CHECK-NOT: owner_by_tile
// CHECK: ktdp.get_compute_tile_id : index
// CHECK: arith.cmpi sle, %{{.+}}, %{{.+}} : index
// CHECK-NEXT: scf.if
// CHECK: ktdp.load %slot_t0
// CHECK: ktdp.load %slot_t1
// CHECK: ktdp.store %{{.+}}, %slot_t_1 :
// CHECK: arith.andi
// CHECK-NEXT: scf.if
// CHECK: ktdp.load %slot_t2
// CHECK: ktdp.load %slot_t3
// CHECK: ktdp.store %{{.+}}, %slot_t_1 :
// CHECK: %sum = ktdp.load %slot_t : {{.*}} -> tensor<64xf16>
// CHECK-NOT: inter_tile
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#row2 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#flat = affine_set<(d0) : (d0 >= 0, -d0 + 255 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#pairs = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>
#groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>
#firsts = affine_set<(i)[g] : (i - 2 * g == 0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @pair_sums(%X: index, %Y: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %t = ktdp.get_compute_tile_id : index
    %o = arith.muli %t, %c64 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [256], strides: [1] {
        coordinate_set = #flat, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
    %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row2, access_tile_order = #id2}
        : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%o] {access_tile_set = #row, access_tile_order = #id1}
        : memref<256xf16> -> !ktdp.access_tile<64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #pairs
        : tensor<1x64xf16> -> !ktdp.tile_future<tensor<1x64xf16>, groups = #groups> {
      ^bb0(%gid: index):
        ktdp.yield_partial %x : tensor<1x64xf16>
    }
    %zero = arith.constant 0.0 : f16
    %e = tensor.empty() : tensor<1x64xf16>
    %id = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    %sum = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #firsts, identity(%id : tensor<1x64xf16>)
        : !ktdp.tile_future<tensor<1x64xf16>, groups = #groups> -> tensor<64xf16> {
      ^bb0(%a: tensor<1x64xf16>, %b: tensor<1x64xf16>):
        %i = tensor.empty() : tensor<1x64xf16>
        %s = linalg.add ins(%a, %b : tensor<1x64xf16>, tensor<1x64xf16>) outs(%i : tensor<1x64xf16>) -> tensor<1x64xf16>
        ktdp.yield_reduced %s : tensor<1x64xf16>
    }
    %c2 = arith.constant 2 : index
    %odd = arith.remui %t, %c2 : index
    %first = arith.cmpi eq, %odd, %c0 : index
    scf.if %first {
      ktdp.store %sum, %Yt : tensor<64xf16>, !ktdp.access_tile<64xindex>
    }
    return
  }
}
