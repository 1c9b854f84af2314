// Y[i, j] = X[i, j] / sum_j X[i, j], 8 compute tiles of 2 rows, in two loops over chunks
// of 128 columns: the first carries the row sums in `iter_args` (folded into one
// reduction), the second divides each chunk by the sums spread over a whole chunk before
// it (a tensor it reads along the dim it walks: not foldable, so the sums' chain is made
// in each iteration). The first loop must be folded before the second is looked at.
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @chunked_normalize(%X: index, %Y: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x512xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [16, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x512xf32>
  %a0 = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%a0 : tensor<2xf32>) -> tensor<2xf32>
  %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<2xf32>) {
    %col = arith.muli %k, %c128 : index
    %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id2}
        : memref<16x512xf16> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
    %xf = arith.extf %x : tensor<2x128xf16> to tensor<2x128xf32>
    %next = linalg.reduce ins(%xf : tensor<2x128xf32>) outs(%acc : tensor<2xf32>) dimensions = [1]
      (%in: f32, %a: f32) {
        %s = arith.addf %in, %a : f32
        linalg.yield %s : f32
      }
    scf.yield %next : tensor<2xf32>
  }
  %b0 = tensor.empty() : tensor<2x128xf32>
  %spread = linalg.broadcast ins(%sum : tensor<2xf32>) outs(%b0 : tensor<2x128xf32>) dimensions = [1]
  scf.for %k = %c0 to %c4 step %c1 {
    %col = arith.muli %k, %c128 : index
    %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id2}
        : memref<16x512xf16> -> !ktdp.access_tile<2x128xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id2}
        : memref<16x512xf32> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
    %xf = arith.extf %x : tensor<2x128xf16> to tensor<2x128xf32>
    %y = arith.divf %xf, %spread : tensor<2x128xf32>
    ktdp.store %y, %Yt : tensor<2x128xf32>, !ktdp.access_tile<2x128xindex>
  }
  return
}
