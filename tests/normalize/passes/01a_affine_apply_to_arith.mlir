// PASS: affine-apply-to-arith
// The kernel's index arithmetic written as maps becomes arith ops: a product with a
// constant, and a sum of a dim and a symbol scaled by a constant.
// CHECK-NOT: affine.apply
// CHECK: %t = ktdp.get_compute_tile_id
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %row = arith.muli %t, %[[C2]] : index
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[S:.*]] = arith.muli %k, %[[C64]] : index
// CHECK-NEXT: %col = arith.addi %c0, %[[S]] : index
// CHECK: ktdp.construct_access_tile %Xv[%row, %col]
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @k(%X: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %t = ktdp.get_compute_tile_id : index
    %row = affine.apply affine_map<(d0) -> (d0 * 2)>(%t)
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 128], strides: [128, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [4, 128], strides: [128, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
    scf.for %k = %c0 to %c2 step %c1 {
      %col = affine.apply affine_map<(d0)[s0] -> (d0 + s0 * 64)>(%c0)[%k]
      %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<2x64xindex>
      %Yt = ktdp.construct_access_tile %Yv[%row, %col] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x128xf16> -> !ktdp.access_tile<2x64xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
      %e = tensor.empty() : tensor<2x64xf16>
      %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) {
      ^bb0(%a: f16, %o: f16):
        %s = arith.addf %a, %a : f16
        linalg.yield %s : f16
      } -> tensor<2x64xf16>
      ktdp.store %y, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    }
    func.return
  }
}
