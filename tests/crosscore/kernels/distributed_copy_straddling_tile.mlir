// A tensor whose rows 0..7 and 8..15 are two arrays; rows 4..11 are copied in one tile,
// which straddles the two. `split-at-part-edges` cuts the copy at row 8: rows 4..7 from
// the first array, 8..11 from the second, each stored at the same rows of B.
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 8, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @straddle(%A0: index, %A1: index, %B: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %A0v = ktdp.construct_memory_view %A0, sizes: [8, 32], strides: [32, 1] {
      coordinate_set = #part0, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %A1v = ktdp.construct_memory_view %A1, sizes: [8, 32], strides: [32, 1] {
      coordinate_set = #part1, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %A = ktdp.construct_distributed_memory_view (%A0v, %A1v : memref<8x32xf16>, memref<8x32xf16>) : memref<16x32xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [16, 32], strides: [32, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x32xf16>
  %At = ktdp.construct_access_tile %A[%c4, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<16x32xf16> -> !ktdp.access_tile<8x32xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c4, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<16x32xf16> -> !ktdp.access_tile<8x32xindex>
  %x = ktdp.load %At : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf16>
  ktdp.store %x, %Bt : tensor<8x32xf16>, !ktdp.access_tile<8x32xindex>
  return
}
