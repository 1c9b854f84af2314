// PASS: fold-fill-inputs
// A fill read as a generic input is dropped from the inputs (and its map), the body
// uses the fill's scalar; the fill used as the reduction's initial value stays.
// CHECK: %[[ACC:.*]] = linalg.fill ins(%zero : f32)
// CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<2x64xf32>) outs(%[[ACC]] : tensor<2xf32>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f32, %[[A:.*]]: f32):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %two : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[A]] : f32
// CHECK-NEXT: linalg.yield %[[S]] : f32
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#four = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @twice_sum(%X: index, %S: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f32
    %two = arith.constant 2.0 : f32
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Sv = ktdp.construct_memory_view %S, sizes: [4], strides: [1] {coordinate_set = #four, memory_space = #ktdp.memory_space<global>} : memref<4xf32>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x64xf32> -> !ktdp.access_tile<2x64xindex>
    %St = ktdp.construct_access_tile %Sv[%row] {access_tile_set = #two, access_tile_order = #id1} : memref<4xf32> -> !ktdp.access_tile<2xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf32>
    %f0 = tensor.empty() : tensor<2x64xf32>
    %twos = linalg.fill ins(%two : f32) outs(%f0 : tensor<2x64xf32>) -> tensor<2x64xf32>
    %a0 = tensor.empty() : tensor<2xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%a0 : tensor<2xf32>) -> tensor<2xf32>
    %s = linalg.generic {indexing_maps = [#id2, #id2, #rowmap], iterator_types = ["parallel", "reduction"]}
        ins(%x, %twos : tensor<2x64xf32>, tensor<2x64xf32>) outs(%acc : tensor<2xf32>) {
    ^bb0(%xe: f32, %te: f32, %a: f32):
      %p = arith.mulf %xe, %te : f32
      %sum = arith.addf %p, %a : f32
      linalg.yield %sum : f32
    } -> tensor<2xf32>
    ktdp.store %s, %St : tensor<2xf32>, !ktdp.access_tile<2xindex>
    func.return
  }
}
