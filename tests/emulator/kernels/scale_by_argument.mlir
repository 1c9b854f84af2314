// Y = max(X * (2 * s), s) on a 64x96 f16 tensor, 8 compute tiles of 8 x 96: the float
// argument %s is known only at launch, so the bundle carries it as a "bits" symbol and
// the vector unit spreads it (`vectorchain.splat_bits`); 2 * s is arithmetic outside the
// body, computed on one lane where the body reads it.
// ARGS: s=-0.7
#rows8 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @scale_by_argument(%X: index, %s: f16, %Y: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f16
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c8 : index
  %k = arith.mulf %s, %two : f16
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 96], strides: [96, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows8, access_tile_order = #id2}
      : memref<64x96xf16> -> !ktdp.access_tile<8x96xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows8, access_tile_order = #id2}
      : memref<64x96xf16> -> !ktdp.access_tile<8x96xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x96xindex> -> tensor<8x96xf16>
  %init = tensor.empty() : tensor<8x96xf16>
  %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x96xf16>) outs(%init : tensor<8x96xf16>) {
  ^bb0(%xe: f16, %o: f16):
    %p = arith.mulf %xe, %k : f16
    %m = arith.maximumf %p, %s : f16
    linalg.yield %m : f16
  } -> tensor<8x96xf16>
  ktdp.store %y, %Yt : tensor<8x96xf16>, !ktdp.access_tile<8x96xindex>
  return
}
