// PASS: interchange-tile-loops
// examples/add_96x64.mlir on spyre after tile-intermediates: a perfect nest of two tile
// loops around the tile pipeline, but every fill depends on both loops' indices (each
// output tile reads its own tiles of A and B): no order reads less, nothing is offered.
// CHECK: builtin.module attributes {ktdf.device = "spyre", ktdf.stopped_after = "tile-intermediates"} {
// CHECK-NOT: ktdf.interchangeable
builtin.module attributes {ktdf.device = "spyre", ktdf.stopped_after = "tile-intermediates"} {
  func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %Av = ktdp.construct_memory_view %A, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %c2 = arith.constant 2 : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 256 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
      scf.for %t0 = %c0_1 to %c2 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c2 : index
        scf.for %t1 = %c0_1 to %c256 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c256 : index
          ktdf.pipeline {
            %0, %1, %2, %3, %4 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
              %5 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %6 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %7 = ktdf.buffer {role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %8 = ktdf.token : !ktdf.token
              %9 = ktdf.token : !ktdf.token
              ktdf.private_yield %5, %6, %7, %8, %9 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%3) {
              %10 = arith.addi %row, %t0 : index
              %11 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Av[%10, %11] size [%n0, %n1] to %0[0, 0] size [%n0, %n1] : memref<64x256xf16>, memref<?x?xf16, "LX">
              %12 = arith.addi %row, %t0 : index
              %13 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Bv[%12, %13] size [%n0, %n1] to %1[0, 0] size [%n0, %n1] : memref<64x256xf16>, memref<?x?xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%3) depends_out(%4) {
              scf.for %p0 = %c0_1 to %n0 step %c1 {
                %14 = ktdf.tiling.linearize_index %t0, %p0 : index
                scf.for %p1 = %c0_1 to %n1 step %c64 {
                  %15 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %15, %c64, %c256 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %16, %17, %18, %19, %20 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %21 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %22 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %23 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %24 = ktdf.token : !ktdf.token
                      %25 = ktdf.token : !ktdf.token
                      ktdf.private_yield %21, %22, %23, %24, %25 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%19) {
                      ktdf.data_transfer from %0[%p0, %p1] size [1, %vec] to %16 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      ktdf.data_transfer from %1[%p0, %p1] size [1, %vec] to %17 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%19) depends_out(%20) {
                      %26 = ktdf.read_from_fifo %16 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %27 = ktdf.read_from_fifo %17 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %28 = tensor.empty() : tensor<1x64xf16>
                      %29 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%26, %27 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%28 : tensor<1x64xf16>) {
                      ^bb0(%30: f16, %31: f16, %32: f16):
                        %33 = arith.addf %30, %31 : f16
                        linalg.yield %33 : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %29, %18 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%20) depends_out(none) {
                      ktdf.data_transfer from %18 size [1, %vec] to %2[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%4) depends_out(none) {
              %34 = arith.addi %row, %t0 : index
              %35 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %2[0, 0] size [%n0, %n1] to %Cv[%34, %35] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<64x256xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}