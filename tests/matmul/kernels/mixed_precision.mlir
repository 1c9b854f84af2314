// C = A @ B over 32x32 f16 matrices, as a matmul-shaped linalg.generic that extends each
// f16 operand to f32, accumulates in f32 and rounds the sum to f16 once. Two compute
// tiles, 16 rows each.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
func.func @mixed_precision(%A: index, %B: index, %C: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c16 : index
  %Av = ktdp.construct_memory_view %A, sizes: [32, 32], strides: [32, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [32, 32], strides: [32, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [32, 32], strides: [32, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<32x32xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #whole, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<32x32xindex>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<32x32xf16> -> !ktdp.access_tile<16x32xindex>
  %a = ktdp.load %At : !ktdp.access_tile<16x32xindex> -> tensor<16x32xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<32x32xindex> -> tensor<32x32xf16>
  %acc0 = tensor.empty() : tensor<16x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<16x32xf16>, tensor<32x32xf16>) outs(%acc : tensor<16x32xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %q = arith.addf %o, %p : f32
    linalg.yield %q : f32
  } -> tensor<16x32xf32>
  %h0 = tensor.empty() : tensor<16x32xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<16x32xf32>) outs(%h0 : tensor<16x32xf16>) {
  ^bb0(%se: f32, %o: f16):
    %n = arith.truncf %se : f32 to f16
    linalg.yield %n : f16
  } -> tensor<16x32xf16>
  ktdp.store %h, %Ct : tensor<16x32xf16>, !ktdp.access_tile<16x32xindex>
  return
}
