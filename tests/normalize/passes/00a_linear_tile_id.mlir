// PASS: linear-tile-id
// The three coordinates of a [2, 3, 4] grid, computed from the linear tile id (the first
// grid dimension fastest): i = t mod 2, j = (t / 2) mod 3, k = t / 6, each remainder as
// q - (q / n) * n. A linear id already is left alone; the grid attribute is kept.
// CHECK: func.func @grid_3d(%X: index) attributes {grid = [2 : i64, 3 : i64, 4 : i64]} {
// CHECK-NEXT: %[[T:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[Q0:.*]] = arith.divui %[[T]], %[[C2]] : index
// CHECK-NEXT: %[[M0:.*]] = arith.muli %[[Q0]], %[[C2]] : index
// CHECK-NEXT: %i = arith.subi %[[T]], %[[M0]] : index
// CHECK-NEXT: %[[S1:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[D1:.*]] = arith.divui %[[T]], %[[S1]] : index
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[Q1:.*]] = arith.divui %[[D1]], %[[C3]] : index
// CHECK-NEXT: %[[M1:.*]] = arith.muli %[[Q1]], %[[C3]] : index
// CHECK-NEXT: %j = arith.subi %[[D1]], %[[M1]] : index
// CHECK-NEXT: %[[S2:.*]] = arith.constant 6 : index
// CHECK-NEXT: %k = arith.divui %[[T]], %[[S2]] : index
// CHECK-NEXT: %linear = ktdp.get_compute_tile_id : index
// CHECK-NEXT: %a = arith.addi %i, %j : index
// CHECK-NEXT: %b = arith.addi %a, %k : index
// CHECK-NEXT: %c = arith.addi %b, %linear : index
// CHECK-NOT: ktdp.get_compute_tile_id : index, index
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @grid_3d(%X: index) attributes {grid = [2, 3, 4]} {
    %i, %j, %k = ktdp.get_compute_tile_id : index, index, index
    %linear = ktdp.get_compute_tile_id : index
    %a = arith.addi %i, %j : index
    %b = arith.addi %a, %k : index
    %c = arith.addi %b, %linear : index
    func.return
  }
}
