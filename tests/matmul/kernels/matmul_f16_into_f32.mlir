// A named linalg.matmul of f16 operands into an f32 accumulator: the body converts each
// operand to f32 before multiplying (as linalg defines it).
func.func @mm(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [8, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x64xf32>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x64xf16> -> !ktdp.access_tile<8x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<8x64xf16>, tensor<64x64xf16>) outs(%f : tensor<8x64xf32>) -> tensor<8x64xf32>
  ktdp.store %m, %Ct : tensor<8x64xf32>, !ktdp.access_tile<8x64xindex>
  return
}
