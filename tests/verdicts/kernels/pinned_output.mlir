// Four tiles each double their 32 rows of X; tile 1 alone stores them into core 2's
// scratchpad (at element 0, a tensor the kernel leaves pinned there: a store over the
// ring). The kernel writes no argument: that scratchpad range is its only output.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @pin_only(%X: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c32 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<128x64xf16>
  %S = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>} : memref<32x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %St = ktdp.construct_access_tile %S[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %e = tensor.empty() : tensor<32x64xf16>
  %y = linalg.add ins(%x, %x : tensor<32x64xf16>, tensor<32x64xf16>) outs(%e : tensor<32x64xf16>) -> tensor<32x64xf16>
  %c1 = arith.constant 1 : index
  %one = arith.cmpi eq, %t, %c1 : index
  scf.if %one {
    ktdp.store %y, %St : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  }
  return
}
