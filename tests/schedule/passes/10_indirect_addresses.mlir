// PASS: indirect-addresses
// The DMA stage that gathers rows of the gather view first fetches the tile's indices
// (Ids[t0 + row]) into an addresses buffer of the pipeline, tiled like the rows.
// CHECK: %{{.*}} = ktdf.buffer {role = "addresses", operand = "Iv_addresses", access_map = affine_map<(d0, d1) -> (d0)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?xi32, "LX">
// CHECK: ktdf.stage depends_in(none)
// CHECK: %[[ROW:.*]] = arith.addi %{{.*}}, %t0_1 : index
// CHECK: %[[AT:.*]] = arith.addi %[[ROW]], %t0 : index
// CHECK-NEXT: ktdf.data_transfer from %Iv[%[[AT]]] size [%n0] to %{{.*}}[0] size [%n0] {ktdf.addresses_for = "source:0"} : memref<64xi32>, memref<?xi32, "LX">
// CHECK-NEXT: ktdf.data_transfer from %Ev_gathered[%[[ROW]], %{{.*}}] size [%n0, %n1]
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @embedding_lookup(%E: index, %Ids: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%E, %Ids, %Y) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%E: index, %Ids: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %id = ktdp.get_compute_tile_id : index
      %t0 = arith.muli %id, %c2 : index
      %Ev = ktdp.construct_memory_view %E, sizes: [256, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x64xf16>
      %Iv = ktdp.construct_memory_view %Ids, sizes: [64], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
      %Yv = ktdp.construct_memory_view %Y, sizes: [64, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
      %0 = arith.constant 0 : index
      %1 = arith.constant 0 : index
      %Ev_gathered = ktdf.gather_view %Ev indices(%Iv) outer(%t0) {ind_dims = array<i64: 0, -1>, dim_map = affine_map<(d0, d1)[s0] -> (0, d1)>, index_maps = [affine_map<(d0, d1)[s0] -> ((s0 + d0))>], lows = array<i64: 0, 0>, extents = array<i64: 2, 64>} : memref<256x64xf16>, (memref<64xi32>) -> memref<2x64xf16>
      %c2_1 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 64 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
      scf.for %t0_1 = %c0_1 to %c2_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0_1, %T0, %c2_1 : index
        scf.for %t1 = %c0_1 to %c64 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c64 : index
          ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
            %2, %3, %4, %5 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
              %6 = ktdf.buffer {role = "input", operand = "Ev_gathered", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %7 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %8 = ktdf.token : !ktdf.token
              %9 = ktdf.token : !ktdf.token
              ktdf.private_yield %6, %7, %8, %9 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%4) {
              %10 = arith.addi %0, %t0_1 : index
              %11 = arith.addi %1, %t1 : index
              ktdf.data_transfer from %Ev_gathered[%10, %11] size [%n0, %n1] to %2[0, 0] size [%n0, %n1] : memref<2x64xf16>, memref<?x?xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%4) depends_out(%5) {
              ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                %12 = ktdf.tiling.linearize_index %t0_1, %p0 : index
                ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = ?) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                  %13 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %13, %c64, %c64 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %14, %15, %16, %17 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %18 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %19 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %20 = ktdf.token : !ktdf.token
                      %21 = ktdf.token : !ktdf.token
                      ktdf.private_yield %18, %19, %20, %21 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%16) {
                      ktdf.data_transfer from %2[%p0, %p1] size [1, %vec] to %14 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%16) depends_out(%17) {
                      %22 = ktdf.read_from_fifo %14 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %23 = tensor.empty() : tensor<1x64xf16>
                      %24 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<1x64xf16>) outs(%23 : tensor<1x64xf16>) {
                      ^bb0(%25: f16, %26: f16):
                        linalg.yield %25 : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %24, %15 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%17) depends_out(none) {
                      ktdf.data_transfer from %15 size [1, %vec] to %3[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              }
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%5) depends_out(none) {
              %27 = arith.addi %t0, %t0_1 : index
              %28 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %3[0, 0] size [%n0, %n1] to %Yv[%27, %28] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<64x64xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
