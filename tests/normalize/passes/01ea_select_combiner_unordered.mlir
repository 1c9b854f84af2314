// PASS: select-combiner
// ERROR: not supported yet: a reduction combiner built from a select that is not a maximum or minimum
// ugt picks a NaN input: neither maxnumf nor minnumf.
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>
builtin.module attributes {ktdf.device = "spyre"} {
func.func @row_max(%X: index, %B: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4], strides: [1] {
      coordinate_set = #col, memory_space = #ktdp.memory_space<global>} : memref<4xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = #all, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0] {access_tile_set = #col, access_tile_order = affine_map<(d0) -> (d0)>}
      : memref<4xf16> -> !ktdp.access_tile<4xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %i = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<4xf16>
  %f = linalg.fill ins(%i : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %y = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x64xf16>) outs(%f : tensor<4xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %p = arith.cmpf ugt, %in, %acc : f16
    %s = arith.select %p, %in, %acc : f16
    linalg.yield %s : f16
  } -> tensor<4xf16>
  ktdp.store %y, %Yt : tensor<4xf16>, !ktdp.access_tile<4xindex>
  func.return
}
}
