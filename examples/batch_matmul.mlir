// Four independent products C[b] = A[b] @ B[b] (b = 0..3, 32x64 times 64x64, f16 in, f32
// accumulation), one per tile: tile t multiplies batch t with `linalg.batch_matmul` on a
// 1x32x64 by 1x64x64 slice. The normal form turns the batch into 2-D matmuls on 2-D
// views of the same memory (`batch-matmul-to-matmuls`), which the matrix unit runs.
#a_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#b_all = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#a_one = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 31 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#b_one = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

func.func @batch_matmul(%A: index, %B: index, %C: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %Av = ktdp.construct_memory_view %A, sizes: [4, 32, 64], strides: [2048, 64, 1] {
      coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<4x32x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64, 64], strides: [4096, 64, 1] {
      coordinate_set = #b_all, memory_space = #ktdp.memory_space<global>} : memref<4x64x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [4, 32, 64], strides: [2048, 64, 1] {
      coordinate_set = #a_all, memory_space = #ktdp.memory_space<global>} : memref<4x32x64xf32>
  %At = ktdp.construct_access_tile %Av[%t, %c0, %c0] {access_tile_set = #a_one, access_tile_order = #id3}
      : memref<4x32x64xf16> -> !ktdp.access_tile<1x32x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%t, %c0, %c0] {access_tile_set = #b_one, access_tile_order = #id3}
      : memref<4x64x64xf16> -> !ktdp.access_tile<1x64x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%t, %c0, %c0] {access_tile_set = #a_one, access_tile_order = #id3}
      : memref<4x32x64xf32> -> !ktdp.access_tile<1x32x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<1x32x64xindex> -> tensor<1x32x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<1x64x64xindex> -> tensor<1x64x64xf16>
  %e = tensor.empty() : tensor<1x32x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<1x32x64xf16>, tensor<1x64x64xf16>)
      outs(%acc : tensor<1x32x64xf32>) -> tensor<1x32x64xf32>
  ktdp.store %c, %Ct : tensor<1x32x64xf32>, !ktdp.access_tile<1x32x64xindex>
  return
}
