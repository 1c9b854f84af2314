// PASS: footprints
// ERROR: program 0 needs 2097154 bytes of LX even with the smallest tiles and one copy of each buffer (4 of them for the address buffers of indirect transfers), but a core has 2097152
// Negative: the kernel's pinned region leaves room for one gathered row and its output
// row (256 bytes) but not for the address buffer's entry as well.
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @embedding_lookup(%E: index, %Ids: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%E, %Ids, %Y) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%E: index, %Ids: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 2096894 : i64} {
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
            %2, %3, %4, %5, %6 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?xi32, "LX">) {
              %7 = ktdf.buffer {role = "input", operand = "Ev_gathered", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %8 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %9 = ktdf.token : !ktdf.token
              %10 = ktdf.token : !ktdf.token
              %11 = ktdf.buffer {role = "addresses", operand = "Iv_addresses", access_map = affine_map<(d0, d1) -> (d0)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?xi32, "LX">
              ktdf.private_yield %7, %8, %9, %10, %11 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?xi32, "LX">
            }
            ktdf.stage depends_in(none) depends_out(%4) {
              %12 = arith.addi %0, %t0_1 : index
              %13 = arith.addi %1, %t1 : index
              %14 = arith.addi %12, %t0 : index
              ktdf.data_transfer from %Iv[%14] size [%n0] to %6[0] size [%n0] {ktdf.addresses_for = "source:0"} : memref<64xi32>, memref<?xi32, "LX">
              ktdf.data_transfer from %Ev_gathered[%12, %13] size [%n0, %n1] to %2[0, 0] size [%n0, %n1] : memref<2x64xf16>, memref<?x?xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%4) depends_out(%5) {
              ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                %15 = ktdf.tiling.linearize_index %t0_1, %p0 : index
                ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = ?) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                  %16 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %16, %c64, %c64 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %17, %18, %19, %20 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %21 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %22 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %23 = ktdf.token : !ktdf.token
                      %24 = ktdf.token : !ktdf.token
                      ktdf.private_yield %21, %22, %23, %24 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%19) {
                      ktdf.data_transfer from %2[%p0, %p1] size [1, %vec] to %17 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%19) depends_out(%20) {
                      %25 = ktdf.read_from_fifo %17 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %26 = tensor.empty() : tensor<1x64xf16>
                      %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%25 : tensor<1x64xf16>) outs(%26 : tensor<1x64xf16>) {
                      ^bb0(%28: f16, %29: f16):
                        linalg.yield %28 : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %27, %18 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%20) depends_out(none) {
                      ktdf.data_transfer from %18 size [1, %vec] to %3[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              }
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%5) depends_out(none) {
              %30 = arith.addi %t0, %t0_1 : index
              %31 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %3[0, 0] size [%n0, %n1] to %Yv[%30, %31] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<64x64xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}