// The max of each 32-element row of X (64 x 32 f16): one vector per row, so the
// reduction is done in one step per row, its result sent every row.
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 31 >= 0)>
#y = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @short_row_max(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 32], strides: [32, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<64x32xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64], strides: [1] {
      coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id2}
      : memref<64x32xf16> -> !ktdp.access_tile<64x32xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0] {access_tile_set = #y, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<64x32xindex> -> tensor<64x32xf16>
  %init = arith.constant dense<-65504.0> : tensor<64xf16>
  %m = linalg.reduce ins(%x : tensor<64x32xf16>) outs(%init : tensor<64xf16>) dimensions = [1]
    (%a: f16, %b: f16) {
      %r = arith.maximumf %a, %b : f16
      linalg.yield %r : f16
    }
  ktdp.store %m, %Yt : tensor<64xf16>, !ktdp.access_tile<64xindex>
  return
}
