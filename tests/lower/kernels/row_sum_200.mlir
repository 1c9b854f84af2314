// S[i] = sum_j X[i, j] over an 8x200 f16 tensor, accumulated in f32: 200 = 3 x 64 + 8, so
// the last vector of each row has 8 valid lanes (the padding lanes must not enter the sum).
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 199 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 199 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @row_sum(%X: index, %S: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 200], strides: [200, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x200xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [8], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<8x200xf16> -> !ktdp.access_tile<2x200xindex>
  %St = ktdp.construct_access_tile %Sv[%row] {access_tile_set = #two, access_tile_order = #id1}
      : memref<8xf16> -> !ktdp.access_tile<2xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x200xindex> -> tensor<2x200xf16>
  %acc0 = tensor.empty() : tensor<2xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x200xf16>) outs(%acc : tensor<2xf32>) {
  ^bb0(%xe: f16, %a: f32):
    %w = arith.extf %xe : f16 to f32
    %s = arith.addf %w, %a : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %h0 = tensor.empty() : tensor<2xf16>
  %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<2xf32>) outs(%h0 : tensor<2xf16>) {
  ^bb0(%se: f32, %o: f16):
    %n = arith.truncf %se : f32 to f16
    linalg.yield %n : f16
  } -> tensor<2xf16>
  ktdp.store %h, %St : tensor<2xf16>, !ktdp.access_tile<2xindex>
  return
}
