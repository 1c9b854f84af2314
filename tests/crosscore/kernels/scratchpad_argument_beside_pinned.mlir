// S is a region the kernel pins itself at element 0 of core 1's scratchpad (an input
// read through a constant address); W is a tensor the caller pins in core 1's scratchpad
// too. Both executors place W past S (the region is the kernel's), so every tile's row of
// Y = W + S reads both as given.
#w = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#ys = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @overlap(%W: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %t = ktdp.get_compute_tile_id : index
  %Wv = ktdp.construct_memory_view %W, sizes: [64], strides: [1] {
      coordinate_set = #w, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
  %Sv = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {
      coordinate_set = #w, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #ys, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Wt = ktdp.construct_access_tile %Wv[%c0] {access_tile_set = #w, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %St = ktdp.construct_access_tile %Sv[%c0] {access_tile_set = #w, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %w = ktdp.load %Wt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %s = ktdp.load %St : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]} ins(%w, %s : tensor<64xf16>, tensor<64xf16>) outs(%e : tensor<1x64xf16>) {
  ^bb0(%we: f16, %se: f16, %o: f16):
    %r = arith.addf %we, %se : f16
    linalg.yield %r : f16
  } -> tensor<1x64xf16>
  ktdp.store %y, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
