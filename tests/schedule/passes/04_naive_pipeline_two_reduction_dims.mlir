// PASS: naive-pipeline
// A reduction over two dimensions that are not the innermost (a 4x8x32 tile summed over
// d0 and d1): two nested reduction loops, the outer one carrying the accumulator its
// inner loop returns (its scf.yield), around the compute stage's generic.
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK-NEXT: %[[OUTER:.*]] = scf.for %{{.*}} = %{{.*}} to %c4 step %c1 iter_args(%[[A0:.*]] = %[[INIT]]) -> (tensor<32xf32>) {
// CHECK-NEXT: %[[INNER:.*]] = scf.for %{{.*}} = %{{.*}} to %c8 step %c1 iter_args(%[[A1:.*]] = %[[A0]]) -> (tensor<32xf32>) {
// CHECK-NEXT: %[[X:.*]] = ktdf.read_from_fifo
// CHECK-NEXT: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x1x32xf16>) outs(%[[A1]] : tensor<32xf32>)
// CHECK: scf.yield %[[SUM]] : tensor<32xf32>
// CHECK-NEXT: } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
// CHECK-NEXT: scf.yield %[[INNER]] : tensor<32xf32>
// CHECK-NEXT: } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 0 : i64}
// CHECK-NEXT: ktdf.write_to_fifo %[[OUTER]]
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @sum_outer(%X: index, %S: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%X, %S) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %S: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %zero = arith.constant 0.000000e+00 : f32
      %t = ktdp.get_compute_tile_id : index
      %col = arith.muli %t, %c32 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [4, 8, 64], strides: [512, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 7) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x8x64xf16>
      %Sv = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
      %Xt = ktdp.construct_access_tile %Xv[%c0, %c0, %col] {access_tile_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 7) >= 0, d2 >= 0, ((d2 * -1) + 31) >= 0)>, access_tile_order = affine_map<(d0, d1, d2) -> (d0, d1, d2)>} : memref<4x8x64xf16> -> !ktdp.access_tile<4x8x32xindex>
      %St = ktdp.construct_access_tile %Sv[%col] {access_tile_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 31) >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<64xf16> -> !ktdp.access_tile<32xindex>
      %x = ktdp.load %Xt : <4x8x32xindex> -> tensor<4x8x32xf16>
      %acc0 = tensor.empty() : tensor<32xf32>
      %acc = linalg.fill ins(%zero : f32) outs(%acc0 : tensor<32xf32>) -> tensor<32xf32>
      %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2)>], iterator_types = ["reduction", "reduction", "parallel"]} ins(%x : tensor<4x8x32xf16>) outs(%acc : tensor<32xf32>) {
      ^bb0(%xe: f16, %a: f32):
        %w = arith.extf %xe : f16 to f32
        %s = arith.addf %w, %a : f32
        linalg.yield %s : f32
      } -> tensor<32xf32>
      %h0 = tensor.empty() : tensor<32xf16>
      %h = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : tensor<32xf32>) outs(%h0 : tensor<32xf16>) {
      ^bb0(%se: f32, %o: f16):
        %n = arith.truncf %se : f32 to f16
        linalg.yield %n : f16
      } -> tensor<32xf16>
      ktdp.store %h, %St : tensor<32xf16>, <32xindex>
      func.return
    }
  }
}
