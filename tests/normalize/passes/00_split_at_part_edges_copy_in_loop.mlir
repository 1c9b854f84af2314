// PASS: split-at-part-edges
// A copy loop whose tiles straddle two of four column arrays at their column 16, at a
// column that depends on the loop and the tile id: each copy is cut there (one load and
// one store per piece, at the same columns of its tile), then the loop is split where
// the pieces change array (at 32).
// CHECK: scf.for %off = %c0 to %c32_1 step %c32 {
// CHECK-NEXT: %At = ktdp.construct_access_tile %A[%row, %off] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>
// CHECK-NEXT: %x = ktdp.load %At : <4x16xindex> -> tensor<4x16xf16>
// CHECK-NEXT: %At_1 = ktdp.construct_access_tile %A[%row, %off + 16]
// CHECK-NEXT: %x_1 = ktdp.load %At_1 : <4x16xindex> -> tensor<4x16xf16>
// CHECK-NEXT: %Bt = ktdp.construct_access_tile %Bv[%row, %off]
// CHECK-NEXT: ktdp.store %x, %Bt :
// CHECK-NEXT: %Bt_1 = ktdp.construct_access_tile %Bv[%row, %off + 16]
// CHECK-NEXT: ktdp.store %x_1, %Bt_1 :
// CHECK: scf.for %off_1 = %c32_1 to %c64 step %c32 {
// CHECK-NEXT: %At_2 = ktdp.construct_access_tile %A[%row, %off_1]
// CHECK-NEXT: %x_2 = ktdp.load %At_2 : <4x16xindex> -> tensor<4x16xf16>
// CHECK-NEXT: %At_3 = ktdp.construct_access_tile %A[%row, %off_1 + 16]
// CHECK-NOT: scf.for
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 16, -d1 + 31 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 32, -d1 + 47 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 48, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @straddle_in_loop(%A0: index, %A1: index, %A2: index, %A3: index, %B: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c4 : index
    %A0v = ktdp.construct_memory_view %A0, sizes: [8, 16], strides: [16, 1] {
        coordinate_set = #part0, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %A1v = ktdp.construct_memory_view %A1, sizes: [8, 16], strides: [16, 1] {
        coordinate_set = #part1, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %A2v = ktdp.construct_memory_view %A2, sizes: [8, 16], strides: [16, 1] {
        coordinate_set = #part2, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %A3v = ktdp.construct_memory_view %A3, sizes: [8, 16], strides: [16, 1] {
        coordinate_set = #part3, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
    %A = ktdp.construct_distributed_memory_view (%A0v, %A1v, %A2v, %A3v : memref<8x16xf16>, memref<8x16xf16>, memref<8x16xf16>, memref<8x16xf16>) : memref<8x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [8, 64], strides: [64, 1] {
        coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    scf.for %off = %c0 to %c64 step %c32 {
      %At = ktdp.construct_access_tile %A[%row, %off] {access_tile_set = #tile, access_tile_order = #id2}
          : memref<8x64xf16> -> !ktdp.access_tile<4x32xindex>
      %Bt = ktdp.construct_access_tile %Bv[%row, %off] {access_tile_set = #tile, access_tile_order = #id2}
          : memref<8x64xf16> -> !ktdp.access_tile<4x32xindex>
      %x = ktdp.load %At : !ktdp.access_tile<4x32xindex> -> tensor<4x32xf16>
      ktdp.store %x, %Bt : tensor<4x32xf16>, !ktdp.access_tile<4x32xindex>
    }
    return
  }
}
