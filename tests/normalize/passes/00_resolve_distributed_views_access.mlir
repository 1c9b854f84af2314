// PASS: resolve-distributed-views
// A tensor whose columns 0..31 and 32..63 are two arrays; one access tile reads each half
// (a copy loop split at the parts' edge): each reads its own part's view.
// CHECK: %Lt = ktdp.construct_access_tile %A0v[%c0, %c0]
// CHECK: %Rt = ktdp.construct_access_tile %A1v[%c0, %c32]
// CHECK-NOT: construct_distributed_memory_view
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 32, -d1 + 63 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @halves(%A0: index, %A1: index, %B: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %A0v = ktdp.construct_memory_view %A0, sizes: [8, 32], strides: [32, 1] {
        coordinate_set = #part0, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %A1v = ktdp.construct_memory_view %A1, sizes: [8, 32], strides: [32, 1] {
        coordinate_set = #part1, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %A = ktdp.construct_distributed_memory_view (%A0v, %A1v : memref<8x32xf16>, memref<8x32xf16>) : memref<8x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [8, 32], strides: [32, 1] {
        coordinate_set = #half, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %Lt = ktdp.construct_access_tile %A[%c0, %c0] {access_tile_set = #half, access_tile_order = #id2}
        : memref<8x64xf16> -> !ktdp.access_tile<8x32xindex>
    %Rt = ktdp.construct_access_tile %A[%c0, %c32] {access_tile_set = #half, access_tile_order = #id2}
        : memref<8x64xf16> -> !ktdp.access_tile<8x32xindex>
    %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #half, access_tile_order = #id2}
        : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
    %l = ktdp.load %Lt : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
    %r = ktdp.load %Rt : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
    %e = tensor.empty() : tensor<8x32xf16>
    %s = linalg.add ins(%l, %r : tensor<8x32xf16>, tensor<8x32xf16>) outs(%e : tensor<8x32xf16>) -> tensor<8x32xf16>
    ktdp.store %s, %Bt : tensor<8x32xf16>, !ktdp.access_tile<8x32xindex>
    return
  }
}
