// PASS: batch-matmul-to-matmuls
// A batch of two per tile: each batch index gets 2-D views of the operands' memory (the
// offset moved by (tile's batch subscript + index) x the batch stride) and a matmul-shaped
// generic accumulating in f32, stored into its own 2-D tile of C.
// CHECK: %[[B0:.+]] = arith.addi %t, %{{.+}} : index
// CHECK-NEXT: %[[ST:.+]] = arith.constant 512 : index
// CHECK-NEXT: %[[M0:.+]] = arith.muli %[[B0]], %[[ST]] : index
// CHECK-NEXT: %[[O0:.+]] = arith.addi %A, %[[M0]] : index
// CHECK-NEXT: %[[V0:.+]] = ktdp.construct_memory_view %[[O0]], sizes: [8, 64], strides: [64, 1]
// CHECK-NEXT: %[[T0:.+]] = ktdp.construct_access_tile %[[V0]][%c0, %c0] {{.*}} -> !ktdp.access_tile<8x64xindex>
// CHECK: %[[A0:.+]] = ktdp.load %[[T0]] : {{.*}} -> tensor<8x64xf16>
// CHECK: %[[B0L:.+]] = ktdp.load %{{.+}} : {{.*}} -> tensor<64x16xf16>
// CHECK: linalg.fill
// CHECK: %[[P0:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[A0]], %[[B0L]] : tensor<8x64xf16>, tensor<64x16xf16>)
// CHECK: arith.extf
// CHECK: ktdp.store %[[P0]], %{{.+}} : tensor<8x16xf32>
// CHECK: arith.constant 1 : index
// CHECK-NEXT: arith.addi %t, %{{.+}} : index
// CHECK: ktdp.store %{{.+}}, %{{.+}} : tensor<8x16xf32>
// CHECK-NOT: linalg.batch_matmul
#a_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#b_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#c_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#a_two = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#b_two = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#c_two = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @two_per_tile(%A: index, %B: index, %C: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %id = ktdp.get_compute_tile_id : index
    %t = arith.muli %id, %c2 : index
    %Av = ktdp.construct_memory_view %A, sizes: [4, 8, 64], strides: [512, 64, 1] {
        coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [4, 64, 16], strides: [1024, 16, 1] {
        coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<4x64x16xf16>
    %Cv = ktdp.construct_memory_view %C, sizes: [4, 8, 16], strides: [128, 16, 1] {
        coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<4x8x16xf32>
    %At = ktdp.construct_access_tile %Av[%t, %c0, %c0] {access_tile_set = #a_two, access_tile_order = #id3}
        : memref<4x8x64xf16> -> !ktdp.access_tile<2x8x64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%t, %c0, %c0] {access_tile_set = #b_two, access_tile_order = #id3}
        : memref<4x64x16xf16> -> !ktdp.access_tile<2x64x16xindex>
    %Ct = ktdp.construct_access_tile %Cv[%t, %c0, %c0] {access_tile_set = #c_two, access_tile_order = #id3}
        : memref<4x8x16xf32> -> !ktdp.access_tile<2x8x16xindex>
    %a = ktdp.load %At : !ktdp.access_tile<2x8x64xindex> -> tensor<2x8x64xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<2x64x16xindex> -> tensor<2x64x16xf16>
    %e = tensor.empty() : tensor<2x8x16xf32>
    %c = linalg.batch_matmul ins(%a, %b : tensor<2x8x64xf16>, tensor<2x64x16xf16>)
        outs(%e : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
    ktdp.store %c, %Ct : tensor<2x8x16xf32>, !ktdp.access_tile<2x8x16xindex>
    return
  }
}
