// PASS: place-scratchpad-arguments
// Four tiles. The kernel pins S at constant bytes 0..4095 of core 0's scratchpad itself.
// W (viewed only in core 1's scratchpad) and B (viewed only in each tile's own) are
// tensors the caller pins in scratchpads: the compiler places them past S, 128-byte
// aligned, one after the other (W: f16 elements 2048..2111, bytes 4096..4223; B: f32
// from byte 4224, element 1056), replaces the pointers by those offsets and records the
// placements on the function. X has a view in device memory: it stays a pointer.
// CHECK: func.func @place(%X: index, %W: index, %B: index, %Y: index) attributes {grid = [4 : i64], ktdf.scratchpad_arguments = {W = {offset = 2048 : i64, element_type = "f16", shape = array<i64: 64>, role = "in", core = 1 : i64}, B = {offset = 1056 : i64, element_type = "f32", shape = array<i64: 4, 32>, role = "in", core = -1 : i64}}}
// CHECK-NEXT: %B_placed = arith.constant 1056 : index
// CHECK-NEXT: %W_placed = arith.constant 2048 : index
// CHECK: %Sv = ktdp.construct_memory_view %c0, {{.*}}ct_id = 0>
// CHECK: %Xv = ktdp.construct_memory_view %X, {{.*}}memory_space = #ktdp.memory_space<global>}
// CHECK: %Wv = ktdp.construct_memory_view %W_placed, {{.*}}ct_id = 1>
// CHECK: %Bv = ktdp.construct_memory_view %B_placed, {{.*}}memory_space = #ktdp.memory_space<ct_local>}
#s = affine_set<(d0) : (d0 >= 0, -d0 + 2047 >= 0)>
#w = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @place(%X: index, %W: index, %B: index, %Y: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %t = ktdp.get_compute_tile_id : index
    %Sv = ktdp.construct_memory_view %c0, sizes: [2048], strides: [1] {
        coordinate_set = #s, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<2048xf16>
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
        coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Wv = ktdp.construct_memory_view %W, sizes: [64], strides: [1] {
        coordinate_set = #w, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [4, 32], strides: [32, 1] {
        coordinate_set = #b, memory_space = #ktdp.memory_space<ct_local>} : memref<4x32xf32>
    %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
        coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %Wt = ktdp.construct_access_tile %Wv[%c0] {access_tile_set = #w, access_tile_order = #id1}
        : memref<64xf16> -> !ktdp.access_tile<64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #b, access_tile_order = #id2}
        : memref<4x32xf32> -> !ktdp.access_tile<4x32xindex>
    %St = ktdp.construct_access_tile %Sv[%c0] {access_tile_set = #s, access_tile_order = #id1}
        : memref<2048xf16> -> !ktdp.access_tile<2048xindex>
    %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %w = ktdp.load %Wt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
    %bias = ktdp.load %Bt : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf32>
    %s = ktdp.load %St : !ktdp.access_tile<2048xindex> -> tensor<2048xf16>
    ktdp.store %x, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    return
  }
}
