// PASS: matmul-to-generic
// linalg.matmul: a generic over (m, n, k) with maps (m, k), (k, n), (m, n) and iterators
// parallel, parallel, reduction, the body multiply then add to the accumulator; an empty
// accumulator starts from a zero fill. linalg.transpose: the input
// map sends output dim i to input dim permutation[i].
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.transpose
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[Z]] : f16) outs(%e : tensor<8x16xf16>)
// CHECK-NEXT: %[[MM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<8x32xf16>, tensor<32x16xf16>) outs(%[[F]] : tensor<8x16xf16>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[ACC:.*]]: f16):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[Y]] : f16
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f16
// CHECK-NEXT: linalg.yield %[[S]] : f16
// CHECK: %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bt : tensor<16x8xf16>) outs(%e2 : tensor<8x16xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: linalg.yield %[[IN]] : f16
#a = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#b = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#c = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#t = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @mm(%A: index, %B: index, %BT: index, %C: index, %D: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %Av = ktdp.construct_memory_view %A, sizes: [8, 32], strides: [32, 1] {coordinate_set = #a, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [32, 16], strides: [16, 1] {coordinate_set = #b, memory_space = #ktdp.memory_space<global>} : memref<32x16xf16>
    %BTv = ktdp.construct_memory_view %BT, sizes: [16, 8], strides: [8, 1] {coordinate_set = #t, memory_space = #ktdp.memory_space<global>} : memref<16x8xf16>
    %Cv = ktdp.construct_memory_view %C, sizes: [8, 16], strides: [16, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %Dv = ktdp.construct_memory_view %D, sizes: [8, 16], strides: [16, 1] {coordinate_set = #c, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #a, access_tile_order = #id2} : memref<8x32xf16> -> !ktdp.access_tile<8x32xindex>
    %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #b, access_tile_order = #id2} : memref<32x16xf16> -> !ktdp.access_tile<32x16xindex>
    %BTt = ktdp.construct_access_tile %BTv[%c0, %c0] {access_tile_set = #t, access_tile_order = #id2} : memref<16x8xf16> -> !ktdp.access_tile<16x8xindex>
    %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %Dt = ktdp.construct_access_tile %Dv[%c0, %c0] {access_tile_set = #c, access_tile_order = #id2} : memref<8x16xf16> -> !ktdp.access_tile<8x16xindex>
    %a = ktdp.load %At : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<32x16xindex> -> tensor<32x16xf16>
    %bt = ktdp.load %BTt : !ktdp.access_tile<16x8xindex> -> tensor<16x8xf16>
    %e = tensor.empty() : tensor<8x16xf16>
    %mm = linalg.matmul ins(%a, %b : tensor<8x32xf16>, tensor<32x16xf16>) outs(%e : tensor<8x16xf16>) -> tensor<8x16xf16>
    %e2 = tensor.empty() : tensor<8x16xf16>
    %tr = linalg.transpose ins(%bt : tensor<16x8xf16>) outs(%e2 : tensor<8x16xf16>) permutation = [1, 0]
    ktdp.store %mm, %Ct : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    ktdp.store %tr, %Dt : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
    func.return
  }
}
