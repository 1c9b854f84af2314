// PASS: layout-through-elementwise
// Row 2 of a computed 3x64 sum, taken by tensor.extract_slice and stored: the slice moves
// to the add's inputs, each a load of its tile's row 2 (slice-to-subtile's rule: the
// subscript moved by 2, a one-row set), the generic over 1x64; the 3x64 loads and sum,
// used by nothing else, go.
// CHECK: %[[ROW_A:.*]] = arith.addi %row, %{{.*}} : index
// CHECK-NEXT: %[[TILE_A:.*]] = ktdp.construct_access_tile %Av[%[[ROW_A]], %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>
// CHECK-NEXT: %[[A:.*]] = ktdp.load %[[TILE_A]] : <1x64xindex> -> tensor<1x64xf16>
// CHECK: %[[TILE_B:.*]] = ktdp.construct_access_tile %Bv
// CHECK-NEXT: %[[B:.*]] = ktdp.load %[[TILE_B]] : <1x64xindex> -> tensor<1x64xf16>
// CHECK-NEXT: %r = linalg.generic {{.*}} ins(%[[A]], %[[B]] : tensor<1x64xf16>, tensor<1x64xf16>)
// CHECK: ktdp.store %r, %Ct
// CHECK-NOT: tensor.extract_slice
// CHECK-NOT: tensor<3x64xf16>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @slice_of_sum(%A: index, %B: index, %C: index) attributes {grid = [4]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c3 : index
    %Av = ktdp.construct_memory_view %A, sizes: [12, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [12, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
    %Cv = ktdp.construct_memory_view %C, sizes: [12, 64], strides: [64, 1] {
        coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
    %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2}
        : memref<12x64xf16> -> !ktdp.access_tile<3x64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2}
        : memref<12x64xf16> -> !ktdp.access_tile<3x64xindex>
    %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = #one, access_tile_order = #id2}
        : memref<12x64xf16> -> !ktdp.access_tile<1x64xindex>
    %a = ktdp.load %At : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %e = tensor.empty() : tensor<3x64xf16>
    %s = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) {
    ^bb0(%x: f16, %y: f16, %o: f16):
      %z = arith.addf %x, %y : f16
      linalg.yield %z : f16
    } -> tensor<3x64xf16>
    %r = tensor.extract_slice %s[2, 0] [1, 64] [1, 1] : tensor<3x64xf16> to tensor<1x64xf16>
    ktdp.store %r, %Ct : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    return
  }
}
