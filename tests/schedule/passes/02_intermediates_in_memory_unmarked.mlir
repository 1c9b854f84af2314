// PASS: intermediates-in-memory
// The same kernel unmarked (as every kernel is scheduled first): nothing moves; the module
// counts the one result that could (the solver then schedules the kernel both ways).
// CHECK: builtin.module attributes {ktdf.device = "spyre", ktdf.results_read_along_reduction = 1 : i64}
// CHECK: func.func @ffn(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index) attributes {grid = [4 : i64]}
// CHECK-NOT: in_memory
// CHECK: %ys = linalg.generic {{.*}} ins(%h, %wd
// CHECK-NOT: in_memory
// CHECK: func.return
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @ffn(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index) attributes {grid = [4 : i64]} {
    %c0 = arith.constant 0 : index
    %crows = arith.constant 64 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %crows : index
    %zero = arith.constant 0.000000e+00 : f32
    %Xv = ktdp.construct_memory_view %X, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<256x128xf16> -> !ktdp.access_tile<64x128xindex>
    %Wgv = ktdp.construct_memory_view %Wg, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
    %Wgt = ktdp.construct_access_tile %Wgv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<128x256xf16> -> !ktdp.access_tile<128x256xindex>
    %Wuv = ktdp.construct_memory_view %Wu, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
    %Wut = ktdp.construct_access_tile %Wuv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<128x256xf16> -> !ktdp.access_tile<128x256xindex>
    %Wdv = ktdp.construct_memory_view %Wd, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %Wdt = ktdp.construct_access_tile %Wdv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<256x128xf16> -> !ktdp.access_tile<256x128xindex>
    %Yv = ktdp.construct_memory_view %Y, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<256x128xf16> -> !ktdp.access_tile<64x128xindex>
    %x = ktdp.load %Xt : <64x128xindex> -> tensor<64x128xf16>
    %wg = ktdp.load %Wgt : <128x256xindex> -> tensor<128x256xf16>
    %wu = ktdp.load %Wut : <128x256xindex> -> tensor<128x256xf16>
    %wd = ktdp.load %Wdt : <256x128xindex> -> tensor<256x128xf16>
    %gate_acc0 = tensor.empty() : tensor<64x256xf32>
    %gate_acc = linalg.fill ins(%zero : f32) outs(%gate_acc0 : tensor<64x256xf32>) -> tensor<64x256xf32>
    %gate = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %wg : tensor<64x128xf16>, tensor<128x256xf16>) outs(%gate_acc : tensor<64x256xf32>) {
    ^bb0(%ae: f16, %be: f16, %acc: f32):
      %af = arith.extf %ae : f16 to f32
      %bf = arith.extf %be : f16 to f32
      %p = arith.mulf %af, %bf : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    } -> tensor<64x256xf32>
    %up_acc0 = tensor.empty() : tensor<64x256xf32>
    %up_acc = linalg.fill ins(%zero : f32) outs(%up_acc0 : tensor<64x256xf32>) -> tensor<64x256xf32>
    %up = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %wu : tensor<64x128xf16>, tensor<128x256xf16>) outs(%up_acc : tensor<64x256xf32>) {
    ^bb0(%ae_1: f16, %be_1: f16, %acc_1: f32):
      %af_1 = arith.extf %ae_1 : f16 to f32
      %bf_1 = arith.extf %be_1 : f16 to f32
      %p_1 = arith.mulf %af_1, %bf_1 : f32
      %s_1 = arith.addf %acc_1, %p_1 : f32
      linalg.yield %s_1 : f32
    } -> tensor<64x256xf32>
    %h0 = tensor.empty() : tensor<64x256xf16>
    %h = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%gate, %up : tensor<64x256xf32>, tensor<64x256xf32>) outs(%h0 : tensor<64x256xf16>) {
    ^bb0(%g: f32, %u: f32, %o: f16):
      %0 = spyreop.sigmoid %g : f32
      %sg = arith.mulf %g, %0 : f32
      %m = arith.mulf %sg, %u : f32
      %r = arith.truncf %m : f32 to f16
      linalg.yield %r : f16
    } -> tensor<64x256xf16>
    %ys_acc0 = tensor.empty() : tensor<64x128xf32>
    %ys_acc = linalg.fill ins(%zero : f32) outs(%ys_acc0 : tensor<64x128xf32>) -> tensor<64x128xf32>
    %ys = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %wd : tensor<64x256xf16>, tensor<256x128xf16>) outs(%ys_acc : tensor<64x128xf32>) {
    ^bb0(%ae_2: f16, %be_2: f16, %acc_2: f32):
      %af_2 = arith.extf %ae_2 : f16 to f32
      %bf_2 = arith.extf %be_2 : f16 to f32
      %p_2 = arith.mulf %af_2, %bf_2 : f32
      %s_2 = arith.addf %acc_2, %p_2 : f32
      linalg.yield %s_2 : f32
    } -> tensor<64x128xf32>
    %y0 = tensor.empty() : tensor<64x128xf16>
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ys : tensor<64x128xf32>) outs(%y0 : tensor<64x128xf16>) {
    ^bb0(%v: f32, %o_1: f16):
      %r_1 = arith.truncf %v : f32 to f16
      linalg.yield %r_1 : f16
    } -> tensor<64x128xf16>
    ktdp.store %y, %Yt : tensor<64x128xf16>, <64x128xindex>
    func.return
  }
}
