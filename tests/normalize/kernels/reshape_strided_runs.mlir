// Grouped-query rows as Triton's attention writes them: a [2, 4, 64] tile (2 tokens x 4
// heads of a [4, 8, 64] tensor) collapsed to [8, 64] rows, each row scaled by its own
// maximum, and expanded back to [2, 4, 64] for its store. The 8 rows are two runs of 4
// heads 512 elements apart, not one strided pattern: the normal form stages the tile
// through the executing tile's scratchpad.
#x = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#t = affine_set<(d0, d1, d2) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 3 >= 0, d2 >= 0, -d2 + 63 >= 0)>
#o3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @reshape_strided_runs(%X: index, %Y: index) attributes {grid = [2, 2]} {
  %p0, %p1 = ktdp.get_compute_tile_id : index, index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c0 = arith.constant 0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %token = arith.muli %p0, %c2 : index
  %head = arith.muli %p1, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 8, 64], strides: [512, 64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global> } : memref<4x8x64xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 8, 64], strides: [512, 64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global> } : memref<4x8x64xf32>
  %Xt = ktdp.construct_access_tile %Xv[%token, %head, %c0] {access_tile_set = #t, access_tile_order = #o3}
      : memref<4x8x64xf32> -> !ktdp.access_tile<2x4x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%token, %head, %c0] {access_tile_set = #t, access_tile_order = #o3}
      : memref<4x8x64xf32> -> !ktdp.access_tile<2x4x64xindex>
  %x3 = ktdp.load %Xt : !ktdp.access_tile<2x4x64xindex> -> tensor<2x4x64xf32>
  %x = tensor.collapse_shape %x3 [[0, 1], [2]] : tensor<2x4x64xf32> into tensor<8x64xf32>
  %init = tensor.splat %ninf : tensor<8xf32>
  %m = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%init : tensor<8xf32>) dimensions = [1]
    (%a : f32, %b : f32) {
      %r = arith.maximumf %a, %b : f32
      linalg.yield %r : f32
    }
  %empty = tensor.empty() : tensor<8x64xf32>
  %y = linalg.generic {indexing_maps = [#o2, #row, #o2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x64xf32>, tensor<8xf32>) outs(%empty : tensor<8x64xf32>) {
    ^bb0(%v: f32, %mx: f32, %out: f32):
      %d = arith.subf %v, %mx : f32
      linalg.yield %d : f32
  } -> tensor<8x64xf32>
  %y3 = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 4, 64] : tensor<8x64xf32> into tensor<2x4x64xf32>
  ktdp.store %y3, %Yt : tensor<2x4x64xf32>, !ktdp.access_tile<2x4x64xindex>
  return
}
