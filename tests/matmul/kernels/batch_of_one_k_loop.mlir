// C[b] = A[b] @ B[b] for 2 batches of 32x64 by 64x32 (f16 in, f32 sums), each tile one
// batch's 16-row block: for each 16-column block of C, a K loop of four 16-deep steps
// carries a 1x16x16 accumulator through `linalg.batch_matmul` on 1x16x16 slices (the
// spelling of a kernel that walks the batch itself). The normal form makes it the 2-D
// matmul between reshapes (batch-matmul-to-matmuls), carries the accumulator 16x16
// (reshape-through-loops) and takes the reshapes into the accesses (reshape-to-access).
#a_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#b_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#c_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#slice = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func @batch_of_one_k_loop(%A: index, %B: index, %C: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : tensor<1x16x16xf32>
  %t = ktdp.get_compute_tile_id : index
  %batch = arith.divui %t, %c2 : index
  %half = arith.remui %t, %c2 : index
  %row = arith.muli %half, %c16 : index
  %Av = ktdp.construct_memory_view %A, sizes: [2, 32, 64], strides: [2048, 64, 1] {
      coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<2x32x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [2, 64, 32], strides: [2048, 32, 1] {
      coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<2x64x32xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [2, 32, 32], strides: [1024, 32, 1] {
      coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<2x32x32xf32>
  scf.for %col = %c0 to %c32 step %c16 {
    %sum = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (tensor<1x16x16xf32>) {
      %At = ktdp.construct_access_tile %Av[%batch, %row, %k] {access_tile_set = #slice, access_tile_order = #id3}
          : memref<2x32x64xf16> -> !ktdp.access_tile<1x16x16xindex>
      %Bt = ktdp.construct_access_tile %Bv[%batch, %k, %col] {access_tile_set = #slice, access_tile_order = #id3}
          : memref<2x64x32xf16> -> !ktdp.access_tile<1x16x16xindex>
      %a = ktdp.load %At : !ktdp.access_tile<1x16x16xindex> -> tensor<1x16x16xf16>
      %b = ktdp.load %Bt : !ktdp.access_tile<1x16x16xindex> -> tensor<1x16x16xf16>
      %next = linalg.batch_matmul ins(%a, %b : tensor<1x16x16xf16>, tensor<1x16x16xf16>)
          outs(%acc : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
      scf.yield %next : tensor<1x16x16xf32>
    }
    %Ct = ktdp.construct_access_tile %Cv[%batch, %row, %col] {access_tile_set = #slice, access_tile_order = #id3}
        : memref<2x32x32xf32> -> !ktdp.access_tile<1x16x16xindex>
    ktdp.store %sum, %Ct : tensor<1x16x16xf32>, !ktdp.access_tile<1x16x16xindex>
  }
  return
}
