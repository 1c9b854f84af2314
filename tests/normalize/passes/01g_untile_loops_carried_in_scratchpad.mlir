// PASS: untile-loops
// A loop carrying a value that is not a reduction's accumulator (acc * 0.5 + x_k) is not
// folded: the value is carried in a slot of the tile's own scratchpad (stored before the
// loop, loaded at the start of each iteration and stored at its end, loaded after it),
// and the loop, now without iter_args, is left to the orchestrator.
// CHECK: %slot = ktdp.construct_memory_view %{{.*}}, sizes: [2, 128], strides: [128, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>}
// CHECK: %slot_t = ktdp.construct_access_tile %slot
// CHECK: ktdp.store %init, %slot_t
// CHECK-NEXT: scf.for %col = %c0 to %c512 step %c128 {
// CHECK-NEXT: %acc = ktdp.load %slot_t
// CHECK: %x = ktdp.load
// CHECK: ktdp.store %{{.*}}, %slot_t
// CHECK-NEXT: }
// CHECK-NEXT: %last = ktdp.load %slot_t
// CHECK: ktdp.store %last, %Yt
// CHECK-NOT: iter_args
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @carried_recurrence(%X: index, %Y: index) attributes {grid = [4 : i64]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %c512 = arith.constant 512 : index
    %zero = arith.constant 0.000000e+00 : f16
    %half = arith.constant 5.000000e-01 : f16
    %half_1 = tensor.empty() : tensor<2x128xf16>
    %half_2 = linalg.fill ins(%half : f16) outs(%half_1 : tensor<2x128xf16>) -> tensor<2x128xf16>
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 512], strides: [512, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 511) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x128xf16>
    %e = tensor.empty() : tensor<2x128xf16>
    %init = linalg.fill ins(%zero : f16) outs(%e : tensor<2x128xf16>) -> tensor<2x128xf16>
    %last = scf.for %col = %c0 to %c512 step %c128 iter_args(%acc = %init) -> (tensor<2x128xf16>) {
      %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x512xf16> -> !ktdp.access_tile<2x128xindex>
      %x = ktdp.load %Xt : <2x128xindex> -> tensor<2x128xf16>
      %scaled = tensor.empty() : tensor<2x128xf16>
      %scaled_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%acc : tensor<2x128xf16>) outs(%scaled : tensor<2x128xf16>) {
      ^bb0(%0: f16, %1: f16):
        %2 = arith.mulf %0, %half : f16
        linalg.yield %2 : f16
      } -> tensor<2x128xf16>
      %next = tensor.empty() : tensor<2x128xf16>
      %next_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%scaled_1, %x : tensor<2x128xf16>, tensor<2x128xf16>) outs(%next : tensor<2x128xf16>) {
      ^bb0(%3: f16, %4: f16, %5: f16):
        %6 = arith.addf %3, %4 : f16
        linalg.yield %6 : f16
      } -> tensor<2x128xf16>
      scf.yield %next_1 : tensor<2x128xf16>
    }
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x128xf16> -> !ktdp.access_tile<2x128xindex>
    ktdp.store %last, %Yt : tensor<2x128xf16>, <2x128xindex>
    func.return
  }
}
