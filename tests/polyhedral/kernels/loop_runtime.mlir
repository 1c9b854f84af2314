// Runtime-sized rows, a loop over column blocks, a weight tile invariant along the loop,
// a flat per-tile output (offset %O + tile * 1024), and a store read back by another tile.
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @loopy(%X: index, %W: index, %O: index, %T: index, %n: !ktdp.runtime_arg<index, granularity = 64, upperbound = 512>, %s: i32) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 64, upperbound = 512> -> index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, %N], strides: [%N, 1] {
      coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, s0 - d1 - 1 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<16x?xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [2, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<2x64xf16>
  %off = arith.muli %id, %c1024 : index
  %Obase = arith.addi %O, %off : index
  %Ov = ktdp.construct_memory_view %Obase, sizes: [2, 512], strides: [512, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 511 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<2x512xf16>
  %Tv = ktdp.construct_memory_view %T, sizes: [16, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<16x64xf16>
  %Wt = ktdp.construct_access_tile %Wv[%c0, %c0] {
      access_tile_set = #blk, access_tile_order = #rm } : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
  scf.for %j = %c0 to %N step %c64 {
    %Xt = ktdp.construct_access_tile %Xv[%row0, %j] {
        access_tile_set = #blk, access_tile_order = #rm } : memref<16x?xf16> -> !ktdp.access_tile<2x64xindex>
    %Wt2 = ktdp.construct_access_tile %Wv[%c0, %c0] {
        access_tile_set = #blk, access_tile_order = #rm } : memref<2x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %w = ktdp.load %Wt2 : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %Ot = ktdp.construct_access_tile %Ov[%c0, %j] {
        access_tile_set = #blk, access_tile_order = #rm } : memref<2x512xf16> -> !ktdp.access_tile<2x64xindex>
    ktdp.store %x, %Ot : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  }
  %Tt = ktdp.construct_access_tile %Tv[%row0, %c0] {
      access_tile_set = #blk, access_tile_order = #rm } : memref<16x64xf16> -> !ktdp.access_tile<2x64xindex>
  %w0 = ktdp.load %Wt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  ktdp.store %w0, %Tt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  %c7 = arith.constant 7 : index
  %nb = arith.subi %c7, %id : index
  %nrow = arith.muli %nb, %c2 : index
  %Tr = ktdp.construct_access_tile %Tv[%nrow, %c0] {
      access_tile_set = #blk, access_tile_order = #rm } : memref<16x64xf16> -> !ktdp.access_tile<2x64xindex>
  %back = ktdp.load %Tr : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  return
}
