// PASS: untile-loops
// ERROR: its bounds and step are not constants; they depend on the kernel's argument %chunks: `--arg chunks=VALUE` fixes it at compile time (`arguments=` in the Python API)
// A row's sum over a number of 128-column chunks the kernel takes as an argument, then
// each chunk minus the sum: the second loop reads a tensor made from the first one's
// result, so it must be folded, which needs constant bounds; the error names the
// argument and the option that gives it a value.
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @centered_rows(%X: index, %Y: index, %chunks: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0.0 : f32
    %row = ktdp.get_compute_tile_id : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 512], strides: [512, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x512xf32>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 512], strides: [512, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x512xf32>
    %a0 = tensor.empty() : tensor<1xf32>
    %init = linalg.fill ins(%zero : f32) outs(%a0 : tensor<1xf32>) -> tensor<1xf32>
    %sum = scf.for %k = %c0 to %chunks step %c1 iter_args(%acc = %init) -> (tensor<1xf32>) {
      %col = arith.muli %k, %c128 : index
      %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id2} : memref<8x512xf32> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf32>
      %next = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<1x128xf32>) outs(%acc : tensor<1xf32>) {
      ^bb0(%in: f32, %a: f32):
        %s = arith.addf %in, %a : f32
        linalg.yield %s : f32
      } -> tensor<1xf32>
      scf.yield %next : tensor<1xf32>
    }
    %total = tensor.extract %sum[%c0] : tensor<1xf32>
    %block = tensor.splat %total : tensor<1x128xf32>
    scf.for %k = %c0 to %chunks step %c1 {
      %col = arith.muli %k, %c128 : index
      %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id2} : memref<8x512xf32> -> !ktdp.access_tile<1x128xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf32>
      %y = arith.subf %x, %block : tensor<1x128xf32>
      %Yt = ktdp.construct_access_tile %Yv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id2} : memref<8x512xf32> -> !ktdp.access_tile<1x128xindex>
      ktdp.store %y, %Yt : tensor<1x128xf32>, !ktdp.access_tile<1x128xindex>
    }
    func.return
  }
}
