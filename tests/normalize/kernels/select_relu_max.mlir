// A relu written as arith.cmpf + arith.select on tensors, and a row maximum whose
// linalg.reduce combiner is cmpf ogt + select (not arith.maximumf).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
func.func @relu_rowmax(%X: index, %Y: index, %M: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %mv = ktdp.construct_memory_view %M, sizes: [8], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %xt = ktdp.construct_access_tile %xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %yt = ktdp.construct_access_tile %yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<8x64xf16> -> !ktdp.access_tile<2x64xindex>
  %mt = ktdp.construct_access_tile %mv[%row] {
      access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>,
      access_tile_order = affine_map<(d0) -> (d0)>} : memref<8xf16> -> !ktdp.access_tile<2xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %zero = arith.constant dense<0.0> : tensor<2x64xf16>
  %pos = arith.cmpf ogt, %x, %zero : tensor<2x64xf16>
  %y = arith.select %pos, %x, %zero : tensor<2x64xi1>, tensor<2x64xf16>
  ktdp.store %y, %yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<2xf16>
  %init = linalg.fill ins(%ninf : f16) outs(%e : tensor<2xf16>) -> tensor<2xf16>
  %m = linalg.reduce ins(%x : tensor<2x64xf16>) outs(%init : tensor<2xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %gt = arith.cmpf ogt, %in, %acc : f16
      %mx = arith.select %gt, %in, %acc : f16
      linalg.yield %mx : f16
    }
  ktdp.store %m, %mt : tensor<2xf16>, !ktdp.access_tile<2xindex>
  return
}
