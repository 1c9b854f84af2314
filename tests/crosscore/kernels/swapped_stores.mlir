// Four tiles square their 32 rows of X: tiles 1 and 2 store them into each other's part
// of a distributed view S (one 32-row part per core's scratchpad), tiles 0 and 3 into
// their own, the partner chosen by `arith.select` on the tile id; each reads its squares
// back from there and adds its rows: Y = X^2 + X. Core k's part then holds the squares of
// tile (0, 2, 1, 3)[k]'s rows (the scratchpads are outputs too).
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part1 = affine_set<(d0, d1) : (d0 >= 32, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part2 = affine_set<(d0, d1) : (d0 >= 64, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#part3 = affine_set<(d0, d1) : (d0 >= 96, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @swapped_stores(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c32 : index
  %c2 = arith.constant 2 : index
  %is1 = arith.cmpi eq, %t, %c1 : index
  %is2 = arith.cmpi eq, %t, %c2 : index
  %s2 = arith.select %is2, %c1, %t : index
  %next = arith.select %is1, %c2, %s2 : index
  %nrow = arith.muli %next, %c32 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %S0 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #part0, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
  %S1 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #part1, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32x64xf16>
  %S2 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #part2, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<32x64xf16>
  %S3 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #part3, memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<32x64xf16>
  %S = ktdp.construct_distributed_memory_view (%S0, %S1, %S2, %S3 : memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>) : memref<128x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %Sn = ktdp.construct_access_tile %S[%nrow, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %e0 = tensor.empty() : tensor<32x64xf16>
  %sq = linalg.mul ins(%x, %x : tensor<32x64xf16>, tensor<32x64xf16>) outs(%e0 : tensor<32x64xf16>) -> tensor<32x64xf16>
  ktdp.store %sq, %Sn : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  %s = ktdp.load %Sn : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %x2 = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %e1 = tensor.empty() : tensor<32x64xf16>
  %y = linalg.add ins(%s, %x2 : tensor<32x64xf16>, tensor<32x64xf16>) outs(%e1 : tensor<32x64xf16>) -> tensor<32x64xf16>
  ktdp.store %y, %Yt : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
