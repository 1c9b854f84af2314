// PASS: hoist-invariant-transfers
// The bias row does not depend on the row-tile loop: its fill moves to a run-once
// pipeline before the loops, into a buffer of all 256 columns, read at tile start +
// point. X (varies with the rows) and the output Y are not hoisted.
// CHECK: ktdf.pipeline {
// CHECK-NEXT: ktdf.private -> (memref<256xf16, "LX">, !ktdf.token) {
// CHECK-NEXT: %[[BIAS:.*]] = ktdf.buffer {role = "input", operand = "bias", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = [1 : i64, 256 : i64]} : memref<256xf16, "LX">
// CHECK: ktdf.data_transfer from %bv[%{{.*}}] size [256] to %{{.*}}[0] size [256]
// CHECK-NEXT: } {applicable_units = ["dma"]}
// CHECK-NEXT: ktdf.stage depends_in(%{{.*}}) depends_out(none) {
// CHECK-NEXT: scf.for %[[T0:.*]] = %{{.*}} to %{{.*}} step %T0 {
// CHECK: ktdf.buffer {role = "input", operand = "X"
// CHECK-NOT: operand = "bias"
// CHECK: ktdf.buffer {role = "output", operand = "Y"
// CHECK: ktdf.data_transfer from %Xv
// CHECK-NOT: ktdf.data_transfer from %bv
// CHECK: %[[G:.*]] = ktdf.tiling.linearize_index %t1, %p1 : index
// CHECK: ktdf.data_transfer from %{{.*}}[%[[G]]] size [%vec] to %{{.*}} size [%vec] : memref<256xf16, "LX">
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @bias_add(%X: index, %bias: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %bias, %Y) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %bias: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c4 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
      %bv = ktdp.construct_memory_view %bias, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [128, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x256xf16>
      %c4_1 = arith.constant 4 : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 4 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 256 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
      scf.for %t0 = %c0_1 to %c4_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c4_1 : index
        scf.for %t1 = %c0_1 to %c256 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c256 : index
          ktdf.pipeline {
            %0, %1, %2, %3, %4 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
              %5 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %6 = ktdf.buffer {role = "input", operand = "bias", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?xf16, "LX">
              %7 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %8 = ktdf.token : !ktdf.token
              %9 = ktdf.token : !ktdf.token
              ktdf.private_yield %5, %6, %7, %8, %9 : memref<?x?xf16, "LX">, memref<?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%3) {
              %10 = arith.addi %row, %t0 : index
              %11 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %Xv[%10, %11] size [%n0, %n1] to %0[0, 0] size [%n0, %n1] : memref<128x256xf16>, memref<?x?xf16, "LX">
              %12 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %bv[%12] size [%n1] to %1[0] size [%n1] : memref<256xf16>, memref<?xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%3) depends_out(%4) {
              scf.for %p0 = %c0_1 to %n0 step %c1 {
                %13 = ktdf.tiling.linearize_index %t0, %p0 : index
                scf.for %p1 = %c0_1 to %n1 step %c64 {
                  %14 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %14, %c64, %c256 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %15, %16, %17, %18, %19 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                      %20 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      %21 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
                      %22 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                      %23 = ktdf.token : !ktdf.token
                      %24 = ktdf.token : !ktdf.token
                      ktdf.private_yield %20, %21, %22, %23, %24 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%18) {
                      ktdf.data_transfer from %0[%p0, %p1] size [1, %vec] to %15 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                      ktdf.data_transfer from %1[%p1] size [%vec] to %16 size [%vec] : memref<?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%18) depends_out(%19) {
                      %25 = ktdf.read_from_fifo %15 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                      %26 = ktdf.read_from_fifo %16 : !ktdf.fifo.slot<"load" -> "sfu", 64xf16> -> tensor<64xf16>
                      %27 = tensor.empty() : tensor<1x64xf16>
                      %28 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%25, %26 : tensor<1x64xf16>, tensor<64xf16>) outs(%27 : tensor<1x64xf16>) {
                      ^bb0(%xe: f16, %be: f16, %out: f16):
                        %s = arith.addf %xe, %be : f16
                        linalg.yield %s : f16
                      } -> tensor<1x64xf16>
                      ktdf.write_to_fifo %28, %17 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%19) depends_out(none) {
                      ktdf.data_transfer from %17 size [1, %vec] to %2[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%4) depends_out(none) {
              %29 = arith.addi %row, %t0 : index
              %30 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %2[0, 0] size [%n0, %n1] to %Yv[%29, %30] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<128x256xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
