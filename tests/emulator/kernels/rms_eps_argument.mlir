// RMSNorm as Triton-generated KTIR writes it, with eps a float argument of the kernel (as
// Triton passes it): the row's sum of squares read out with tensor.extract, then
// 1/sqrt(mean + eps) by scalar arith/math, spread again by tensor.splat. The scalar chain
// becomes elementwise work on the one-element sum that reads %eps from outside its body;
// %eps stays a launch-time value ("bits" symbol).
// ARGS: eps=0.001
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 127 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rms_eps_argument(%X: index, %eps: f32, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %n = arith.constant 128 : index
  %row = ktdp.get_compute_tile_id : index
  %xv = ktdp.construct_memory_view %X, sizes: [4, 128], strides: [128, 1] {
    coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf32>
  %yv = ktdp.construct_memory_view %Y, sizes: [4, 128], strides: [128, 1] {
    coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x128xf32>
  %xt = ktdp.construct_access_tile %xv[%row, %c0] {access_tile_set = #row, access_tile_order = #id2}
    : memref<4x128xf32> -> !ktdp.access_tile<1x128xindex>
  %yt = ktdp.construct_access_tile %yv[%row, %c0] {access_tile_set = #row, access_tile_order = #id2}
    : memref<4x128xf32> -> !ktdp.access_tile<1x128xindex>
  %x = ktdp.load %xt : !ktdp.access_tile<1x128xindex> -> tensor<1x128xf32>
  %sq = arith.mulf %x, %x : tensor<1x128xf32>
  %zero = arith.constant 0.0 : f32
  %init = tensor.splat %zero : tensor<1xf32>
  %sum = linalg.reduce { arith.addf } ins(%sq : tensor<1x128xf32>) outs(%init : tensor<1xf32>) dimensions = [1]
  %s = tensor.extract %sum[%c0] : tensor<1xf32>
  %ni = arith.index_cast %n : index to i32
  %nf = arith.sitofp %ni : i32 to f32
  %mean = arith.divf %s, %nf : f32
  %shifted = arith.addf %mean, %eps : f32
  %rstd = math.rsqrt %shifted : f32
  %spread = tensor.splat %rstd : tensor<1x128xf32>
  %y = arith.mulf %x, %spread : tensor<1x128xf32>
  ktdp.store %y, %yt : tensor<1x128xf32>, !ktdp.access_tile<1x128xindex>
  return
}
