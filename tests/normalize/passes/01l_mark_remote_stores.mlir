// PASS: mark-remote-stores
// Four tiles. S0 (core 0's scratchpad) is stored by tile 0 alone, under `t == 0`: its
// owner, so the store goes straight into it, unmarked. S1 (core 1's) is stored by every
// tile: tiles 0, 2 and 3 store into another core's scratchpad, so the view is marked and
// the scheduler routes its stores over the interconnect. G (device memory) and the
// loads through S0 are never marked.
// CHECK: %S0 = ktdp.construct_memory_view %c0, {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
// CHECK: %S1 = ktdp.construct_memory_view %c0, {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 1>, ktdf.stored_from_other_cores = true} : memref<32x64xf16>
// CHECK-NOT: ktdf.stored_from_other_cores
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @marks(%X: index, %Y: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c32 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [128, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %G = ktdp.construct_memory_view %Y, sizes: [128, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
    %S0 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
        coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
    %S1 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
        coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
        : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
    %S0t = ktdp.construct_access_tile %S0[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2}
        : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %S1t = ktdp.construct_access_tile %S1[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2}
        : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
    %Gt = ktdp.construct_access_tile %G[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
        : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
    %is0 = arith.cmpi eq, %t, %c0 : index
    scf.if %is0 {
      %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
      ktdp.store %x, %S0t : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    }
    %s = ktdp.load %S0t : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    ktdp.store %s, %S1t : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    ktdp.store %s, %Gt : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    return
  }
}
