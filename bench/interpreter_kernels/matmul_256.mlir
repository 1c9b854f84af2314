// C = A @ B, 256x256 by 256x256 f16, one tile: linalg.matmul's 16.7-million-point domain.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [256, 256], strides: [256, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<256x256xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [256, 256], strides: [256, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<256x256xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [256, 256], strides: [256, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<256x256xf16>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<256x256xf16> -> !ktdp.access_tile<256x256xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<256x256xf16> -> !ktdp.access_tile<256x256xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<256x256xf16> -> !ktdp.access_tile<256x256xindex>
  %a = ktdp.load %At : !ktdp.access_tile<256x256xindex> -> tensor<256x256xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<256x256xindex> -> tensor<256x256xf16>
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x256xf16>
  %acc = linalg.fill ins(%z : f16) outs(%e : tensor<256x256xf16>) -> tensor<256x256xf16>
  %c = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%acc : tensor<256x256xf16>) -> tensor<256x256xf16>
  ktdp.store %c, %Ct : tensor<256x256xf16>, !ktdp.access_tile<256x256xindex>
  return
}
