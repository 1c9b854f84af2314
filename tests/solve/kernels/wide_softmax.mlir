// Y = softmax(X) over each row of a 2x4096 f16 tensor on one tile, a row per loop step.
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 4095 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @wide_softmax(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [2, 4096], strides: [4096, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x4096xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [2, 4096], strides: [4096, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<2x4096xf16>
  scf.for %r = %c0 to %c2 step %c1 {
    %Xt = ktdp.construct_access_tile %Xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<2x4096xf16> -> !ktdp.access_tile<1x4096xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x4096xindex> -> tensor<1x4096xf16>
    %lowest = arith.constant 0xFC00 : f16
    %m0 = tensor.splat %lowest : tensor<1xf16>
    %m = linalg.reduce { arith.maxnumf } ins(%x : tensor<1x4096xf16>) outs(%m0 : tensor<1xf16>) dimensions = [1]
    %mx = tensor.extract %m[%c0] : tensor<1xf16>
    %mb = tensor.splat %mx : tensor<1x4096xf16>
    %d = arith.subf %x, %mb : tensor<1x4096xf16>
    %e = math.exp %d : tensor<1x4096xf16>
    %zero = arith.constant 0.0 : f16
    %s0 = tensor.splat %zero : tensor<1xf16>
    %s = linalg.reduce { arith.addf } ins(%e : tensor<1x4096xf16>) outs(%s0 : tensor<1xf16>) dimensions = [1]
    %sx = tensor.extract %s[%c0] : tensor<1xf16>
    %sb = tensor.splat %sx : tensor<1x4096xf16>
    %y = arith.divf %e, %sb : tensor<1x4096xf16>
    %Yt = ktdp.construct_access_tile %Yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<2x4096xf16> -> !ktdp.access_tile<1x4096xindex>
    ktdp.store %y, %Yt : tensor<1x4096xf16>, !ktdp.access_tile<1x4096xindex>
  }
  return
}
