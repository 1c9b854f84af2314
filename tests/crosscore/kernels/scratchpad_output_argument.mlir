// P (4x64 f16) is an output the caller expects in core 2's scratchpad (a ct_local view
// on a pointer argument): the compiler chooses the offset, every tile t stores row t of
// 2*X into it (tiles 0, 1 and 3 across the ring) and the runtime reads it back there.
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @scratchpad_output_argument(%X: index, %P: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Pv = ktdp.construct_memory_view %P, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<4x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Pt = ktdp.construct_access_tile %Pv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %d = linalg.add ins(%x, %x : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
  ktdp.store %d, %Pt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
