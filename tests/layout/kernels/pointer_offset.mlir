// Y = (first 64 elements of X) + (the next 64) as 8x8 f16 tensors, stored 8 elements past
// %Y: views on a pointer plus an offset (`arith.addi %X, %c64`). %X's memory is 128
// elements, %Y's 72 (its first 8 belong to no view). Tile t computes rows 4t..4t+3.
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @pointer_offset(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c4 : index
  %X64 = arith.addi %X, %c64 : index
  %Y8 = arith.addi %Y, %c8 : index
  %Lv = ktdp.construct_memory_view %X, sizes: [8, 8], strides: [8, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %Hv = ktdp.construct_memory_view %X64, sizes: [8, 8], strides: [8, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %Yv = ktdp.construct_memory_view %Y8, sizes: [8, 8], strides: [8, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %Lt = ktdp.construct_access_tile %Lv[%row0, %c0] {
      access_tile_set = #rows4, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %Ht = ktdp.construct_access_tile %Hv[%row0, %c0] {
      access_tile_set = #rows4, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row0, %c0] {
      access_tile_set = #rows4, access_tile_order = #rm } : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %l = ktdp.load %Lt : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %h = ktdp.load %Ht : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %e = tensor.empty() : tensor<4x8xf16>
  %y = linalg.add ins(%l, %h : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  ktdp.store %y, %Yt : tensor<4x8xf16>, !ktdp.access_tile<4x8xindex>
  return
}
