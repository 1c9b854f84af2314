// C = A + B on a 128x256 f16 tensor over a 4x8 grid: tile (r, c) owns rows 32r..32r+31 and
// columns 32c..32c+31 (KTIR numbers tiles with the first grid dimension fastest).
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @add2d(%A: index, %B: index, %C: index) attributes {grid = [4, 8]} {
  %c32 = arith.constant 32 : index
  %r, %c = ktdp.get_compute_tile_id : index, index
  %row = arith.muli %r, %c32 : index
  %col = arith.muli %c, %c32 : index
  %Av = ktdp.construct_memory_view %A, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [128, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
  %At = ktdp.construct_access_tile %Av[%row, %col] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<32x32xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row, %col] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<32x32xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row, %col] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<128x256xf16> -> !ktdp.access_tile<32x32xindex>
  %a = ktdp.load %At : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
  %e = tensor.empty() : tensor<32x32xf16>
  %s = linalg.add ins(%a, %b : tensor<32x32xf16>, tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) -> tensor<32x32xf16>
  ktdp.store %s, %Ct : tensor<32x32xf16>, !ktdp.access_tile<32x32xindex>
  return
}
