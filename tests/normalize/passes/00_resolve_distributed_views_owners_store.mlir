// PASS: resolve-distributed-views
// Two tiles, each storing its squares into the other core's part of S (tile t writes
// rows 32(1 - t) .. of the distributed view: core 1 - t's scratchpad) and loading them
// back through the same access tile: one view whose core is given per tile (1, 0), the
// tile's row less its part's corner (-32t + 32), shared by the store and the load.
// CHECK: %S = ktdp.construct_memory_view %{{.*}}, sizes: [32, 64], strides: [64, 1] {{.*}} memory_space = #ktdp.memory_space<ct_local, ct_id = 1>, ktdf.owner_by_tile = array<i64: 1, 0>} : memref<32x64xf16>
// CHECK: %[[A:.*]] = arith.muli %t, %{{.*}} : index
// CHECK-NEXT: %[[CORNER:.*]] = arith.addi %[[A]], %{{.*}} : index
// CHECK-NEXT: %[[LOCAL:.*]] = arith.subi %other, %[[CORNER]] : index
// CHECK-NEXT: %St = ktdp.construct_access_tile %S[%[[LOCAL]], %c0]
// CHECK: ktdp.store %sq, %St
// CHECK-NEXT: %s = ktdp.load %St
// CHECK-NOT: construct_distributed_memory_view
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 32, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @dist_pair(%X: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c32 : index
    %c1 = arith.constant 1 : index
    %u = arith.subi %c1, %t : index
    %other = arith.muli %u, %c32 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [64, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %S0 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
        coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
    %S1 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
        coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32x64xf16>
    %S = ktdp.construct_distributed_memory_view (%S0, %S1 : memref<32x64xf16>, memref<32x64xf16>) : memref<64x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #half, access_tile_order = #id2}
        : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %St = ktdp.construct_access_tile %S[%other, %c0] {access_tile_set = #half, access_tile_order = #id2}
        : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #half, access_tile_order = #id2}
        : memref<64x64xf16> -> !ktdp.access_tile<32x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %e0 = tensor.empty() : tensor<32x64xf16>
    %sq = linalg.mul ins(%x, %x : tensor<32x64xf16>, tensor<32x64xf16>) outs(%e0 : tensor<32x64xf16>) -> tensor<32x64xf16>
    ktdp.store %sq, %St : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    %s = ktdp.load %St : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %x2 = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %e1 = tensor.empty() : tensor<32x64xf16>
    %y = linalg.add ins(%s, %x2 : tensor<32x64xf16>, tensor<32x64xf16>) outs(%e1 : tensor<32x64xf16>) -> tensor<32x64xf16>
    ktdp.store %y, %Yt : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    return
  }
}
