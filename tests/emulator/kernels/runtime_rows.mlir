// Y = X + X over a run-time number of rows N (a multiple of 64, at most 256), 64 rows per
// loop iteration; the views' coordinate sets take N as their symbol.
#all = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @runtime_rows(%X: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 64, upperbound = 256>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 64, upperbound = 256> -> index
  %Xv = ktdp.construct_memory_view %X, sizes: [%N, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [%N, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %i = %c0 to %N step %c64 {
    %Xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_set = #block, access_tile_order = #id2}
        : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_set = #block, access_tile_order = #id2}
        : memref<?x64xf16> -> !ktdp.access_tile<64x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
    %e = tensor.empty() : tensor<64x64xf16>
    %y = linalg.add ins(%x, %x : tensor<64x64xf16>, tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) -> tensor<64x64xf16>
    ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  }
  return
}
