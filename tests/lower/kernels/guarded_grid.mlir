// On a 4x8 grid over a 128x256 f16 tensor (tile (r, c): rows 32r.., columns 32c..), tiles in
// the first three column blocks compute C = A + B, the others C = A - B: an scf.if on a tile
// coordinate with an else branch. Each branch is its own program; each launches on the cores
// where its side of the condition holds.
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @guarded_grid(%A: index, %B: index, %C: index) attributes {grid = [4, 8]} {
  %c3 = arith.constant 3 : index
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
  %left = arith.cmpi ult, %c, %c3 : index
  scf.if %left {
    %a = ktdp.load %At : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
    %e = tensor.empty() : tensor<32x32xf16>
    %s = linalg.add ins(%a, %b : tensor<32x32xf16>, tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) -> tensor<32x32xf16>
    ktdp.store %s, %Ct : tensor<32x32xf16>, !ktdp.access_tile<32x32xindex>
  } else {
    %a = ktdp.load %At : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
    %e = tensor.empty() : tensor<32x32xf16>
    %d = linalg.sub ins(%a, %b : tensor<32x32xf16>, tensor<32x32xf16>) outs(%e : tensor<32x32xf16>) -> tensor<32x32xf16>
    ktdp.store %d, %Ct : tensor<32x32xf16>, !ktdp.access_tile<32x32xindex>
  }
  return
}
