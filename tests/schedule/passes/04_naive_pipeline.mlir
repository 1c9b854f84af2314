// PASS: naive-pipeline
// Loops to the 64-lane f16 vector (rows step 1, columns step 64 with a partial last
// vector of 32: derive_size), and in the innermost loop a load -> compute -> store
// pipeline through FIFOs between the home memory kind and the sfu.
// CHECK: scf.for %[[I0:.*]] = %{{.*}} to %c2{{.*}} step %c1 {
// CHECK-NEXT: scf.for %[[I1:.*]] = %{{.*}} to %c96 step %c64 {
// CHECK-NEXT: %[[V:.*]] = ktdf.tiling.derive_size %[[I1]], %c64, %c96 : index
// CHECK-NEXT: ktdf.pipeline attributes {ktdf.compute = "p0"} {
// CHECK: ktdf.fifo : !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>
// CHECK: ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "DDR", 1x64xf16>
// CHECK: ktdf.stage depends_in(none) depends_out(%{{.*}}) {
// CHECK: ktdf.data_transfer from %Av[%{{.*}}, %{{.*}}] size [1, %[[V]]] to %{{.*}} size [1, %[[V]]]
// CHECK: } {applicable_units = []}
// CHECK: ktdf.read_from_fifo
// CHECK: linalg.generic
// CHECK-SAME: tensor<1x64xf16>
// CHECK: ktdf.write_to_fifo
// CHECK: } {applicable_units = ["sfu"]}
// CHECK: ktdf.data_transfer from %{{.*}} size [1, %[[V]]] to %Cv[%{{.*}}, %{{.*}}] size [1, %[[V]]]
// CHECK: } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
// CHECK-NEXT: } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
// CHECK-NOT: ktdp.load
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @small_add(%A: index, %B: index, %C: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Av = ktdp.construct_memory_view %A, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
      %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
      %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x96xf16> -> !ktdp.access_tile<2x96xindex>
      %a = ktdp.load %At : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
      %b = ktdp.load %Bt : !ktdp.access_tile<2x96xindex> -> tensor<2x96xf16>
      %e2 = tensor.empty() : tensor<2x96xf16>
      %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x96xf16>, tensor<2x96xf16>) outs(%e2 : tensor<2x96xf16>) {
      ^bb0(%0: f16, %1: f16, %2: f16):
        %3 = arith.addf %0, %1 : f16
        %4 = arith.mulf %3, %0 : f16
        linalg.yield %4 : f16
      } -> tensor<2x96xf16>
      ktdp.store %c, %Ct : tensor<2x96xf16>, !ktdp.access_tile<2x96xindex>
      func.return
    }
  }
}
