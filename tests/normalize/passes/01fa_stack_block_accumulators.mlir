// PASS: stack-block-accumulators
// A loop that adds each 1x64 block of a row (columns 64 .. 255, three blocks) to a
// carried 1x64 tensor: the blocks are read through a view with a block dim K before the
// columns (stride 64), the loop counts blocks from 0, the squares get the K dim, and the
// add becomes a reduction over K into the carried value.
// CHECK: %Xv_blocks = ktdp.construct_memory_view %X, sizes: [4, 3, 128], strides: [256, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 2) >= 0, d2 >= 0, ((d2 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x3x128xf16>
// CHECK: %sum = scf.for %block = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%acc = %init) -> (tensor<1x64xf16>) {
// CHECK-NEXT: %[[MUL:.*]] = arith.muli %block, %{{.*}} : index
// CHECK-NEXT: %col = arith.addi %{{.*}}, %[[MUL]] : index
// CHECK-NEXT: %Xt = ktdp.construct_access_tile %Xv_blocks[%row, %block, %col + %block * -64] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, (d0 * -1) >= 0, d1 >= 0, (d1 * -1) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<4x3x128xf16> -> !ktdp.access_tile<1x1x64xindex>
// CHECK-NEXT: %x = ktdp.load %Xt : <1x1x64xindex> -> tensor<1x1x64xf16>
// CHECK-NEXT: %sq = tensor.empty() : tensor<1x1x64xf16>
// CHECK-NEXT: %sq_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %x : tensor<1x1x64xf16>, tensor<1x1x64xf16>) outs(%sq : tensor<1x1x64xf16>)
// CHECK: %next = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%sq_1 : tensor<1x1x64xf16>) outs(%acc : tensor<1x64xf16>) {
// CHECK-NEXT: ^{{.*}}(%[[V:.*]]: f16, %[[A:.*]]: f16):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[V]] : f16
// CHECK-NEXT: linalg.yield %[[S]] : f16
// CHECK: scf.yield %next : tensor<1x64xf16>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @block_squares(%X: index, %S: index) attributes {grid = [4]} {
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %zero = arith.constant 0.0 : f16
    %row = ktdp.get_compute_tile_id : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 256], strides: [256, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x256xf16>
    %Sv = ktdp.construct_memory_view %S, sizes: [4, 64], strides: [64, 1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
    %St = ktdp.construct_access_tile %Sv[%row, %c64] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %e = tensor.empty() : tensor<1x64xf16>
    %init = linalg.fill ins(%zero : f16) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    %sum = scf.for %col = %c64 to %c256 step %c64 iter_args(%acc = %init) -> (tensor<1x64xf16>) {
      %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #blk, access_tile_order = #id2} : memref<4x256xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %sq = tensor.empty() : tensor<1x64xf16>
      %sq_1 = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x, %x : tensor<1x64xf16>, tensor<1x64xf16>) outs(%sq : tensor<1x64xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %m = arith.mulf %a, %b : f16
        linalg.yield %m : f16
      } -> tensor<1x64xf16>
      %n = tensor.empty() : tensor<1x64xf16>
      %next = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%acc, %sq_1 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%n : tensor<1x64xf16>) {
      ^bb0(%a: f16, %b: f16, %o: f16):
        %s = arith.addf %a, %b : f16
        linalg.yield %s : f16
      } -> tensor<1x64xf16>
      scf.yield %next : tensor<1x64xf16>
    }
    ktdp.store %sum, %St : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    func.return
  }
}
