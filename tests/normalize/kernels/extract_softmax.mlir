// Y = softmax(X) row by row, 8 compute tiles of one 128-wide row each, written with the
// scalars KTIR kernels read out of a reduction: the row maximum taken out of its
// one-element result by `tensor.extract` and spread by `tensor.splat`; the row sum read
// out the same way and used inside a `linalg.generic` body; and a one-element tensor
// rebuilt from the maximum by `tensor.from_elements` and stored as the row's maximum M.
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#one = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#id1 = affine_map<(d0) -> (d0)>

func.func @extract_softmax(%X: index, %Y: index, %M: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
  %Mv = ktdp.construct_memory_view %M, sizes: [8], strides: [1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<8xf16>
  %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%t, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<8x128xf16> -> !ktdp.access_tile<1x128xindex>
  %Mt = ktdp.construct_access_tile %Mv[%t] {access_tile_set = #one, access_tile_order = #id1}
      : memref<8xf16> -> !ktdp.access_tile<1xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
  %minit = tensor.splat %ninf : tensor<1xf16>
  %mx = linalg.reduce { arith.maximumf } ins(%x : tensor<1x128xf16>) outs(%minit : tensor<1xf16>) dimensions = [1]
  %m = tensor.extract %mx[%c0] : tensor<1xf16>
  %ms = tensor.splat %m : tensor<1x128xf16>
  %d = arith.subf %x, %ms : tensor<1x128xf16>
  %e = math.exp %d : tensor<1x128xf16>
  %sinit = tensor.splat %zero : tensor<1xf16>
  %sm = linalg.reduce { arith.addf } ins(%e : tensor<1x128xf16>) outs(%sinit : tensor<1xf16>) dimensions = [1]
  %s = tensor.extract %sm[%c0] : tensor<1xf16>
  %y0 = tensor.empty() : tensor<1x128xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e : tensor<1x128xf16>) outs(%y0 : tensor<1x128xf16>) {
  ^bb0(%ee: f16, %o: f16):
    %q = arith.divf %ee, %s : f16
    linalg.yield %q : f16
  } -> tensor<1x128xf16>
  ktdp.store %y, %Yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
  %mm = tensor.from_elements %m : tensor<1xf16>
  ktdp.store %mm, %Mt : tensor<1xf16>, !ktdp.access_tile<1xindex>
  return
}
