// Y = X * 0.75 on a 64x64 f16 tensor, 32 compute tiles of 2 rows: elementwise only, so the
// emulated output must equal the reference bit for bit (tests/emulator/test_run_comparison.py
// edits the constant by one ulp in the bundle and expects a mismatch).
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @scale_rows(%X: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %k = arith.constant 0.75 : f16
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %init = tensor.empty() : tensor<2x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x64xf16>) outs(%init : tensor<2x64xf16>) {
  ^bb0(%xe: f16, %o: f16):
    %s = arith.mulf %xe, %k : f16
    linalg.yield %s : f16
  } -> tensor<2x64xf16>
  ktdp.store %y, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
