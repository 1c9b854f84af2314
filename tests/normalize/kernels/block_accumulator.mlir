// RMSNorm over a 16x512 f16 tensor, 4 compute tiles of 4 rows. Each row's sum of squares
// is accumulated block by block: an `scf.for` walks the row in blocks of 128 columns and
// carries a 1x128 tensor to which each block's squares are added (`arith.addf` on
// tensors); the carried blocks are then summed by a `linalg.reduce`. A second loop over
// the same blocks scales them by rsqrt(mean + eps) and the weight row.
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#wrow = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @block_rmsnorm(%X: index, %W: index, %Y: index) attributes {grid = [4]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %first = arith.muli %t, %c4 : index
  %last = arith.addi %first, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x512xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x512xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [1, 512], strides: [512, 1] {
      coordinate_set = #wrow, memory_space = #ktdp.memory_space<global>} : memref<1x512xf16>
  scf.for %row = %first to %last step %c1 {
    %zeros = arith.constant dense<0.0> : tensor<1x128xf16>
    %acc_end = scf.for %col = %c0 to %c512 step %c128
        iter_args(%acc = %zeros) -> tensor<1x128xf16> {
      %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #blk,
          access_tile_order = #id2} : memref<16x512xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %sq = arith.mulf %x, %x : tensor<1x128xf16>
      %next = arith.addf %acc, %sq : tensor<1x128xf16>
      scf.yield %next : tensor<1x128xf16>
    }
    %zero = arith.constant 0.0 : f16
    %init = tensor.splat %zero : tensor<1xf16>
    %sum = linalg.reduce { arith.addf } ins(%acc_end : tensor<1x128xf16>)
        outs(%init : tensor<1xf16>) dimensions = [1]
    %s = tensor.extract %sum[%c0] : tensor<1xf16>
    %n = arith.constant 512.0 : f16
    %eps = arith.constant 1.0e-3 : f16
    %mean = arith.divf %s, %n : f16
    %shifted = arith.addf %mean, %eps : f16
    %r = math.rsqrt %shifted : f16
    %rs = tensor.splat %r : tensor<1x128xf16>
    scf.for %col = %c0 to %c512 step %c128 {
      %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #blk,
          access_tile_order = #id2} : memref<16x512xf16> -> !ktdp.access_tile<1x128xindex>
      %Wt = ktdp.construct_access_tile %Wv[%c0, %col] {access_tile_set = #blk,
          access_tile_order = #id2} : memref<1x512xf16> -> !ktdp.access_tile<1x128xindex>
      %Yt = ktdp.construct_access_tile %Yv[%row, %col] {access_tile_set = #blk,
          access_tile_order = #id2} : memref<16x512xf16> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %w = ktdp.load %Wt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf16>
      %xn = arith.mulf %x, %rs : tensor<1x128xf16>
      %y = arith.mulf %xn, %w : tensor<1x128xf16>
      ktdp.store %y, %Yt : tensor<1x128xf16>, !ktdp.access_tile<1x128xindex>
    }
  }
  return
}
