// PASS: chunk-reductions
// A row sum of 2M f16 per row stored in f32 straight to device memory: the result's
// staging buffer (tile_dims of the row tile before) now holds every row of the compute
// tile; a run-once pipeline wraps the chunked compute and drains it once, after it.
// CHECK: %K1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 2097152 : i64, min_value = 8192 : i64, divisibility = 8192 : i64} : index
// CHECK: ktdf.pipeline {
// CHECK: %[[OUT:.*]] = ktdf.buffer {role = "output", operand = "S", access_map = affine_map<(d0, d1) -> (d0)>, tile_dims = [1 : i64, 2097152 : i64]} : memref<1xf32, "LX">
// CHECK: ktdf.stage depends_in(none) depends_out(%[[TOKEN:.*]]) {
// CHECK-NEXT: ktdf.pipeline attributes {ktdf.compute = "p0"} {
// CHECK: ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.d1.modulo") {
// CHECK: ktdf.data_transfer from %{{.*}} size [1] to %[[RES:.*]][%p0_2] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<1xf32, "LX">
// CHECK: } {applicable_units = ["dma", "load", "sfu", "store"]}
// CHECK-NEXT: ktdf.stage depends_in(%[[TOKEN]]) depends_out(none) {
// CHECK: ktdf.data_transfer from %[[RES]][0] size [%c1] to %Sv[%{{.*}}] size [%c1] : memref<1xf32, "LX">, memref<32xf32>
// CHECK-NEXT: } {applicable_units = ["dma"]}
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @row_sum(%X: index, %S: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %S) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %S: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %cr = arith.constant 1 : index
      %zero = arith.constant 0.000000e+00 : f32
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %cr : index
      %Xv = ktdp.construct_memory_view %X, sizes: [32, 2097152], strides: [2097152, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 2097151) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x2097152xf16>
      %Sv = ktdp.construct_memory_view %S, sizes: [32], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 31) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32xf32>
      %c1 = arith.constant 1 : index
      %c2097152 = arith.constant 2097152 : index
      %c0_1 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 1 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      scf.for %t0 = %c0_1 to %c1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c1 : index
        ktdf.pipeline {
          %0, %1, %2, %3 = ktdf.private -> (memref<?x2097152xf16, "LX">, memref<?xf32, "LX">, !ktdf.token, !ktdf.token) {
            %4 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 2097152 : i64]} : memref<?x2097152xf16, "LX">
            %5 = ktdf.buffer {role = "output", operand = "S", access_map = affine_map<(d0, d1) -> (d0)>, tile_dims = ["p0.tile.lx.d0", 2097152 : i64]} : memref<?xf32, "LX">
            %6 = ktdf.token : !ktdf.token
            %7 = ktdf.token : !ktdf.token
            ktdf.private_yield %4, %5, %6, %7 : memref<?x2097152xf16, "LX">, memref<?xf32, "LX">, !ktdf.token, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%2) {
            %8 = arith.constant 0 : index
            %9 = arith.addi %row, %t0 : index
            %10 = arith.addi %c0, %8 : index
            ktdf.data_transfer from %Xv[%9, %10] size [%n0, 2097152] to %0[0, 0] size [%n0, 2097152] : memref<32x2097152xf16>, memref<?x2097152xf16, "LX">
          } {applicable_units = ["dma"]}
          ktdf.stage depends_in(%2) depends_out(%3) {
            scf.for %p0 = %c0_1 to %n0 step %c1 {
              %11 = ktdf.tiling.linearize_index %t0, %p0 : index
              ktdf.pipeline attributes {ktdf.compute = "p0"} {
                %12, %13, %14, %15 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token) {
                  %16 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                  %17 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                  %18 = ktdf.token : !ktdf.token
                  %19 = ktdf.token : !ktdf.token
                  ktdf.private_yield %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%14) {
                  scf.for %20 = %c0_1 to %c2097152 step %c32 {
                    %vec = ktdf.tiling.derive_size %20, %c32, %c2097152 : index
                    ktdf.data_transfer from %0[%p0, %20] size [1, %vec] to %12 size [1, %vec] : memref<?x2097152xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                  } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                } {applicable_units = ["load"]}
                ktdf.stage depends_in(%14) depends_out(%15) {
                  %21 = tensor.empty() : tensor<1xf32>
                  %22 = linalg.fill ins(%zero : f32) outs(%21 : tensor<1xf32>) -> tensor<1xf32>
                  %23 = scf.for %24 = %c0_1 to %c2097152 step %c32 iter_args(%25 = %22) -> (tensor<1xf32>) {
                    %26 = ktdf.read_from_fifo %12 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                    %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%26 : tensor<1x32xf16>) outs(%25 : tensor<1xf32>) {
                    ^bb0(%xe: f16, %a: f32):
                      %w = arith.extf %xe : f16 to f32
                      %s = arith.addf %w, %a : f32
                      linalg.yield %s : f32
                    } -> tensor<1xf32>
                    scf.yield %27 : tensor<1xf32>
                  } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                  ktdf.write_to_fifo %23, %13 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                } {applicable_units = ["sfu"]}
                ktdf.stage depends_in(%15) depends_out(none) {
                  ktdf.data_transfer from %13 size [1] to %1[%p0] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<?xf32, "LX">
                } {applicable_units = ["store"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
          } {applicable_units = ["load", "sfu", "store"]}
          ktdf.stage depends_in(%3) depends_out(none) {
            %28 = arith.addi %row, %t0 : index
            ktdf.data_transfer from %1[0] size [%n0] to %Sv[%28] size [%n0] : memref<?xf32, "LX">, memref<32xf32>
          } {applicable_units = ["dma"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
