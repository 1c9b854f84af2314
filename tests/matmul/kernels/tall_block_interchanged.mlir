// C = A @ B, 1024x256 by 256x64 f16 (f32 sums, rounded to f16 once), 4 tiles of 256 rows,
// on a 128 KiB scratchpad: each core's block of C is four times taller than wide and its
// 256 whole-K rows of A (128 KiB) do not fit, so they come in row tiles. Rows outside
// columns (the dims' order) hold a row tile of A and fetch B's panel again for each row
// tile; columns outside rows (interchange-tile-loops) hold B's panel around the row loop
// and fetch it once. The solver's model holds both forms of the program and chooses the
// interchanged one.
// DEVICE: tests/solve/devices/spyre_128k_lx.mlir
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %crows = arith.constant 256 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %crows : index
  %zero = arith.constant 0.0 : f32
  %Av = ktdp.construct_memory_view %A, sizes: [1024, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1024x256xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #id2}
      : memref<1024x256xf16> -> !ktdp.access_tile<256x256xindex>
  %Bv = ktdp.construct_memory_view %B, sizes: [256, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id2}
      : memref<256x64xf16> -> !ktdp.access_tile<256x64xindex>
  %Cv = ktdp.construct_memory_view %C, sizes: [1024, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1024x64xf16>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id2}
      : memref<1024x64xf16> -> !ktdp.access_tile<256x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<256x256xindex> -> tensor<256x256xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<256x64xindex> -> tensor<256x64xf16>
  %s_acc0 = tensor.empty() : tensor<256x64xf32>
  %s_acc = linalg.fill ins(%zero : f32) outs(%s_acc0 : tensor<256x64xf32>) -> tensor<256x64xf32>
  %s = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<256x256xf16>, tensor<256x64xf16>) outs(%s_acc : tensor<256x64xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<256x64xf32>
  %h0 = tensor.empty() : tensor<256x64xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<256x64xf32>) outs(%h0 : tensor<256x64xf16>) {
  ^bb0(%se: f32, %o: f16):
    %q = arith.truncf %se : f32 to f16
    linalg.yield %q : f16
  } -> tensor<256x64xf16>
  ktdp.store %h, %Ct : tensor<256x64xf16>, !ktdp.access_tile<256x64xindex>
  return
}
