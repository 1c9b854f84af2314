// Y[i] = X[i] + X[i] for the first N rows and Y[N + i] = X[i] * X[i] for the next N, with N
// a run-time argument (a multiple of 32, at most 128). The second store's row is (2N) / 2 + i:
// the division is not affine, so the unit computes it from a "shape" symbol (2N) evaluated
// at every launch; Y's shape is [2N, 64], an expression of N in the job plan.
#rows = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @runtime_halves(%X: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 32, upperbound = 128>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 32, upperbound = 128> -> index
  %N2 = arith.muli %N, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [%N, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [%N2, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  scf.for %i = %c0 to %N step %c32 {
    %h = arith.divui %N2, %c2 : index
    %j = arith.addi %h, %i : index
    %Xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_set = #block, access_tile_order = #id2}
        : memref<?x64xf16> -> !ktdp.access_tile<32x64xindex>
    %Y0 = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_set = #block, access_tile_order = #id2}
        : memref<?x64xf16> -> !ktdp.access_tile<32x64xindex>
    %Y1 = ktdp.construct_access_tile %Yv[%j, %c0] {access_tile_set = #block, access_tile_order = #id2}
        : memref<?x64xf16> -> !ktdp.access_tile<32x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
    %e = tensor.empty() : tensor<32x64xf16>
    %s = linalg.add ins(%x, %x : tensor<32x64xf16>, tensor<32x64xf16>) outs(%e : tensor<32x64xf16>) -> tensor<32x64xf16>
    ktdp.store %s, %Y0 : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
    %f = tensor.empty() : tensor<32x64xf16>
    %p = linalg.mul ins(%x, %x : tensor<32x64xf16>, tensor<32x64xf16>) outs(%f : tensor<32x64xf16>) -> tensor<32x64xf16>
    ktdp.store %p, %Y1 : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  }
  return
}
