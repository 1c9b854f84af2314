// Two independent full-size bias adds, Y1 = X1 + bias1 and Y2 = X2 + bias2 (two programs).
// Each is DMA-bound, its vectors per instruction hidden by its FIFOs, so all its chunk
// candidates tie; the programs' own optima add up to the kernel's, so the tie-break is
// solved program by program (tests/solve/test_fifo_decisions.py).
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 1023 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#rowvec = affine_set<(d0) : (d0 >= 0, -d0 + 31 >= 0)>
#allrows = affine_set<(d0) : (d0 >= 0, -d0 + 1023 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
#colmap = affine_map<(d0, d1) -> (d1)>

func.func @two_bias_adds(%X1: index, %bias1: index, %Y1: index, %X2: index, %bias2: index,
                         %Y2: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %crows = arith.constant 32 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %crows : index
  %Xv1 = ktdp.construct_memory_view %X1, sizes: [1024, 1024], strides: [1024, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
  %Xt1 = ktdp.construct_access_tile %Xv1[%row, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<1024x1024xf16> -> !ktdp.access_tile<32x1024xindex>
  %bv1 = ktdp.construct_memory_view %bias1, sizes: [1024], strides: [1] {
      coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  %bt1 = ktdp.construct_access_tile %bv1[%c0] {access_tile_set = #vec, access_tile_order = #id1}
      : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
  %Yv1 = ktdp.construct_memory_view %Y1, sizes: [1024, 1024], strides: [1024, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
  %Yt1 = ktdp.construct_access_tile %Yv1[%row, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<1024x1024xf16> -> !ktdp.access_tile<32x1024xindex>
  %x1 = ktdp.load %Xt1 : !ktdp.access_tile<32x1024xindex> -> tensor<32x1024xf16>
  %bb1 = ktdp.load %bt1 : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
  %e1 = tensor.empty() : tensor<32x1024xf16>
  %y1 = linalg.generic {indexing_maps = [#id2, #colmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x1, %bb1 : tensor<32x1024xf16>, tensor<1024xf16>) outs(%e1 : tensor<32x1024xf16>) {
  ^bb0(%xe1: f16, %be1: f16, %o1: f16):
    %r1 = arith.addf %xe1, %be1 : f16
    linalg.yield %r1 : f16
  } -> tensor<32x1024xf16>
  ktdp.store %y1, %Yt1 : tensor<32x1024xf16>, !ktdp.access_tile<32x1024xindex>
  %Xv2 = ktdp.construct_memory_view %X2, sizes: [1024, 1024], strides: [1024, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
  %Xt2 = ktdp.construct_access_tile %Xv2[%row, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<1024x1024xf16> -> !ktdp.access_tile<32x1024xindex>
  %bv2 = ktdp.construct_memory_view %bias2, sizes: [1024], strides: [1] {
      coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<1024xf16>
  %bt2 = ktdp.construct_access_tile %bv2[%c0] {access_tile_set = #vec, access_tile_order = #id1}
      : memref<1024xf16> -> !ktdp.access_tile<1024xindex>
  %Yv2 = ktdp.construct_memory_view %Y2, sizes: [1024, 1024], strides: [1024, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<1024x1024xf16>
  %Yt2 = ktdp.construct_access_tile %Yv2[%row, %c0] {access_tile_set = #tile, access_tile_order = #id2}
      : memref<1024x1024xf16> -> !ktdp.access_tile<32x1024xindex>
  %x2 = ktdp.load %Xt2 : !ktdp.access_tile<32x1024xindex> -> tensor<32x1024xf16>
  %bb2 = ktdp.load %bt2 : !ktdp.access_tile<1024xindex> -> tensor<1024xf16>
  %e2 = tensor.empty() : tensor<32x1024xf16>
  %y2 = linalg.generic {indexing_maps = [#id2, #colmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x2, %bb2 : tensor<32x1024xf16>, tensor<1024xf16>) outs(%e2 : tensor<32x1024xf16>) {
  ^bb0(%xe2: f16, %be2: f16, %o2: f16):
    %r2 = arith.addf %xe2, %be2 : f16
    linalg.yield %r2 : f16
  } -> tensor<32x1024xf16>
  ktdp.store %y2, %Yt2 : tensor<32x1024xf16>, !ktdp.access_tile<32x1024xindex>
  return
}
