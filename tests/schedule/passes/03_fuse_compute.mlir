// PASS: fuse-compute
// The add (a generic, as the normal form leaves linalg.add) is fused into the mul: one
// generic whose body adds then multiplies; A, read by both, is read once.
// CHECK: builtin.module @program_0
// CHECK-NOT: linalg.add
// CHECK: %{{.*}} = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x96xf16>, tensor<2x96xf16>) outs(%e2 : tensor<2x96xf16>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f16
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[S]], %[[X]] : f16
// CHECK-NEXT: linalg.yield %[[P]] : f16
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.mul
// CHECK: ktdp.store
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @small_add(%A: index, %B: index, %C: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Av = ktdp.construct_memory_view %A, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
      %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
      %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
      %a = ktdp.load %At : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
      %b = ktdp.load %Bt : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
      %e = tensor.empty() : tensor<2x96xf16>
      %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x96xf16>, tensor<2x96xf16>) outs(%e : tensor<2x96xf16>) {
      ^bb0(%x: f16, %y: f16, %o: f16):
        %r = arith.addf %x, %y : f16
        linalg.yield %r : f16
      } -> tensor<2x96xf16>
      %e2 = tensor.empty() : tensor<2x96xf16>
      %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s, %a : tensor<2x96xf16>, tensor<2x96xf16>) outs(%e2 : tensor<2x96xf16>) {
      ^bb0(%x2: f16, %y2: f16, %o2: f16):
        %r2 = arith.mulf %x2, %y2 : f16
        linalg.yield %r2 : f16
      } -> tensor<2x96xf16>
      ktdp.store %c, %Ct : tensor<2x96xf16>, !ktdp.access_tile<2x96xindex>
      func.return
    }
  }
}
