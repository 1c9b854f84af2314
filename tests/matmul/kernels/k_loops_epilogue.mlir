// C[b] = (A[b] @ B[b]) * (A[b] @ U[b]) + E[b] for 2 batches (f16 operands, f32 sums and
// epilogue), each tile one batch's 16-row block: two K loops carry 1x16x16 accumulators
// through `linalg.batch_matmul` (as in batch_of_one_k_loop), and an elementwise epilogue
// (the product of the two sums plus a loaded tile, a gated FFN's shape) runs after them
// on the 1x16x16 sums. The normal form carries the sums 16x16 and leaves each a reshape
// after its loop; that reshape cannot move into the loop, so it moves down through the
// epilogue to the store (layout-through-elementwise), E's tile loaded as 16x16.
#a_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#b_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#c_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 31 >= 0)>
#slice = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0, d2 >= 0, -d2 + 15 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func @k_loops_epilogue(%A: index, %B: index, %U: index, %E: index, %C: index) attributes {grid = [4]} {
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
  %Uv = ktdp.construct_memory_view %U, sizes: [2, 64, 32], strides: [2048, 32, 1] {
      coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<2x64x32xf16>
  %Ev = ktdp.construct_memory_view %E, sizes: [2, 32, 32], strides: [1024, 32, 1] {
      coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<2x32x32xf32>
  %Cv = ktdp.construct_memory_view %C, sizes: [2, 32, 32], strides: [1024, 32, 1] {
      coordinate_set = #c_all, memory_space = #ktdp.memory_space<global>} : memref<2x32x32xf32>
  scf.for %col = %c0 to %c32 step %c16 {
    %gate = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (tensor<1x16x16xf32>) {
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
    %up = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %zero) -> (tensor<1x16x16xf32>) {
      %At = ktdp.construct_access_tile %Av[%batch, %row, %k] {access_tile_set = #slice, access_tile_order = #id3}
          : memref<2x32x64xf16> -> !ktdp.access_tile<1x16x16xindex>
      %Ut = ktdp.construct_access_tile %Uv[%batch, %k, %col] {access_tile_set = #slice, access_tile_order = #id3}
          : memref<2x64x32xf16> -> !ktdp.access_tile<1x16x16xindex>
      %a = ktdp.load %At : !ktdp.access_tile<1x16x16xindex> -> tensor<1x16x16xf16>
      %u = ktdp.load %Ut : !ktdp.access_tile<1x16x16xindex> -> tensor<1x16x16xf16>
      %next = linalg.batch_matmul ins(%a, %u : tensor<1x16x16xf16>, tensor<1x16x16xf16>)
          outs(%acc : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
      scf.yield %next : tensor<1x16x16xf32>
    }
    %Et = ktdp.construct_access_tile %Ev[%batch, %row, %col] {access_tile_set = #slice, access_tile_order = #id3}
        : memref<2x32x32xf32> -> !ktdp.access_tile<1x16x16xindex>
    %e = ktdp.load %Et : !ktdp.access_tile<1x16x16xindex> -> tensor<1x16x16xf32>
    %p = arith.mulf %gate, %up : tensor<1x16x16xf32>
    %q = arith.addf %p, %e : tensor<1x16x16xf32>
    %Ct = ktdp.construct_access_tile %Cv[%batch, %row, %col] {access_tile_set = #slice, access_tile_order = #id3}
        : memref<2x32x32xf32> -> !ktdp.access_tile<1x16x16xindex>
    ktdp.store %q, %Ct : tensor<1x16x16xf32>, !ktdp.access_tile<1x16x16xindex>
  }
  return
}
