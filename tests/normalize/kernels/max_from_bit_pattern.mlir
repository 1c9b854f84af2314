// A row maximum whose initial value is -inf written as its bit pattern, as Triton prints
// it (`0xFF800000 : i32` bitcast to f32): the bitcast of a constant folds to the float.
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
#o1 = affine_map<(d0) -> (d0)>
func.func @max_from_bit_pattern(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %ninf_bits = arith.constant 0xFF800000 : i32
  %ninf = arith.bitcast %ninf_bits : i32 to f32
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global> } : memref<8x64xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global> } : memref<8xf32>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #rows, access_tile_order = #o2}
      : memref<8x64xf32> -> !ktdp.access_tile<8x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0] {access_tile_set = #out, access_tile_order = #o1}
      : memref<8xf32> -> !ktdp.access_tile<8xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
  %init = tensor.splat %ninf : tensor<8xf32>
  %m = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%a : f32, %b : f32) {
      %r = arith.maximumf %a, %b : f32
      linalg.yield %r : f32
    }
  ktdp.store %m, %Yt : tensor<8xf32>, !ktdp.access_tile<8xindex>
  return
}
