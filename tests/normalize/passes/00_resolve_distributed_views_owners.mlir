// PASS: resolve-distributed-views
// A 128x64 tensor in blocks of 32 rows in the scratchpads of cores 0..3; tile t loads
// the 16 rows from 32t + 32 (tiles 0..2: the first half of the next core's block) or,
// tile 3, rows 112..127 (the second half of its own). Each tile reaches one part, in
// another core's scratchpad for three of them, and the corners (32, 64, 96, 96) are not
// linear in the tile: the load reads through a view whose core is given per tile, at
// its row less the start of the 32-row block holding it ((row - 32) mod 32: the blocks
// start at row 32, the first any tile reaches). The row is a minimum (`arith.minsi`):
// the model computes it per tile from its definition.
// CHECK: %X = ktdp.construct_memory_view %{{.*}}, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>, ktdf.owner_by_tile = array<i64: 1, 2, 3, 3>} : memref<32x64xf16>
// CHECK: %[[UP:.*]] = arith.subi %row, %{{.*}} : index
// CHECK-NEXT: %[[LOCAL:.*]] = arith.remsi %[[UP]], %{{.*}} : index
// CHECK-NEXT: %Xt = ktdp.construct_access_tile %X[%[[LOCAL]], %c0] {{.*}} -> !ktdp.access_tile<16x64xindex>
// CHECK-NOT: construct_distributed_memory_view
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p1 = affine_set<(d0, d1) : (d0 >= 32, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p2 = affine_set<(d0, d1) : (d0 >= 64, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#p3 = affine_set<(d0, d1) : (d0 >= 96, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @owners(%O: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c112 = arith.constant 112 : index
    %t = ktdp.get_compute_tile_id : index
    %v0 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #p0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
    %v1 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #p1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32x64xf16>
    %v2 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #p2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<32x64xf16>
    %v3 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {coordinate_set = #p3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<32x64xf16>
    %X = ktdp.construct_distributed_memory_view (%v0, %v1, %v2, %v3 : memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>) : memref<128x64xf16>
    %Ov = ktdp.construct_memory_view %O, sizes: [64, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
    %next = arith.muli %t, %c32 : index
    %next1 = arith.addi %next, %c32 : index
    %row = arith.minsi %next1, %c112 : index
    %out = arith.muli %t, %c16 : index
    %Xt = ktdp.construct_access_tile %X[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<128x64xf16> -> !ktdp.access_tile<16x64xindex>
    %Ot = ktdp.construct_access_tile %Ov[%out, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<16x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
    ktdp.store %x, %Ot : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
    return
  }
}
