// PASS: linear-tile-id
// Three coordinates of a 1-D grid of 8 (the public KTIR interpreter's spelling): the grid
// is seen as [8, 1, 1], so x is the linear tile id (no remainder: no dimension after it
// has more than one tile) and y and z, coordinates of
// dimensions of extent 1, are the constant 0.
// CHECK: func.func @past_the_grid(%X: index) attributes {grid = [8 : i64]} {
// CHECK-NEXT: %[[T:.*]] = ktdp.get_compute_tile_id : index
// CHECK-NEXT: %y = arith.constant 0 : index
// CHECK-NEXT: %z = arith.constant 0 : index
// CHECK-NEXT: %a = arith.addi %[[T]], %y : index
// CHECK-NEXT: %b = arith.addi %a, %z : index
// CHECK-NOT: ktdp.get_compute_tile_id : index, index
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @past_the_grid(%X: index) attributes {grid = [8]} {
    %x, %y, %z = ktdp.get_compute_tile_id : index, index, index
    %a = arith.addi %x, %y : index
    %b = arith.addi %a, %z : index
    func.return
  }
}
