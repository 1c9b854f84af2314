// PASS: compare-to-mask
// ERROR: not supported yet: arith.cmpf one choosing between values
// `one` (ordered and not equal) has no spelling as one device comparison.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
func.func @lower_of_two(%X: index, %B: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %e = tensor.empty() : tensor<4x64xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x64xf16>, tensor<4x64xf16>) outs(%e : tensor<4x64xf16>) {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %ne = arith.cmpf one, %a, %c : f16
    %s = arith.select %ne, %a, %c : f16
    linalg.yield %s : f16
  } -> tensor<4x64xf16>
  ktdp.store %y, %Yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  func.return
}
}
