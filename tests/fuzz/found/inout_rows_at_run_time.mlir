// Over a run-time number of rows (a multiple of 7, at most 14): T = X * X, then Y = T + X;
// T is written and read again (inout). Found by spyre-sched fuzz (seed 11, a row sum kept
// in device memory for a later program): run makes T's input array at the upper bound,
// 14 rows; the emulator read back all 14 and the reference only the rows its views
// reached at n = 7, so every launch below the bound compared arrays of two shapes. The
// array given for an argument is the memory read back, whole, in both executors.
func.func @inout_rows(%X: index, %T: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 7, upperbound = 14>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 7, upperbound = 14> -> index
  %Xv = ktdp.construct_memory_view %X, sizes: [%N, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Tv = ktdp.construct_memory_view %T, sizes: [%N, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [%N, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %i = %c0 to %N step %c7 {
    %Xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf16> -> !ktdp.access_tile<7x64xindex>
    %Tt = ktdp.construct_access_tile %Tv[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf16> -> !ktdp.access_tile<7x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 6 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<?x64xf16> -> !ktdp.access_tile<7x64xindex>
    // program 0
    %x = ktdp.load %Xt : !ktdp.access_tile<7x64xindex> -> tensor<7x64xf16>
    %e = tensor.empty() : tensor<7x64xf16>
    %neg = linalg.mul ins(%x, %x : tensor<7x64xf16>, tensor<7x64xf16>) outs(%e : tensor<7x64xf16>) -> tensor<7x64xf16>
    ktdp.store %neg, %Tt : tensor<7x64xf16>, !ktdp.access_tile<7x64xindex>
    // program 1
    %t = ktdp.load %Tt : !ktdp.access_tile<7x64xindex> -> tensor<7x64xf16>
    %x2 = ktdp.load %Xt : !ktdp.access_tile<7x64xindex> -> tensor<7x64xf16>
    %e2 = tensor.empty() : tensor<7x64xf16>
    %s = linalg.add ins(%t, %x2 : tensor<7x64xf16>, tensor<7x64xf16>) outs(%e2 : tensor<7x64xf16>) -> tensor<7x64xf16>
    ktdp.store %s, %Yt : tensor<7x64xf16>, !ktdp.access_tile<7x64xindex>
  }
  return
}
