// C = A @ B and D = A @ E on 4 tiles of 8 rows, f16 with f32 sums on the matrix unit:
// every tile reads the whole 256x128 B and the whole 256x128 E, so share-fetch offers
// fetching each once; both inputs' slices are loaded by one fill program and relayed
// by one set of relay steps (each step moving both), and the solver takes both.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>

func.func @two_weights(%A: index, %B: index, %E: index, %C: index, %D: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %crows = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %crows : index
  %zero = arith.constant 0.0 : f32
  %Av = ktdp.construct_memory_view %A, sizes: [32, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>, access_tile_order = #id2}
      : memref<32x256xf16> -> !ktdp.access_tile<8x256xindex>
  %Bv = ktdp.construct_memory_view %B, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<256x128xindex>
  %Ev = ktdp.construct_memory_view %E, sizes: [256, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
  %Et = ktdp.construct_access_tile %Ev[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<256x128xf16> -> !ktdp.access_tile<256x128xindex>
  %Cv = ktdp.construct_memory_view %C, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<32x128xf16> -> !ktdp.access_tile<8x128xindex>
  %Dv = ktdp.construct_memory_view %D, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  %Dt = ktdp.construct_access_tile %Dv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>, access_tile_order = #id2}
      : memref<32x128xf16> -> !ktdp.access_tile<8x128xindex>
  %a = ktdp.load %At : !ktdp.access_tile<8x256xindex> -> tensor<8x256xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<256x128xindex> -> tensor<256x128xf16>
  %e = ktdp.load %Et : !ktdp.access_tile<256x128xindex> -> tensor<256x128xf16>
  %s_acc0 = tensor.empty() : tensor<8x128xf32>
  %s_acc = linalg.fill ins(%zero : f32) outs(%s_acc0 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %s = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x256xf16>, tensor<256x128xf16>) outs(%s_acc : tensor<8x128xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x128xf32>
  %h0 = tensor.empty() : tensor<8x128xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x128xf32>) outs(%h0 : tensor<8x128xf16>) {
  ^bb0(%se: f32, %o: f16):
    %r = arith.truncf %se : f32 to f16
    linalg.yield %r : f16
  } -> tensor<8x128xf16>
  ktdp.store %h, %Ct : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  %u_acc0 = tensor.empty() : tensor<8x128xf32>
  %u_acc = linalg.fill ins(%zero : f32) outs(%u_acc0 : tensor<8x128xf32>) -> tensor<8x128xf32>
  %u = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %e : tensor<8x256xf16>, tensor<256x128xf16>) outs(%u_acc : tensor<8x128xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %q = arith.addf %acc, %p : f32
    linalg.yield %q : f32
  } -> tensor<8x128xf32>
  %g0 = tensor.empty() : tensor<8x128xf16>
  %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%u : tensor<8x128xf32>) outs(%g0 : tensor<8x128xf16>) {
  ^bb0(%se: f32, %o: f16):
    %r = arith.truncf %se : f32 to f16
    linalg.yield %r : f16
  } -> tensor<8x128xf16>
  ktdp.store %g, %Dt : tensor<8x128xf16>, !ktdp.access_tile<8x128xindex>
  return
}
