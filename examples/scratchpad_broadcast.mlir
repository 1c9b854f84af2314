// Every tile reads a tensor from core 0's scratchpad. Tile 0 first copies X's rows 0..31
// into S, a view in core 0's scratchpad (ct_local, ct_id = 0); then each tile t adds S to
// its rows 32t..32t+31 of X into Y. Tiles 1..3 read S over the ring (the reading core's
// DMA engine moves it into its own scratchpad); tile 0 reads its own.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scratchpad_broadcast(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c32 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %S = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 0>} : memref<32x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %St = ktdp.construct_access_tile %S[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %is0 = arith.cmpi eq, %t, %c0 : index
  scf.if %is0 {
    %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    ktdp.store %x, %St : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  }
  %s = ktdp.load %St : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %x2 = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %e1 = tensor.empty() : tensor<32x64xf16>
  %y = linalg.add ins(%s, %x2 : tensor<32x64xf16>, tensor<32x64xf16>) outs(%e1 : tensor<32x64xf16>) -> tensor<32x64xf16>
  ktdp.store %y, %Yt : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
