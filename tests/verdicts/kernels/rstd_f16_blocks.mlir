// The inverse root mean square of one row of 4096 f16 values, written as the public
// LayerNorm writes its statistics: the kernel walks the row in blocks of 2048, adds each
// block's squares into an f16 tile it carries, then sums that tile's 2048 lanes in f16.
// Any order of 4096 f16 roundings could move the sum of squares by more than itself
// ((1 + 2^-11)^4095 - 1 > 1), so the order-free bound leaves R and Y unchecked; the
// order the bundle sums in takes each term through a few dozen roundings.
func.func @rstd_f16_blocks(%X: index, %R: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c2048 = arith.constant 2048 : index
  %c4096 = arith.constant 4096 : index
  %X_view = ktdp.construct_memory_view %X, sizes: [1, 4096], strides: [4096, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x4096xf16>
  %Y_view = ktdp.construct_memory_view %Y, sizes: [1, 4096], strides: [4096, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1x4096xf16>
  %R_view = ktdp.construct_memory_view %R, sizes: [1], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1xf16>
  %zero_block = arith.constant dense<0.0> : tensor<1x2048xf16>
  %squares = scf.for %col = %c0 to %c4096 step %c2048 iter_args(%acc = %zero_block) -> tensor<1x2048xf16> {
    %X_tile = ktdp.construct_access_tile %X_view[%c0, %col] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 2047 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x4096xf16> -> !ktdp.access_tile<1x2048xindex>
    %x = ktdp.load %X_tile : !ktdp.access_tile<1x2048xindex> -> tensor<1x2048xf16>
    %x2 = arith.mulf %x, %x : tensor<1x2048xf16>
    %next = arith.addf %acc, %x2 : tensor<1x2048xf16>
    scf.yield %next : tensor<1x2048xf16>
  }
  %zero = arith.constant 0.0 : f16
  %init = tensor.splat %zero : tensor<1xf16>
  %sum = linalg.reduce { arith.addf } ins(%squares : tensor<1x2048xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
  %n = arith.constant dense<4096.0> : tensor<1xf16>
  %mean = arith.divf %sum, %n : tensor<1xf16>
  %eps = arith.constant dense<1.0e-05> : tensor<1xf16>
  %shifted = arith.addf %mean, %eps : tensor<1xf16>
  %rms = math.sqrt %shifted : tensor<1xf16>
  %one = arith.constant dense<1.0> : tensor<1xf16>
  %rstd = arith.divf %one, %rms : tensor<1xf16>
  %R_tile = ktdp.construct_access_tile %R_view[%c0] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<1xf16> -> !ktdp.access_tile<1xindex>
  ktdp.store %rstd, %R_tile : tensor<1xf16>, !ktdp.access_tile<1xindex>
  %rstd_scalar = tensor.extract %rstd[%c0] : tensor<1xf16>
  %rstd_block = tensor.splat %rstd_scalar : tensor<1x4096xf16>
  %X_all = ktdp.construct_access_tile %X_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x4096xf16> -> !ktdp.access_tile<1x4096xindex>
  %xa = ktdp.load %X_all : !ktdp.access_tile<1x4096xindex> -> tensor<1x4096xf16>
  %y = arith.mulf %xa, %rstd_block : tensor<1x4096xf16>
  %Y_tile = ktdp.construct_access_tile %Y_view[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 4095 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<1x4096xf16> -> !ktdp.access_tile<1x4096xindex>
  ktdp.store %y, %Y_tile : tensor<1x4096xf16>, !ktdp.access_tile<1x4096xindex>
  return
}
