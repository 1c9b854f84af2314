// Column-sharded tensors in device memory: X and Y (16x128 f16) are each written as two
// distributed-view parts, columns 0..63 at the pointer and columns 64..127 64 elements
// further (windows of one row-major tensor). Tile t doubles its half of the columns.
#cols0 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cols1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 64, -d1 + 127 >= 0)>
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @column_sharded(%X: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %col = arith.muli %t, %c64 : index
  %X1 = arith.addi %X, %c64 : index
  %Y1 = arith.addi %Y, %c64 : index
  %Xp0 = ktdp.construct_memory_view %X, sizes: [16, 64], strides: [128, 1] {
      coordinate_set = #cols0, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Xp1 = ktdp.construct_memory_view %X1, sizes: [16, 64], strides: [128, 1] {
      coordinate_set = #cols1, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Xv = ktdp.construct_distributed_memory_view (%Xp0, %Xp1 : memref<16x64xf16>, memref<16x64xf16>) : memref<16x128xf16>
  %Yp0 = ktdp.construct_memory_view %Y, sizes: [16, 64], strides: [128, 1] {
      coordinate_set = #cols0, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Yp1 = ktdp.construct_memory_view %Y1, sizes: [16, 64], strides: [128, 1] {
      coordinate_set = #cols1, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
  %Yv = ktdp.construct_distributed_memory_view (%Yp0, %Yp1 : memref<16x64xf16>, memref<16x64xf16>) : memref<16x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %col] {access_tile_set = #half, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<16x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %col] {access_tile_set = #half, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<16x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<16x64xindex> -> tensor<16x64xf16>
  %e = tensor.empty() : tensor<16x64xf16>
  %y = linalg.add ins(%x, %x : tensor<16x64xf16>, tensor<16x64xf16>) outs(%e : tensor<16x64xf16>) -> tensor<16x64xf16>
  ktdp.store %y, %Yt : tensor<16x64xf16>, !ktdp.access_tile<16x64xindex>
  return
}
