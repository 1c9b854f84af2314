// PASS: body-index-to-float
// Index arithmetic in an elementwise body becomes f32 arithmetic on whole numbers: the
// product of two values from outside moves in front of the generic; positions and
// outside values enter as index_cast + uitofp; divui is floor(divf), remui
// a - floor(a / b) * b, cmpi ule the ordered cmpf ole; no index op is left in the body.
// CHECK: %[[Q2:.*]] = arith.muli %qbase, %c2 : index
// CHECK-NEXT: %masked = linalg.generic
// CHECK: ^bb0(%v: f32, %out: f32):
// CHECK-DAG: %[[C4:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-DAG: %[[C8:.*]] = arith.constant 8.000000e+00 : f32
// CHECK-DAG: %[[QI:.*]] = arith.index_cast %[[Q2]] : index to i64
// CHECK-DAG: %[[QF:.*]] = arith.uitofp %[[QI]] : i64 to f32
// CHECK: %row = linalg.index 0 : index
// CHECK-NEXT: %[[RI:.*]] = arith.index_cast %row : index to i64
// CHECK-NEXT: %[[RF:.*]] = arith.uitofp %[[RI]] : i64 to f32
// CHECK-NEXT: %col = linalg.index 1 : index
// CHECK-NEXT: %[[CI:.*]] = arith.index_cast %col : index to i64
// CHECK-NEXT: %[[CF:.*]] = arith.uitofp %[[CI]] : i64 to f32
// CHECK-NEXT: %[[D:.*]] = arith.divf %[[RF]], %[[C4]] : f32
// CHECK-NEXT: %[[G:.*]] = math.floor %[[D]] : f32
// CHECK-NEXT: %[[P:.*]] = arith.addf %[[QF]], %[[G]] : f32
// CHECK-NEXT: %[[D2:.*]] = arith.divf %[[CF]], %[[C8]] : f32
// CHECK-NEXT: %[[G2:.*]] = math.floor %[[D2]] : f32
// CHECK-NEXT: %[[B:.*]] = arith.mulf %[[G2]], %[[C8]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.subf %[[CF]], %[[B]] : f32
// CHECK-NEXT: %visible = arith.cmpf ole, %[[K]], %[[P]] : f32
// CHECK-NEXT: %r = arith.select %visible, %v, %ninf : f32
// CHECK-NEXT: linalg.yield %r : f32
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.divui
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @causal_mask(%S: index, %Y: index) attributes {grid = [4 : i64]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %ninf_bits = arith.constant -8388608 : i32
    %ninf = arith.constant 0xff800000 : f32
    %row0 = arith.muli %pid, %c8 : index
    %qbase = arith.muli %pid, %c2 : index
    %Sv = ktdp.construct_memory_view %S, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %Yv = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf32>
    %St = ktdp.construct_access_tile %Sv[%row0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<32x64xf32> -> !ktdp.access_tile<8x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<32x64xf32> -> !ktdp.access_tile<8x64xindex>
    %s = ktdp.load %St : <8x64xindex> -> tensor<8x64xf32>
    %empty = tensor.empty() : tensor<8x64xf32>
    %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x64xf32>) outs(%empty : tensor<8x64xf32>) {
    ^bb0(%v: f32, %out: f32):
      %row = linalg.index 0 : index
      %col = linalg.index 1 : index
      %head_group = arith.divui %row, %c4 : index
      %qbase2 = arith.muli %qbase, %c2 : index
      %qpos = arith.addi %qbase2, %head_group : index
      %key = arith.remui %col, %c8 : index
      %visible = arith.cmpi ule, %key, %qpos : index
      %r = arith.select %visible, %v, %ninf : f32
      linalg.yield %r : f32
    } -> tensor<8x64xf32>
    ktdp.store %masked, %Yt : tensor<8x64xf32>, <8x64xindex>
    func.return
  }
}
