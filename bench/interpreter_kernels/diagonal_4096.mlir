// The diagonal of a 4096x4096 matrix, read through a thin (non-box) access tile and
// written back doubled: 4096 points whose bounding box holds 16.7 million.
#diag = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 - d0 == 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4095 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @diag(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4096, 4096], strides: [4096, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<4096x4096xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4096, 4096], strides: [4096, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<4096x4096xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #diag, access_tile_order = #rm}
      : memref<4096x4096xf16> -> !ktdp.access_tile<4096x4096xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #diag, access_tile_order = #rm}
      : memref<4096x4096xf16> -> !ktdp.access_tile<4096x4096xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4096x4096xindex> -> tensor<4096x4096xf16>
  ktdp.store %x, %Yt : tensor<4096x4096xf16>, !ktdp.access_tile<4096x4096xindex>
  return
}
