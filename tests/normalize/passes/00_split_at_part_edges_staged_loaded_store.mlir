// PASS: split-at-part-edges
// A loaded tile that compute also reads, stored through a tile that straddles two parts
// (rows 4..11; the parts split at row 8): not a plain copy, so it is staged like a
// computed value (stored into a slot of the executing tile's own scratchpad, copied from
// there, the copy cut at the parts' edge); the compute still reads the loaded tile.
// CHECK: %x = ktdp.load %Xt : <8x32xindex> -> tensor<8x32xf16>
// CHECK-NEXT: %y = arith.mulf %x, %x : tensor<8x32xf16>
// CHECK-NEXT: ktdp.store %y, %Ct
// CHECK-NEXT: ktdp.store %x, %slot_t : tensor<8x32xf16>, <8x32xindex>
// CHECK-NEXT: %[[S0:.*]] = ktdp.construct_access_tile %slot[%{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK-NEXT: %[[L0:.*]] = ktdp.load %[[S0]] : <4x32xindex> -> tensor<4x32xf16>
// CHECK-NEXT: %[[S1:.*]] = ktdp.construct_access_tile %slot[%{{.*}} + 4, %{{.*}}] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK-NEXT: %[[L1:.*]] = ktdp.load %[[S1]] : <4x32xindex> -> tensor<4x32xf16>
// CHECK-NEXT: %Bt = ktdp.construct_access_tile %B[%c4, %c0] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK-NEXT: ktdp.store %[[L0]], %Bt :
// CHECK-NEXT: %Bt_1 = ktdp.construct_access_tile %B[%c4 + 4, %c0] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK-NEXT: ktdp.store %[[L1]], %Bt_1 :
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 8, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @straddle(%X: index, %B0: index, %B1: index, %C: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 32], strides: [32, 1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %B0v = ktdp.construct_memory_view %B0, sizes: [8, 32], strides: [32, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %B1v = ktdp.construct_memory_view %B1, sizes: [8, 32], strides: [32, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %Cv = ktdp.construct_memory_view %C, sizes: [8, 32], strides: [32, 1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
    %B = ktdp.construct_distributed_memory_view (%B0v, %B1v : memref<8x32xf16>, memref<8x32xf16>) : memref<16x32xf16>
    %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
    %Bt = ktdp.construct_access_tile %B[%c4, %c0] {access_tile_set = #tile, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<8x32xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
    %y = arith.mulf %x, %x : tensor<8x32xf16>
    ktdp.store %y, %Ct : tensor<8x32xf16>, !ktdp.access_tile<8x32xindex>
    ktdp.store %x, %Bt : tensor<8x32xf16>, !ktdp.access_tile<8x32xindex>
    return
  }
}
