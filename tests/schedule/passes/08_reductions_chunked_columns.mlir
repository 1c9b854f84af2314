// PASS: chunk-reductions
// A column sum (reduce d0, keep d1) of 65536 x 128 f16 per tile: even one 32-column tile
// of all its rows (4 MiB) exceeds spyre's 2 MiB scratchpad, so the reduced rows are
// chunked (decision p0.tile.lx.d0, multiples of 256 rows). The column tile loop and its
// decision go; each stage walks the 32-column vectors of the whole tile, and for each
// vector the load stage moves chunks of [rows, 32] (a strided DMA) through a buffered
// pipeline; the compute stage carries a vector of 32 accumulators across the chunks.
// CHECK-NOT: p0.tile.lx.d1
// CHECK: %K0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 65536 : i64, min_value = 256 : i64, divisibility = 256 : i64} : index
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0"} {
// CHECK: scf.for %p1 = %{{.*}} to %c128{{.*}} step %c32 {
// CHECK: %vec = ktdf.tiling.derive_size
// CHECK-NEXT: scf.for %k0 = %{{.*}} to %[[E:.*]] step %K0 {
// CHECK-NEXT: %m0 = ktdf.tiling.derive_size %k0, %K0, %[[E]] : index
// CHECK-NEXT: ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.d0.modulo") {
// CHECK: ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 32 : i64]} : memref<?x32xf16, "LX">
// CHECK: %[[R:.*]] = arith.addi %{{.*}}, %k0 : index
// CHECK: %[[C:.*]] = arith.addi %{{.*}}, %p1 : index
// CHECK-NEXT: ktdf.data_transfer from %Xv[%[[R]], %[[C]]] size [%m0, %vec] to %{{.*}}[0, 0] size [%m0, %vec]
// CHECK: scf.for %[[V:.*]] = %{{.*}} to %m0 step %c1 {
// CHECK-NEXT: ktdf.data_transfer from %{{.*}}[%[[V]], 0] size [1, %vec]
// CHECK: } {applicable_units = ["dma", "load"]}
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[E]] step %K0 iter_args(%{{.*}} = %{{.*}}) -> (tensor<32xf32>) {
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c1 iter_args(%{{.*}} = %{{.*}}) -> (tensor<32xf32>) {
// CHECK: ktdf.reduction = "arith.addf"}
// CHECK: } {applicable_units = ["sfu"]}
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @col_sum(%X: index, %S: index) attributes {grid = [1 : i64]} {
    func.call @local_schedule_0(%X, %S) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %S: index) attributes {grid = [1 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 65536 : index
      %zero = arith.constant 0.000000e+00 : f32
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c8 : index
      %c128 = arith.constant 128 : index
      %col = arith.muli %t, %c128 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [65536, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 65535) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<65536x128xf16>
      %Sv = ktdp.construct_memory_view %S, sizes: [4096], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 4095) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4096xf16>
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<128xf32, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {role = "intermediate", operand = "sum", access_map = affine_map<(d0) -> (d0)>, tile_dims = [128 : i64]} : memref<128xf32, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<128xf32, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c65536 = arith.constant 65536 : index
          %c128_1 = arith.constant 128 : index
          %c32 = arith.constant 32 : index
          %c0_1 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          scf.for %t1 = %c0_1 to %c128_1 step %T1 {
            %n1 = ktdf.tiling.derive_size %t1, %T1, %c128_1 : index
            ktdf.pipeline {
              %4, %5 = ktdf.private -> (memref<65536x?xf16, "LX">, !ktdf.token) {
                %6 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [65536 : i64, "p0.tile.lx.d1"]} : memref<65536x?xf16, "LX">
                %7 = ktdf.token : !ktdf.token
                ktdf.private_yield %6, %7 : memref<65536x?xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%5) {
                %8 = arith.constant 0 : index
                %9 = arith.addi %row, %8 : index
                %10 = arith.addi %c0, %t1 : index
                ktdf.data_transfer from %Xv[%9, %10] size [65536, %n1] to %4[0, 0] size [65536, %n1] : memref<65536x128xf16>, memref<65536x?xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%5) depends_out(none) {
                scf.for %p1 = %c0_1 to %n1 step %c32 {
                  %11 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %11, %c32, %c128_1 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %12, %13, %14, %15 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 32xf32>, !ktdf.token, !ktdf.token) {
                      %16 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      %17 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 32xf32>
                      %18 = ktdf.token : !ktdf.token
                      %19 = ktdf.token : !ktdf.token
                      ktdf.private_yield %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 32xf32>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%14) {
                      scf.for %20 = %c0_1 to %c65536 step %c1 {
                        ktdf.data_transfer from %4[%20, %p1] size [1, %vec] to %12 size [1, %vec] : memref<65536x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%14) depends_out(%15) {
                      %21 = tensor.empty() : tensor<32xf32>
                      %22 = linalg.fill ins(%zero : f32) outs(%21 : tensor<32xf32>) -> tensor<32xf32>
                      %23 = scf.for %24 = %c0_1 to %c65536 step %c1 iter_args(%25 = %22) -> (tensor<32xf32>) {
                        %26 = ktdf.read_from_fifo %12 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                        %27 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%26 : tensor<1x32xf16>) outs(%25 : tensor<32xf32>) {
                        ^bb0(%xe: f16, %acc: f32):
                          %w = arith.extf %xe : f16 to f32
                          %s = arith.addf %w, %acc : f32
                          linalg.yield %s : f32
                        } -> tensor<32xf32>
                        scf.yield %27 : tensor<32xf32>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 0 : i64}
                      ktdf.write_to_fifo %23, %13 : tensor<32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 32xf32>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%15) depends_out(none) {
                      ktdf.data_transfer from %13 size [%vec] to %0[%11] size [%vec] : !ktdf.fifo.slot<"sfu" -> "store", 32xf32>, memref<128xf32, "LX">
                    } {applicable_units = ["store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {applicable_units = ["load", "sfu", "store"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%1) depends_out(none) {
          %c128_2 = arith.constant 128 : index
          %c32_1 = arith.constant 32 : index
          %c0_2 = arith.constant 0 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 128 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          scf.for %t0 = %c0_2 to %c128_2 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c128_2 : index
            ktdf.pipeline {
              %28, %29 = ktdf.private -> (memref<?xf16, "LX">, !ktdf.token) {
                %30 = ktdf.buffer {role = "output", operand = "S", access_map = affine_map<(d0) -> (d0)>, tile_dims = ["p0.c1.tile.lx.d0"]} : memref<?xf16, "LX">
                %31 = ktdf.token : !ktdf.token
                ktdf.private_yield %30, %31 : memref<?xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%29) {
                scf.for %p0 = %c0_2 to %n0 step %c32_1 {
                  %32 = ktdf.tiling.linearize_index %t0, %p0 : index
                  %vec_1 = ktdf.tiling.derive_size %32, %c32_1, %c128_2 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                    %33, %34, %35, %36 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 32xf16>, !ktdf.token, !ktdf.token) {
                      %37 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 32xf32>
                      %38 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 32xf16>
                      %39 = ktdf.token : !ktdf.token
                      %40 = ktdf.token : !ktdf.token
                      ktdf.private_yield %37, %38, %39, %40 : !ktdf.fifo.slot<"load" -> "sfu", 32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 32xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%35) {
                      ktdf.data_transfer from %0[%32] size [%vec_1] to %33 size [%vec_1] : memref<128xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 32xf32>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%35) depends_out(%36) {
                      %41 = ktdf.read_from_fifo %33 : !ktdf.fifo.slot<"load" -> "sfu", 32xf32> -> tensor<32xf32>
                      %42 = tensor.empty() : tensor<32xf16>
                      %43 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%41 : tensor<32xf32>) outs(%42 : tensor<32xf16>) {
                      ^bb0(%se: f32, %o: f16):
                        %n = arith.truncf %se : f32 to f16
                        linalg.yield %n : f16
                      } -> tensor<32xf16>
                      ktdf.write_to_fifo %43, %34 : tensor<32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 32xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%36) depends_out(none) {
                      ktdf.data_transfer from %34 size [%vec_1] to %28[%p0] size [%vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 32xf16>, memref<?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
              } {applicable_units = ["load", "sfu", "store"]}
              ktdf.stage depends_in(%29) depends_out(none) {
                %44 = arith.addi %col, %t0 : index
                ktdf.data_transfer from %28[0] size [%n0] to %Sv[%44] size [%n0] : memref<?xf16, "LX">, memref<4096xf16>
              } {applicable_units = ["dma"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["load", "sfu", "store", "dma"]}
      }
      func.return
    }
  }
}
