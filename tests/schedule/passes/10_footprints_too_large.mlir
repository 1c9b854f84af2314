// PASS: footprints
// ERROR: program 0 needs 2097408 bytes of LX even with the smallest tiles
// Negative: the kernel pins the top of the scratchpad (C in a ct_local view ending at
// 2 MiB); the staging buffers of A and B cannot fit even at one vector each.
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @small_add(%A: index, %B: index, %C: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 2097152 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Av = ktdp.construct_memory_view %A, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %pin = arith.constant 1048192 : index
      %Cv = ktdp.construct_memory_view %pin, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<4x96xf16>
      %c2_1 = arith.constant 2 : index
      %c96 = arith.constant 96 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 96 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
      scf.for %t0 = %c0_1 to %c2_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c2_1 : index
        scf.for %t1 = %c0_1 to %c96 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c96 : index
          ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
            %0, %1, %2 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token) {
              %3 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %4 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %5 = ktdf.token : !ktdf.token
              ktdf.private_yield %3, %4, %5 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%2) {
              %6 = arith.addi %row, %t0 : index
              %7 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Av[%6, %7] size [%n0, %n1] to %0[0, 0] size [%n0, %n1] : memref<4x96xf16>, memref<?x?xf16, "LX">
              %8 = arith.addi %row, %t0 : index
              %9 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Bv[%8, %9] size [%n0, %n1] to %1[0, 0] size [%n0, %n1] : memref<4x96xf16>, memref<?x?xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%2) depends_out(none) {
              ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                %10 = ktdf.tiling.linearize_index %t0, %p0 : index
                ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = ?) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                  %11 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %11, %c64, %c96 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %12, %13, %14, %15, %16 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %17 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %18 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %19 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %20 = ktdf.token : !ktdf.token
                      %21 = ktdf.token : !ktdf.token
                      ktdf.private_yield %17, %18, %19, %20, %21 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%15) {
                      ktdf.data_transfer from %0[%p0, %p1] size [1, %vec] to %12 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      ktdf.data_transfer from %1[%p0, %p1] size [1, %vec] to %13 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%15) depends_out(%16) {
                      %22 = ktdf.read_from_fifo %12 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %23 = ktdf.read_from_fifo %13 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %24 = tensor.empty() : tensor<1x64xf16>
                      %25 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%22, %23 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%24 : tensor<1x64xf16>) {
                      ^bb0(%26: f16, %27: f16, %28: f16):
                        %29 = arith.addf %26, %27 : f16
                        %30 = arith.mulf %29, %26 : f16
                        linalg.yield %30 : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %25, %14 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%16) depends_out(none) {
                      %31 = arith.addi %row, %10 : index
                      %32 = arith.addi %c0, %11 : index
                      ktdf.data_transfer from %14 size [1, %vec] to %Cv[%31, %32] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<4x96xf16>
                    } {applicable_units = ["store"]}
                  }
                }
              }
            } {applicable_units = ["load", "sfu", "store"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
