// PASS: reduction-init-to-fill
// A sum onto a loaded tensor: the reduction starts from a fill of 0 (addf's identity),
// and an elementwise generic adds the loaded initial value to its result.
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x256xf32>) outs(%[[F]] : tensor<2xf32>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT: %[[S:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b, %[[R]] : tensor<2xf32>, tensor<2xf32>) outs(%[[E2]] : tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[B:.*]]: f32, %[[P:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[A:.*]] = arith.addf %[[B]], %[[P]] : f32
// CHECK-NEXT: linalg.yield %[[A]] : f32
// CHECK: ktdp.store %[[S]], %St
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

builtin.module attributes {ktdf.device = "spyre"} {
func.func @sum_onto_loaded(%X: index, %B: index, %S: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x256xf32>
  %Bv = ktdp.construct_memory_view %B, sizes: [16], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
  %Sv = ktdp.construct_memory_view %S, sizes: [16], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<16x256xf32> -> !ktdp.access_tile<2x256xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row] {access_tile_set = #two, access_tile_order = #id1}
      : memref<16xf32> -> !ktdp.access_tile<2xindex>
  %St = ktdp.construct_access_tile %Sv[%row] {access_tile_set = #two, access_tile_order = #id1}
      : memref<16xf32> -> !ktdp.access_tile<2xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf32>
  %b = ktdp.load %Bt : !ktdp.access_tile<2xindex> -> tensor<2xf32>
  %s = linalg.generic {indexing_maps = [#id2, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x256xf32>) outs(%b : tensor<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sum = arith.addf %in, %acc : f32
    linalg.yield %sum : f32
  } -> tensor<2xf32>
  ktdp.store %s, %St : tensor<2xf32>, !ktdp.access_tile<2xindex>
  func.return
}
}
