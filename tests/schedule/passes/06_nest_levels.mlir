// PASS: nest-by-memory-level
// One LX level: tile sizes reserved (the column tile in whole vectors), tile loops around
// an outer pipeline whose DMA stages move whole tiles, point loops around the FIFO
// pipeline in its middle stage; LX buffers indexed by the point in the tile.
// CHECK: %[[T0:.*]] = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
// CHECK-NEXT: %[[T1:.*]] = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 96 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
// CHECK-NEXT: scf.for %[[A:.*]] = %{{.*}} to %{{.*}} step %[[T0]] {
// CHECK-NEXT: %[[N0:.*]] = ktdf.tiling.derive_size %[[A]], %[[T0]]
// CHECK-NEXT: scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %[[T1]] {
// CHECK-NEXT: %[[N1:.*]] = ktdf.tiling.derive_size %[[B]], %[[T1]]
// CHECK-NEXT: ktdf.pipeline {
// CHECK: ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
// CHECK: ktdf.data_transfer from %Av[%{{.*}}, %{{.*}}] size [%[[N0]], %[[N1]]] to %{{.*}}[0, 0] size [%[[N0]], %[[N1]]]
// CHECK: } {applicable_units = ["dma"]}
// CHECK: scf.for %[[P0:.*]] = %{{.*}} to %[[N0]] step %c1
// CHECK: ktdf.tiling.linearize_index %[[A]], %[[P0]]
// CHECK: scf.for %[[P1:.*]] = %{{.*}} to %[[N1]] step %c64
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0"} {
// CHECK: ktdf.data_transfer from %{{.*}}[%[[P0]], %[[P1]]] size [1, %vec]
// CHECK: } {applicable_units = ["load", "sfu", "store"]}
// CHECK: ktdf.data_transfer from %{{.*}}[0, 0] size [%[[N0]], %[[N1]]] to %Cv
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
      %c2_1 = arith.constant 2 : index
      %c96 = arith.constant 96 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      scf.for %i0 = %c0_1 to %c2_1 step %c1 {
        scf.for %i1 = %c0_1 to %c96 step %c64 {
          %vec = ktdf.tiling.derive_size %i1, %c64, %c96 : index
          ktdf.pipeline attributes {ktdf.compute = "p0"} {
            %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 = ktdf.private -> (memref<1x64xf16, "LX">, memref<1x64xf16, "LX">, memref<1x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token) {
              %10 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [1 : i64, 64 : i64]} : memref<1x64xf16, "LX">
              %11 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [1 : i64, 64 : i64]} : memref<1x64xf16, "LX">
              %12 = ktdf.buffer {role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [1 : i64, 64 : i64]} : memref<1x64xf16, "LX">
              %13 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
              %14 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
              %15 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
              %16 = ktdf.token : !ktdf.token
              %17 = ktdf.token : !ktdf.token
              %18 = ktdf.token : !ktdf.token
              %19 = ktdf.token : !ktdf.token
              ktdf.private_yield %10, %11, %12, %13, %14, %15, %16, %17, %18, %19 : memref<1x64xf16, "LX">, memref<1x64xf16, "LX">, memref<1x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%6) {
              %20 = arith.addi %row, %i0 : index
              %21 = arith.addi %c0, %i1 : index
              ktdf.data_transfer from %Av[%20, %21] size [1, %vec] to %0[0, 0] size [1, %vec] : memref<4x96xf16>, memref<1x64xf16, "LX">
              %22 = arith.addi %row, %i0 : index
              %23 = arith.addi %c0, %i1 : index
              ktdf.data_transfer from %Bv[%22, %23] size [1, %vec] to %1[0, 0] size [1, %vec] : memref<4x96xf16>, memref<1x64xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%6) depends_out(%7) {
              ktdf.data_transfer from %0[0, 0] size [1, %vec] to %3 size [1, %vec] : memref<1x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
              ktdf.data_transfer from %1[0, 0] size [1, %vec] to %4 size [1, %vec] : memref<1x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
            } {applicable_units = ["load"]}
            ktdf.stage depends_in(%7) depends_out(%8) {
              %24 = ktdf.read_from_fifo %3 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
              %25 = ktdf.read_from_fifo %4 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
              %26 = tensor.empty() : tensor<1x64xf16>
              %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%24, %25 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%26 : tensor<1x64xf16>) {
              ^bb0(%28: f16, %29: f16, %30: f16):
                %31 = arith.addf %28, %29 : f16
                %32 = arith.mulf %31, %28 : f16
                linalg.yield %32 : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %27, %5 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
            } {applicable_units = ["sfu"]}
            ktdf.stage depends_in(%8) depends_out(%9) {
              ktdf.data_transfer from %5 size [1, %vec] to %2[0, 0] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<1x64xf16, "LX">
            } {applicable_units = ["store"]}
            ktdf.stage depends_in(%9) depends_out(none) {
              %33 = arith.addi %row, %i0 : index
              %34 = arith.addi %c0, %i1 : index
              ktdf.data_transfer from %2[0, 0] size [1, %vec] to %Cv[%33, %34] size [1, %vec] : memref<1x64xf16, "LX">, memref<4x96xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
