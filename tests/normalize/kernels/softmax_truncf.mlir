// Y = softmax(X) over the rows of a 16x256 f16 tensor, 8 compute tiles of 2 rows, in one
// load -> compute -> store chain: the row maximum by `linalg.reduce`, the exponentials,
// widened to f32 by `arith.extf` on the tensor and summed by `linalg.reduce`, the sums
// brought back to f16 by `arith.truncf` on the tensor,
// then the division.
#rows2 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @softmax_truncf(%X: index, %Y: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %ninf = arith.constant -65504.0 : f16
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x256xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<16x256xf16> -> !ktdp.access_tile<2x256xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows2, access_tile_order = #id2}
      : memref<16x256xf16> -> !ktdp.access_tile<2x256xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<2x256xindex> -> tensor<2x256xf16>
  %m0 = tensor.empty() : tensor<2xf16>
  %m1 = linalg.fill ins(%ninf : f16) outs(%m0 : tensor<2xf16>) -> tensor<2xf16>
  %m = linalg.reduce ins(%x : tensor<2x256xf16>) outs(%m1 : tensor<2xf16>) dimensions = [1]
    (%in: f16, %acc: f16) {
      %mx = arith.maximumf %in, %acc : f16
      linalg.yield %mx : f16
    }
  %e0 = tensor.empty() : tensor<2x256xf16>
  %e = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<2x256xf16>, tensor<2xf16>) outs(%e0 : tensor<2x256xf16>) {
  ^bb0(%xe: f16, %me: f16, %o: f16):
    %d = arith.subf %xe, %me : f16
    %ex = math.exp %d : f16
    linalg.yield %ex : f16
  } -> tensor<2x256xf16>
  %s0 = tensor.empty() : tensor<2xf32>
  %s1 = linalg.fill ins(%zero : f32) outs(%s0 : tensor<2xf32>) -> tensor<2xf32>
  %ew = arith.extf %e : tensor<2x256xf16> to tensor<2x256xf32>
  %s = linalg.reduce ins(%ew : tensor<2x256xf32>) outs(%s1 : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %sh = arith.truncf %s : tensor<2xf32> to tensor<2xf16>
  %y0 = tensor.empty() : tensor<2x256xf16>
  %y = linalg.generic {indexing_maps = [#id2, #rowmap, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sh : tensor<2x256xf16>, tensor<2xf16>) outs(%y0 : tensor<2x256xf16>) {
  ^bb0(%ee: f16, %se: f16, %o: f16):
    %q = arith.divf %ee, %se : f16
    linalg.yield %q : f16
  } -> tensor<2x256xf16>
  ktdp.store %y, %Yt : tensor<2x256xf16>, !ktdp.access_tile<2x256xindex>
  return
}
