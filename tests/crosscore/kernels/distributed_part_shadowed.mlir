// A distributed view whose first part (an 8x32 array, columns 0..31) holds every column
// of its second (columns 16..31): a coordinate goes to the first view whose set holds it,
// so the schedule never reads A1 and the job plan lists it as a plain scalar. The memory
// the caller gives for A1 is placed all the same (its offset is the argument's value); the
// copy reads A0, A2 and A3.
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 16, -d1 + 31 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 32, -d1 + 47 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 48, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @shadowed_part(%A0: index, %A1: index, %A2: index, %A3: index, %B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c4 : index
  %A0v = ktdp.construct_memory_view %A0, sizes: [8, 32], strides: [32, 1] {
      coordinate_set = #part0, memory_space = #ktdp.memory_space<global>} : memref<8x32xf16>
  %A1v = ktdp.construct_memory_view %A1, sizes: [8, 16], strides: [16, 1] {
      coordinate_set = #part1, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %A2v = ktdp.construct_memory_view %A2, sizes: [8, 16], strides: [16, 1] {
      coordinate_set = #part2, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %A3v = ktdp.construct_memory_view %A3, sizes: [8, 16], strides: [16, 1] {
      coordinate_set = #part3, memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %A = ktdp.construct_distributed_memory_view (%A0v, %A1v, %A2v, %A3v : memref<8x32xf16>, memref<8x16xf16>, memref<8x16xf16>, memref<8x16xf16>) : memref<8x64xf16>
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
