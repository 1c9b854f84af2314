// C = A @ B, 256x256 by 256x256 f16 with an f32 accumulator (the body extends both operands to f32: every product is exact), one tile.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [256, 256], strides: [256, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<256x256xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [256, 256], strides: [256, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<256x256xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [256, 256], strides: [256, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<256x256xf32>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<256x256xf16> -> !ktdp.access_tile<256x256xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<256x256xf16> -> !ktdp.access_tile<256x256xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<256x256xf32> -> !ktdp.access_tile<256x256xindex>
  %a = ktdp.load %At : !ktdp.access_tile<256x256xindex> -> tensor<256x256xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<256x256xindex> -> tensor<256x256xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %acc = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%acc : tensor<256x256xf32>) {
  ^bb0(%x: f16, %y: f16, %o: f32):
    %x32 = arith.extf %x : f16 to f32
    %y32 = arith.extf %y : f16 to f32
    %p = arith.mulf %x32, %y32 : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  ktdp.store %c, %Ct : tensor<256x256xf32>, !ktdp.access_tile<256x256xindex>
  return
}
