// A copy loop over a tensor whose columns 0..31 and 32..63 are two arrays: each iteration
// reads one part, the loop both. Split at column 32: the first loop runs 0..32, the second
// 32..64 (`split-at-part-edges`); each loop then reads its own part's view.
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 32, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @copy(%A0: index, %A1: index, %B: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %A0v = ktdp.construct_memory_view %A0, sizes: [8, 32], strides: [32, 1] {
      coordinate_set = #part0, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %A1v = ktdp.construct_memory_view %A1, sizes: [8, 32], strides: [32, 1] {
      coordinate_set = #part1, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %A = ktdp.construct_distributed_memory_view (%A0v, %A1v : memref<8x32xf16>, memref<8x32xf16>) : memref<8x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  scf.for %off = %c0 to %c64 step %c16 {
    %At = ktdp.construct_access_tile %A[%c0, %off] {access_tile_set = #tile, access_tile_order = #id2}
        : memref<8x64xf16> -> !ktdp.access_tile<8x16xindex>
    %Bt = ktdp.construct_access_tile %Bv[%c0, %off] {access_tile_set = #tile, access_tile_order = #id2}
        : memref<8x64xf16> -> !ktdp.access_tile<8x16xindex>
    %x = ktdp.load %At : !ktdp.access_tile<8x16xindex> -> tensor<8x16xf16>
    ktdp.store %x, %Bt : tensor<8x16xf16>, !ktdp.access_tile<8x16xindex>
  }
  return
}
