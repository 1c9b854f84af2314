// DEVICE: tests/lower/devices/sample_one_dma.mlir
// A copy, then a doubled copy, on a device whose one DMA engine both fills the scratchpad
// and drains it: each pipeline's fill and drain are stages of that one engine, and its
// drain must wait for the fill's data to land (a token between the stages; without it
// the drain read the buffer before the fill's write landed: every element poison).
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @copy_one_dma(%X: index, %Y: index, %Z: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Zv = ktdp.construct_memory_view %Z, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Zt = ktdp.construct_access_tile %Zv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  ktdp.store %x, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  %x2 = ktdp.load %Xt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf16>
  %d = linalg.add ins(%x2, %x2 : tensor<64x64xf16>, tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
  ktdp.store %d, %Zt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  return
}
