// An input the kernel pins in tile 1's scratchpad (ct_local, ct_id = 1): every tile reads
// it from there (an on-chip transfer) and writes its row of Y = W + 1.
#w = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @pinned(%W: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f16
  %t = ktdp.get_compute_tile_id : index
  %Wv = ktdp.construct_memory_view %W, sizes: [64], strides: [1] {
      coordinate_set = #w, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Wt = ktdp.construct_access_tile %Wv[%c0] {access_tile_set = #w, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %w = ktdp.load %Wt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%w : tensor<64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%we: f16, %o: f16):
    %s = arith.addf %we, %one : f16
    linalg.yield %s : f16
  } -> tensor<1x64xf16>
  ktdp.store %y, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
