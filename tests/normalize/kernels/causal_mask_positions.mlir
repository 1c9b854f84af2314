// A causal mask as Triton writes it: the body computes each element's row and column
// from `linalg.index`, with index values from outside it (the tile's first query
// position from the tile id, the column block's start from a loop counter), and chooses
// between the score and -inf by `arith.cmpi` on index arithmetic (divui, muli, addi).
// Rows are 4 heads per query position: query position = 40 + 2 * tile + row / 4.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @causal_mask_positions(%S: index, %Y: index) attributes {grid = [4]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %context = arith.constant 40 : index
  %ninf_bits = arith.constant 0xFF800000 : i32
  %ninf = arith.bitcast %ninf_bits : i32 to f32
  %row0 = arith.muli %pid, %c8 : index
  %qbase = arith.muli %pid, %c2 : index
  %Sv = ktdp.construct_memory_view %S, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<32x64xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<32x64xf32>
  scf.for %j = %c0 to %c2 step %c1 {
    %col0 = arith.muli %j, %c32 : index
    %St = ktdp.construct_access_tile %Sv[%row0, %col0] {access_tile_set = #block, access_tile_order = #o2}
        : memref<32x64xf32> -> !ktdp.access_tile<8x32xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row0, %col0] {access_tile_set = #block, access_tile_order = #o2}
        : memref<32x64xf32> -> !ktdp.access_tile<8x32xindex>
    %s = ktdp.load %St : !ktdp.access_tile<8x32xindex> -> tensor<8x32xf32>
    %empty = tensor.empty() : tensor<8x32xf32>
    %masked = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]}
        ins(%s : tensor<8x32xf32>) outs(%empty : tensor<8x32xf32>) {
      ^bb0(%v: f32, %out: f32):
        %row = linalg.index 0 : index
        %col = linalg.index 1 : index
        %head_group = arith.divui %row, %c4 : index
        %qpos = arith.addi %qbase, %head_group : index
        %qabs = arith.addi %context, %qpos : index
        %j_x32 = arith.muli %j, %c32 : index
        %key = arith.addi %j_x32, %col : index
        %visible = arith.cmpi ule, %key, %qabs : index
        %r = arith.select %visible, %v, %ninf : f32
        linalg.yield %r : f32
    } -> tensor<8x32xf32>
    ktdp.store %masked, %Yt : tensor<8x32xf32>, !ktdp.access_tile<8x32xindex>
  }
  return
}
