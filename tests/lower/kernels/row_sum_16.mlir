// S[i] = sum_j X[i, j] over a 64x512 f16 tensor, accumulated in f32 and rounded to f16
// once: examples/row_sum.mlir with 4 compute tiles of 16 rows (tests/lower/row_sum_rotating_in_parallel.ktdf.mlir).
#rows16 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#sixteen = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @row_sum(%X: index, %S: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c16 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows16, access_tile_order = #id2}
      : memref<64x512xf16> -> !ktdp.access_tile<16x512xindex>
  %St = ktdp.construct_access_tile %Sv[%row] {access_tile_set = #sixteen, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<16xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<16x512xindex> -> tensor<16x512xf16>
  %acc0 = tensor.empty() : tensor<16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<16x512xf16>) outs(%acc : tensor<16xf32>) {
  ^bb0(%xe: f16, %a: f32):
    %w = arith.extf %xe : f16 to f32
    %s = arith.addf %w, %a : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %h0 = tensor.empty() : tensor<16xf16>
  %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<16xf32>) outs(%h0 : tensor<16xf16>) {
  ^bb0(%se: f32, %o: f16):
    %n = arith.truncf %se : f32 to f16
    linalg.yield %n : f16
  } -> tensor<16xf16>
  ktdp.store %h, %St : tensor<16xf16>, !ktdp.access_tile<16xindex>
  return
}
