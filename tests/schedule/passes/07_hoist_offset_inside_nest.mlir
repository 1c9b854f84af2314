// PASS: hoist-invariant-transfers
// The query row q (read by every point of the (p, s, d) reduction) is hoisted; its offset
// h * 64 + 0 was computed inside the tile nest, so the run-once fill recomputes it before
// the nest (an offset shared from inside would not dominate the hoisted transfer).
// CHECK: ktdf.stage depends_in(none) depends_out(%{{.*}}) {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[AT:.*]] = arith.addi %h64, %[[ZERO]] : index
// CHECK-NEXT: ktdf.data_transfer from %Qv[%[[AT]]] size [64] to %{{.*}}[0] size [64]
// CHECK: scf.for %t0
// CHECK-NOT: from %Qv
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @qk(%X: index, %Q: index, %O: index) attributes {grid = [1 : i64]} {
    func.call @local_schedule_0(%X, %Q, %O) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %Q: index, %O: index) attributes {grid = [1 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.000000e+00 : f32
      %h = ktdp.get_compute_tile_id : index
      %h64 = arith.muli %h, %c64 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [4, 16, 64], strides: [1024, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x16x64xf16>
      %Qv = ktdp.construct_memory_view %Q, sizes: [128], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
      %Ov = ktdp.construct_memory_view %O, sizes: [4, 16], strides: [16, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 15) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x16xf32>
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c64_1 = arith.constant 64 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 4 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 16 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      scf.for %t0 = %c0_1 to %c4 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c4 : index
        scf.for %t1 = %c0_1 to %c16 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c16 : index
          ktdf.pipeline {
            %0, %1, %2, %3, %4 = ktdf.private -> (memref<64xf16, "LX">, memref<?x?x64xf16, "LX">, memref<?x?xf32, "LX">, !ktdf.token, !ktdf.token) {
              %5 = ktdf.buffer {role = "input", operand = "Q", access_map = affine_map<(d0, d1, d2) -> (d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 64 : i64]} : memref<64xf16, "LX">
              %6 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 64 : i64]} : memref<?x?x64xf16, "LX">
              %7 = ktdf.buffer {role = "output", operand = "O", access_map = affine_map<(d0, d1, d2) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 64 : i64]} : memref<?x?xf32, "LX">
              %8 = ktdf.token : !ktdf.token
              %9 = ktdf.token : !ktdf.token
              ktdf.private_yield %5, %6, %7, %8, %9 : memref<64xf16, "LX">, memref<?x?x64xf16, "LX">, memref<?x?xf32, "LX">, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%3) {
              %10 = arith.constant 0 : index
              %11 = arith.addi %h64, %10 : index
              ktdf.data_transfer from %Qv[%11] size [64] to %0[0] size [64] : memref<128xf16>, memref<64xf16, "LX">
              %12 = arith.addi %c0, %t0 : index
              %13 = arith.addi %c0, %t1 : index
              %14 = arith.addi %c0, %10 : index
              ktdf.data_transfer from %Xv[%12, %13, %14] size [%n0, %n1, 64] to %1[0, 0, 0] size [%n0, %n1, 64] : memref<4x16x64xf16>, memref<?x?x64xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%3) depends_out(%4) {
              scf.for %p0 = %c0_1 to %n0 step %c1 {
                %15 = ktdf.tiling.linearize_index %t0, %p0 : index
                scf.for %p1 = %c0_1 to %n1 step %c1 {
                  %16 = ktdf.tiling.linearize_index %t1, %p1 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %17, %18, %19, %20, %21 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x1xf32>, !ktdf.token, !ktdf.token) {
                      %22 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                      %23 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x1x32xf16>
                      %24 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x1xf32>
                      %25 = ktdf.token : !ktdf.token
                      %26 = ktdf.token : !ktdf.token
                      ktdf.private_yield %22, %23, %24, %25, %26 : !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x1xf32>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%20) {
                      scf.for %27 = %c0_1 to %c64_1 step %c32 {
                        %vec = ktdf.tiling.derive_size %27, %c32, %c64_1 : index
                        ktdf.data_transfer from %0[%27] size [%vec] to %17 size [%vec] : memref<64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                        ktdf.data_transfer from %1[%p0, %p1, %27] size [1, 1, %vec] to %18 size [1, 1, %vec] : memref<?x?x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x1x32xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%20) depends_out(%21) {
                      %28 = tensor.empty() : tensor<1x1xf32>
                      %29 = linalg.fill ins(%zero : f32) outs(%28 : tensor<1x1xf32>) -> tensor<1x1xf32>
                      %30 = scf.for %31 = %c0_1 to %c64_1 step %c32 iter_args(%32 = %29) -> (tensor<1x1xf32>) {
                        %33 = ktdf.read_from_fifo %17 : !ktdf.fifo.slot<"load" -> "sfu", 32xf16> -> tensor<32xf16>
                        %34 = ktdf.read_from_fifo %18 : !ktdf.fifo.slot<"load" -> "sfu", 1x1x32xf16> -> tensor<1x1x32xf16>
                        %35 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%33, %34 : tensor<32xf16>, tensor<1x1x32xf16>) outs(%32 : tensor<1x1xf32>) {
                        ^bb0(%a: f16, %b: f16, %c: f32):
                          %af = arith.extf %a : f16 to f32
                          %bf = arith.extf %b : f16 to f32
                          %m = arith.mulf %af, %bf : f32
                          %r = arith.addf %m, %c : f32
                          linalg.yield %r : f32
                        } -> tensor<1x1xf32>
                        scf.yield %35 : tensor<1x1xf32>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                      ktdf.write_to_fifo %30, %19 : tensor<1x1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x1xf32>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%21) depends_out(none) {
                      ktdf.data_transfer from %19 size [1, 1] to %2[%p0, %p1] size [1, 1] : !ktdf.fifo.slot<"sfu" -> "store", 1x1xf32>, memref<?x?xf32, "LX">
                    } {applicable_units = ["store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%4) depends_out(none) {
              %36 = arith.addi %c0, %t0 : index
              %37 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %2[0, 0] size [%n0, %n1] to %Ov[%36, %37] size [%n0, %n1] : memref<?x?xf32, "LX">, memref<4x16xf32>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
