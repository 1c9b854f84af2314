// PASS: stores-after-reads
// ERROR: not supported yet: this store and the store of %y each overwrite memory that a tile both of them read was loaded from
// x is loaded through a view at a constant address, which neither Y nor M can be told
// apart from; y = 2x and m = x + 1 are each stored to one of them, so each store would
// have to write after the other's last read of x. Refused, not reordered for ever.
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @each_after_other(%Y: index, %M: index) attributes {grid = [1 : i64]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %two = arith.constant 2.000000e+00 : f32
    %one = arith.constant 1.000000e+00 : f32
    %Xv = ktdp.construct_memory_view %c2, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Yv = ktdp.construct_memory_view %Y, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Mv = ktdp.construct_memory_view %M, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %Mt = ktdp.construct_access_tile %Mv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %x = ktdp.load %Xt : <4x64xindex> -> tensor<4x64xf32>
    %e1 = tensor.empty() : tensor<4x64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%e1 : tensor<4x64xf32>) {
    ^bb0(%v_1: f32, %o_1: f32):
      %r_1 = arith.mulf %v_1, %two : f32
      linalg.yield %r_1 : f32
    } -> tensor<4x64xf32>
    ktdp.store %y, %Yt : tensor<4x64xf32>, <4x64xindex>
    %e2 = tensor.empty() : tensor<4x64xf32>
    %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x64xf32>) outs(%e2 : tensor<4x64xf32>) {
    ^bb0(%v_2: f32, %o_2: f32):
      %r_2 = arith.addf %v_2, %one : f32
      linalg.yield %r_2 : f32
    } -> tensor<4x64xf32>
    ktdp.store %m, %Mt : tensor<4x64xf32>, <4x64xindex>
    func.return
  }
}
