// PASS: reshape-to-access
// A [2, 4, 64] tile of a [4, 8, 64] view collapsed to [8, 64] rows: the rows are two runs
// of 4 heads 512 elements apart, not one strided pattern. The load lands in a slot of the
// executing tile's scratchpad (ct_local, row-major, a plain copy of the box) and the rows
// are a reshaped access of the slot; the expanded result is stored into a slot of its own
// shape and copied from there, as [2, 4, 64], to the stored tile.
// CHECK: ktdp.construct_memory_view %{{.*}}, sizes: [8, 64], strides: [64, 1] {{.*}}ct_local
// CHECK: ktdp.construct_memory_view %{{.*}}, sizes: [2, 4, 64], strides: [256, 64, 1] {{.*}}ct_local
// CHECK: %x3 = ktdp.load %Xt : <2x4x64xindex> -> tensor<2x4x64xf32>
// CHECK-NEXT: ktdp.store %x3, %[[STAGE:.*]] : tensor<2x4x64xf32>, <2x4x64xindex>
// CHECK-NEXT: %[[ROWS:.*]] = ktdp.construct_access_tile
// CHECK-NEXT: %x = ktdp.load %[[ROWS]] : <8x64xindex> -> tensor<8x64xf32>
// CHECK: ktdp.store %y, %{{.*}} : tensor<8x64xf32>, <8x64xindex>
// CHECK-NEXT: %[[BACK:.*]] = ktdp.construct_access_tile
// CHECK-NEXT: %[[Y3:.*]] = ktdp.load %[[BACK]] : <2x4x64xindex> -> tensor<2x4x64xf32>
// CHECK-NEXT: ktdp.store %[[Y3]], %Yt : tensor<2x4x64xf32>, <2x4x64xindex>
// CHECK-NOT: tensor.collapse_shape
// CHECK-NOT: tensor.expand_shape
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @reshape_strided_runs(%X: index, %Y: index) attributes {grid = [2 : i64, 2 : i64]} {
    %p0, %p1 = ktdp.get_compute_tile_id : index, index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c0 = arith.constant 0 : index
    %ninf = arith.constant 0xff800000 : f32
    %token = arith.muli %p0, %c2 : index
    %head = arith.muli %p1, %c4 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 7) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf32>
    %Yv = ktdp.construct_memory_view %Y, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 7) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf32>
    %Xt = ktdp.construct_access_tile %Xv[%token, %head, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<4x8x64xf32> -> !ktdp.access_tile<2x4x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%token, %head, %c0] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<4x8x64xf32> -> !ktdp.access_tile<2x4x64xindex>
    %x3 = ktdp.load %Xt : <2x4x64xindex> -> tensor<2x4x64xf32>
    %x = tensor.collapse_shape %x3 [[0 : i64, 1 : i64], [2 : i64]] : tensor<2x4x64xf32> into tensor<8x64xf32>
    %init = tensor.splat %ninf : tensor<8xf32>
    %m = linalg.reduce ins(%x:tensor<8x64xf32>) outs(%init:tensor<8xf32>) dimensions = [1]
    (%a: f32, %b: f32) {
      %r = arith.maximumf %a, %b : f32
      linalg.yield %r : f32
    }
    %empty = tensor.empty() : tensor<8x64xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %m : tensor<8x64xf32>, tensor<8xf32>) outs(%empty : tensor<8x64xf32>) {
    ^bb0(%v: f32, %mx: f32, %out: f32):
      %d = arith.subf %v, %mx : f32
      linalg.yield %d : f32
    } -> tensor<8x64xf32>
    %y3 = tensor.expand_shape %y [[0 : i64, 1 : i64], [2 : i64]] output_shape [2, 4, 64] : tensor<8x64xf32> into tensor<2x4x64xf32>
    ktdp.store %y3, %Yt : tensor<2x4x64xf32>, <2x4x64xindex>
    func.return
  }
}
