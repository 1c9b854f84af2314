// Y = A * B + C * D, the four operands pinned by the caller in every tile's own
// scratchpad (64 x 64 f16 each, ct_local views on pointer arguments), tile t writing rows
// 64t.. of Y. Nothing comes from device memory, so the pace is the units': four operands
// per vector against three vector ops. The unit that loads them is the one to watch: four
// loads, their address arithmetic and four sends per vector.
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @four_pinned_operands(%A: index, %B: index, %C: index, %D: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c64 : index
  %Av = ktdp.construct_memory_view %A, sizes: [64, 64], strides: [64, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [64, 64], strides: [64, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [64, 64], strides: [64, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
  %Dv = ktdp.construct_memory_view %D, sizes: [64, 64], strides: [64, 1] {coordinate_set = #blk, memory_space = #ktdp.memory_space<ct_local>} : memref<64x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [256, 64], strides: [64, 1] {coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Dt = ktdp.construct_access_tile %Dv[%c0, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<64x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2} : memref<256x64xf16> -> !ktdp.access_tile<64x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %c = ktdp.load %Ct : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %d = ktdp.load %Dt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %e = tensor.empty() : tensor<64x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c, %d : tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>, tensor<64x64xf16>)
      outs(%e : tensor<64x64xf16>) {
  ^bb0(%x0: f16, %x1: f16, %x2: f16, %x3: f16, %o: f16):
    %p = arith.mulf %x0, %x1 : f16
    %q = arith.mulf %x2, %x3 : f16
    %s = arith.addf %p, %q : f16
    linalg.yield %s : f16
  } -> tensor<64x64xf16>
  ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>
  return
}
