// A paged read as Triton's paged attention writes it: each of 4 tiles (one KV head)
// walks the 4 pages of a block table, gathers page j's 16 slots of its head as a
// [1, 16, 1, 64] tile (the page through ind(), the head a direct subscript), collapses it
// to [16, 64], scales it and stores it as rows 16j.. of its head's output. The collapse
// only drops dimensions of extent 1, so it is a load of the same gather in that shape.
#cache = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 3 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 3 >= 0)>
#page = affine_set<(d0, d1, d2, d3) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 >= 0, d3 >= 0, -d3 + 63 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#o4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @gathered_page_reshape(%K: index, %BT: index, %O: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f16
  %h = ktdp.get_compute_tile_id : index
  %Kv = ktdp.construct_memory_view %K, sizes: [8, 16, 4, 64], strides: [4096, 256, 64, 1] {
      coordinate_set = #cache, memory_space = #ktdp.memory_space<global> } : memref<8x16x4x64xf16>
  %Bv = ktdp.construct_memory_view %BT, sizes: [1, 4], strides: [4, 1] {
      coordinate_set = #table, memory_space = #ktdp.memory_space<global> } : memref<1x4xi32>
  %Ov = ktdp.construct_memory_view %O, sizes: [256, 64], strides: [64, 1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global> } : memref<256x64xf16>
  %hrow = arith.muli %h, %c64 : index
  scf.for %j = %c0 to %c4 step %c1 {
    %Kt = ktdp.construct_indirect_access_tile intermediate_variables(%d0, %d1, %d2, %d3)
        %Kv[ind(%Bv[%c0, %j + %d0]), (%d1), (%h + %d2), (%d3)] {
        variables_space_set = #page, variables_space_order = #o4 }
        : memref<8x16x4x64xf16>, memref<1x4xi32> -> !ktdp.access_tile<1x16x1x64xindex>
    %k4 = ktdp.load %Kt : !ktdp.access_tile<1x16x1x64xindex> -> tensor<1x16x1x64xf16>
    %k = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<1x16x1x64xf16> into tensor<16x64xf16>
    %e = tensor.empty() : tensor<16x64xf16>
    %y = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
        ins(%k : tensor<16x64xf16>) outs(%e : tensor<16x64xf16>) {
      ^bb0(%a: f16, %o: f16):
        %m = arith.mulf %a, %two : f16
        linalg.yield %m : f16
    } -> tensor<16x64xf16>
    %jrow = arith.muli %j, %c16 : index
    %row = arith.addi %hrow, %jrow : index
    %Ot = ktdp.construct_access_tile %Ov[%row, %c0] {
        access_tile_set = #rows, access_tile_order = #o2 } : memref<256x64xf16> -> !ktdp.access_tile<16x64xindex>
    ktdp.store %y, %Ot : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  }
  return
}
