// PASS: split-at-part-edges
// A tile that straddles two parts (rows 4..11; the parts split at row 8) and that compute
// reads is staged through a slot of the executing tile's own scratchpad: the copy into
// the slot is cut at the parts' edge (one load and one store per part), and the compute
// reads the slot whole.
// CHECK: %slot = ktdp.construct_memory_view %{{.*}}, sizes: [8, 32], strides: [32, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>} : memref<8x32xf16>
// CHECK: %x = ktdp.load %At : <4x32xindex> -> tensor<4x32xf16>
// CHECK-NEXT: %At_1 = ktdp.construct_access_tile %A[%c4 + 4, %c0]
// CHECK-NEXT: %x_1 = ktdp.load %At_1 : <4x32xindex> -> tensor<4x32xf16>
// CHECK-NEXT: %[[S0:.*]] = ktdp.construct_access_tile %slot[%{{.*}}, %{{.*}}] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK-NEXT: ktdp.store %x, %[[S0]] :
// CHECK-NEXT: %[[S1:.*]] = ktdp.construct_access_tile %slot[%{{.*}} + 4, %{{.*}}] {{.*}} -> !ktdp.access_tile<4x32xindex>
// CHECK-NEXT: ktdp.store %x_1, %[[S1]] :
// CHECK-NEXT: %[[W:.*]] = ktdp.load %slot_t : <8x32xindex> -> tensor<8x32xf16>
// CHECK-NEXT: %y = arith.mulf %[[W]], %[[W]] : tensor<8x32xf16>
// CHECK-NEXT: ktdp.store %y, %Bt
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 8, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @straddle(%A0: index, %A1: index, %B: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %A0v = ktdp.construct_memory_view %A0, sizes: [8, 32], strides: [32, 1] {coordinate_set = #part0, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %A1v = ktdp.construct_memory_view %A1, sizes: [8, 32], strides: [32, 1] {coordinate_set = #part1, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %A = ktdp.construct_distributed_memory_view (%A0v, %A1v : memref<8x32xf16>, memref<8x32xf16>) : memref<16x32xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [8, 32], strides: [32, 1] {coordinate_set = #tile, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %At = ktdp.construct_access_tile %A[%c4, %c0] {access_tile_set = #tile, access_tile_order = #id2} : memref<16x32xf16> -> !ktdp.access_tile<8x32xindex>
    %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #tile, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
    %x = ktdp.load %At : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
    %y = arith.mulf %x, %x : tensor<8x32xf16>
    ktdp.store %y, %Bt : tensor<8x32xf16>, !ktdp.access_tile<8x32xindex>
    return
  }
}
