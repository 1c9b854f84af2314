// PASS: chunk-reductions
// tests/matmul/kernels/ffn_gate_up_streamed.mlir (H through device memory) on the 128 KiB
// test device: the first program's gate = X @ Wg and up = X @ Wu each read a whole-K
// 1024 x 64 f16 panel at the narrowest (128 KiB, the scratchpad alone), so the buffers
// exceed the scratchpad even once fuse-tile-loops and tile-intermediates have held the
// f32 products one tile at a time. They fit once the panels are streamed in K chunks
// beside X's row tile (hoist-inner-invariants, stream-k-chunks: tried on a copy), so the
// K loops are not chunked here: no chunk decision, the products' buffers and the tile
// loops stay, the reductions are only tagged.
// CHECK: operand = "gate", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [16 : i64, 128 : i64]
// CHECK: %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0"
// CHECK: operand = "Wg", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 1024 : i64]
// CHECK: ktdf.reduction = "arith.addf"
// CHECK: operand = "Wu", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1", 1024 : i64]
// CHECK: ktdf.reduction = "arith.addf"
// CHECK-NOT: tile.lx.d2
// CHECK: builtin.module @program_1
builtin.module attributes {ktdf.device = "tests/solve/devices/spyre_128k_lx.mlir"} {
  func.func @ffn(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index, %h_in_memory: index) attributes {grid = [4 : i64], ktdf.workspaces = ["h_in_memory"]} {
    func.call @local_schedule_0(%X, %Wg, %Wu, %Wd, %Y, %h_in_memory) : (index, index, index, index, index, index) -> ()
    func.call @local_schedule_1(%X, %Wg, %Wu, %Wd, %Y, %h_in_memory) : (index, index, index, index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index, index, index, index) -> ()
  func.func private @local_schedule_1(index, index, index, index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index, %h_in_memory: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 16 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 1023) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %Wgv = ktdp.construct_memory_view %Wg, sizes: [1024, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1023) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1024x128xf16>
      %Wuv = ktdp.construct_memory_view %Wu, sizes: [1024, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1023) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<1024x128xf16>
      %h_in_memory_view = ktdp.construct_memory_view %h_in_memory, sizes: [64, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      ktdf.pipeline {
        %0, %1, %2, %3 = ktdf.private -> (memref<16x128xf32, "LX">, memref<16x128xf32, "LX">, !ktdf.token, !ktdf.token) {
          %4 = ktdf.buffer {role = "intermediate", operand = "gate", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [16 : i64, 128 : i64]} : memref<16x128xf32, "LX">
          %5 = ktdf.buffer {role = "intermediate", operand = "up", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [16 : i64, 128 : i64]} : memref<16x128xf32, "LX">
          %6 = ktdf.token : !ktdf.token
          %7 = ktdf.token : !ktdf.token
          ktdf.private_yield %4, %5, %6, %7 : memref<16x128xf32, "LX">, memref<16x128xf32, "LX">, !ktdf.token, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%2) {
          %c16 = arith.constant 16 : index
          %c128 = arith.constant 128 : index
          %c1024 = arith.constant 1024 : index
          %c8 = arith.constant 8 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 16 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_1 to %c16 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c16 : index
            scf.for %t1 = %c0_1 to %c128 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c128 : index
              ktdf.pipeline {
                %8, %9, %10 = ktdf.private -> (memref<?x1024xf16, "LX">, memref<1024x?xf16, "LX">, !ktdf.token) {
                  %11 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 1024 : i64]} : memref<?x1024xf16, "LX">
                  %12 = ktdf.buffer {role = "input", operand = "Wg", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 1024 : i64]} : memref<1024x?xf16, "LX">
                  %13 = ktdf.token : !ktdf.token
                  ktdf.private_yield %11, %12, %13 : memref<?x1024xf16, "LX">, memref<1024x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%10) {
                  %14 = arith.constant 0 : index
                  %15 = arith.addi %row, %t0 : index
                  %16 = arith.addi %c0, %14 : index
                  ktdf.data_transfer from %Xv[%15, %16] size [%n0, 1024] to %8[0, 0] size [%n0, 1024] : memref<64x1024xf16>, memref<?x1024xf16, "LX">
                  %17 = arith.addi %c0, %14 : index
                  %18 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Wgv[%17, %18] size [1024, %n1] to %9[0, 0] size [1024, %n1] : memref<1024x128xf16>, memref<1024x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%10) depends_out(none) {
                  scf.for %p0 = %c0_1 to %n0 step %c8 {
                    %19 = ktdf.tiling.linearize_index %t0, %p0 : index
                    scf.for %p1 = %c0_1 to %n1 step %c64 {
                      %20 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %blk = ktdf.tiling.derive_size %19, %c8, %c16 : index
                      %blk_1 = ktdf.tiling.derive_size %20, %c64, %c128 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0"} {
                        %21, %22, %23, %24, %25 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                          %26 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                          %27 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          %28 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                          %29 = ktdf.token : !ktdf.token
                          %30 = ktdf.token : !ktdf.token
                          ktdf.private_yield %26, %27, %28, %29, %30 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%24) {
                          scf.for %31 = %c0_1 to %c1024 step %c32 {
                            %vec = ktdf.tiling.derive_size %31, %c32, %c1024 : index
                            ktdf.data_transfer from %8[%p0, %31] size [%blk, %vec] to %21 size [%blk, %vec] : memref<?x1024xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                            ktdf.data_transfer from %9[%31, %p1] size [%vec, %blk_1] to %22 size [%vec, %blk_1] : memref<1024x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%24) depends_out(%25) {
                          %32 = tensor.empty() : tensor<8x64xf32>
                          %33 = linalg.fill ins(%zero : f32) outs(%32 : tensor<8x64xf32>) -> tensor<8x64xf32>
                          %34 = scf.for %35 = %c0_1 to %c1024 step %c32 iter_args(%36 = %33) -> (tensor<8x64xf32>) {
                            %37 = ktdf.read_from_fifo %21 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                            %38 = ktdf.read_from_fifo %22 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                            %39 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%37, %38 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%36 : tensor<8x64xf32>) {
                            ^bb0(%ae: f16, %be: f16, %acc: f32):
                              %af = arith.extf %ae : f16 to f32
                              %bf = arith.extf %be : f16 to f32
                              %p = arith.mulf %af, %bf : f32
                              %s = arith.addf %acc, %p : f32
                              linalg.yield %s : f32
                            } -> tensor<8x64xf32>
                            scf.yield %39 : tensor<8x64xf32>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                          ktdf.write_to_fifo %34, %23 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                        } {applicable_units = ["systolic"]}
                        ktdf.stage depends_in(%25) depends_out(none) {
                          ktdf.data_transfer from %23 size [%blk, %blk_1] to %0[%19, %20] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<16x128xf32, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "systolic", "store"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store"]}
        ktdf.stage depends_in(%2) depends_out(%3) {
          %c16_1 = arith.constant 16 : index
          %c128_1 = arith.constant 128 : index
          %c1024_1 = arith.constant 1024 : index
          %c8_1 = arith.constant 8 : index
          %c0_2 = arith.constant 0 : index
          %c64_1 = arith.constant 64 : index
          %c32_1 = arith.constant 32 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 16 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0_1 = %c0_2 to %c16_1 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c16_1 : index
            scf.for %t1_1 = %c0_2 to %c128_1 step %T1_1 {
              %n1_1 = ktdf.tiling.derive_size %t1_1, %T1_1, %c128_1 : index
              ktdf.pipeline {
                %40, %41, %42 = ktdf.private -> (memref<?x1024xf16, "LX">, memref<1024x?xf16, "LX">, !ktdf.token) {
                  %43 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1", 1024 : i64]} : memref<?x1024xf16, "LX">
                  %44 = ktdf.buffer {role = "input", operand = "Wu", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1", 1024 : i64]} : memref<1024x?xf16, "LX">
                  %45 = ktdf.token : !ktdf.token
                  ktdf.private_yield %43, %44, %45 : memref<?x1024xf16, "LX">, memref<1024x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%42) {
                  %46 = arith.constant 0 : index
                  %47 = arith.addi %row, %t0_1 : index
                  %48 = arith.addi %c0, %46 : index
                  ktdf.data_transfer from %Xv[%47, %48] size [%n0_1, 1024] to %40[0, 0] size [%n0_1, 1024] : memref<64x1024xf16>, memref<?x1024xf16, "LX">
                  %49 = arith.addi %c0, %46 : index
                  %50 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %Wuv[%49, %50] size [1024, %n1_1] to %41[0, 0] size [1024, %n1_1] : memref<1024x128xf16>, memref<1024x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%42) depends_out(none) {
                  scf.for %p0_1 = %c0_2 to %n0_1 step %c8_1 {
                    %51 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    scf.for %p1_1 = %c0_2 to %n1_1 step %c64_1 {
                      %52 = ktdf.tiling.linearize_index %t1_1, %p1_1 : index
                      %blk_2 = ktdf.tiling.derive_size %51, %c8_1, %c16_1 : index
                      %blk_3 = ktdf.tiling.derive_size %52, %c64_1, %c128_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %53, %54, %55, %56, %57 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                          %58 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                          %59 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          %60 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                          %61 = ktdf.token : !ktdf.token
                          %62 = ktdf.token : !ktdf.token
                          ktdf.private_yield %58, %59, %60, %61, %62 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%56) {
                          scf.for %63 = %c0_2 to %c1024_1 step %c32_1 {
                            %vec_1 = ktdf.tiling.derive_size %63, %c32_1, %c1024_1 : index
                            ktdf.data_transfer from %40[%p0_1, %63] size [%blk_2, %vec_1] to %53 size [%blk_2, %vec_1] : memref<?x1024xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                            ktdf.data_transfer from %41[%63, %p1_1] size [%vec_1, %blk_3] to %54 size [%vec_1, %blk_3] : memref<1024x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%56) depends_out(%57) {
                          %64 = tensor.empty() : tensor<8x64xf32>
                          %65 = linalg.fill ins(%zero : f32) outs(%64 : tensor<8x64xf32>) -> tensor<8x64xf32>
                          %66 = scf.for %67 = %c0_2 to %c1024_1 step %c32_1 iter_args(%68 = %65) -> (tensor<8x64xf32>) {
                            %69 = ktdf.read_from_fifo %53 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                            %70 = ktdf.read_from_fifo %54 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                            %71 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%69, %70 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%68 : tensor<8x64xf32>) {
                            ^bb0(%ae_1: f16, %be_1: f16, %acc_1: f32):
                              %af_1 = arith.extf %ae_1 : f16 to f32
                              %bf_1 = arith.extf %be_1 : f16 to f32
                              %p_1 = arith.mulf %af_1, %bf_1 : f32
                              %s_1 = arith.addf %acc_1, %p_1 : f32
                              linalg.yield %s_1 : f32
                            } -> tensor<8x64xf32>
                            scf.yield %71 : tensor<8x64xf32>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                          ktdf.write_to_fifo %66, %55 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                        } {applicable_units = ["systolic"]}
                        ktdf.stage depends_in(%57) depends_out(none) {
                          ktdf.data_transfer from %55 size [%blk_2, %blk_3] to %1[%51, %52] size [%blk_2, %blk_3] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<16x128xf32, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "systolic", "store"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store"]}
        ktdf.stage depends_in(%3) depends_out(none) {
          %72 = arith.constant 16 : index
          %73 = arith.muli %t, %72 : index
          %74 = arith.constant 0 : index
          %c16_2 = arith.constant 16 : index
          %c128_2 = arith.constant 128 : index
          %c1 = arith.constant 1 : index
          %c0_3 = arith.constant 0 : index
          %c32_2 = arith.constant 32 : index
          %T0_2 = ktdf.tiling.reserve_size {decision = "p0.c2.tile.lx.d0", extent = 16 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1_2 = ktdf.tiling.reserve_size {decision = "p0.c2.tile.lx.d1", extent = 128 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          scf.for %t0_2 = %c0_3 to %c16_2 step %T0_2 {
            %n0_2 = ktdf.tiling.derive_size %t0_2, %T0_2, %c16_2 : index
            scf.for %t1_2 = %c0_3 to %c128_2 step %T1_2 {
              %n1_2 = ktdf.tiling.derive_size %t1_2, %T1_2, %c128_2 : index
              ktdf.pipeline {
                %75, %76 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %77 = ktdf.buffer {role = "output", operand = "h_in_memory", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c2.tile.lx.d0", "p0.c2.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %78 = ktdf.token : !ktdf.token
                  ktdf.private_yield %77, %78 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%76) {
                  scf.for %p0_2 = %c0_3 to %n0_2 step %c1 {
                    %79 = ktdf.tiling.linearize_index %t0_2, %p0_2 : index
                    scf.for %p1_2 = %c0_3 to %n1_2 step %c32_2 {
                      %80 = ktdf.tiling.linearize_index %t1_2, %p1_2 : index
                      %vec_2 = ktdf.tiling.derive_size %80, %c32_2, %c128_2 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c2"} {
                        %81, %82, %83, %84, %85 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                          %86 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %87 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %88 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                          %89 = ktdf.token : !ktdf.token
                          %90 = ktdf.token : !ktdf.token
                          ktdf.private_yield %86, %87, %88, %89, %90 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%84) {
                          ktdf.data_transfer from %0[%79, %80] size [1, %vec_2] to %81 size [1, %vec_2] : memref<16x128xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          ktdf.data_transfer from %1[%79, %80] size [1, %vec_2] to %82 size [1, %vec_2] : memref<16x128xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%84) depends_out(%85) {
                          %91 = ktdf.read_from_fifo %81 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %92 = ktdf.read_from_fifo %82 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %93 = tensor.empty() : tensor<1x32xf16>
                          %94 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%91, %92 : tensor<1x32xf32>, tensor<1x32xf32>) outs(%93 : tensor<1x32xf16>) {
                          ^bb0(%g: f32, %u: f32, %o: f16):
                            %95 = spyreop.sigmoid %g : f32
                            %sg = arith.mulf %g, %95 : f32
                            %m = arith.mulf %sg, %u : f32
                            %r = arith.truncf %m : f32 to f16
                            linalg.yield %r : f16
                          } -> tensor<1x32xf16>
                          ktdf.write_to_fifo %94, %83 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%85) depends_out(none) {
                          ktdf.data_transfer from %83 size [1, %vec_2] to %75[%p0_2, %p1_2] size [1, %vec_2] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%76) depends_out(none) {
                  %96 = arith.addi %73, %t0_2 : index
                  %97 = arith.addi %74, %t1_2 : index
                  ktdf.data_transfer from %75[0, 0] size [%n0_2, %n1_2] to %h_in_memory_view[%96, %97] size [%n0_2, %n1_2] : memref<?x?xf16, "LX">, memref<64x128xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["load", "sfu", "store", "dma"]}
      }
      func.return
    }
  }
  builtin.module @program_1 {
    func.func @local_schedule_1(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index, %h_in_memory: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 16 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Wdv = ktdp.construct_memory_view %Wd, sizes: [128, 1024], strides: [1024, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 1023) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x1024xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [64, 1024], strides: [1024, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 1023) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x1024xf16>
      %h_in_memory_view = ktdp.construct_memory_view %h_in_memory, sizes: [64, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<16x1024xf32, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {role = "intermediate", operand = "ys", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [16 : i64, 1024 : i64]} : memref<16x1024xf32, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<16x1024xf32, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %4 = arith.constant 16 : index
          %5 = arith.muli %t, %4 : index
          %6 = arith.constant 0 : index
          %c16 = arith.constant 16 : index
          %c1024 = arith.constant 1024 : index
          %c128 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p1.tile.lx.d0", extent = 16 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p1.tile.lx.d1", extent = 1024 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_1 to %c16 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c16 : index
            scf.for %t1 = %c0_1 to %c1024 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c1024 : index
              ktdf.pipeline {
                %7, %8, %9 = ktdf.private -> (memref<?x128xf16, "LX">, memref<128x?xf16, "LX">, !ktdf.token) {
                  %10 = ktdf.buffer {role = "input", operand = "h_in_memory", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1", 128 : i64]} : memref<?x128xf16, "LX">
                  %11 = ktdf.buffer {role = "input", operand = "Wd", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1", 128 : i64]} : memref<128x?xf16, "LX">
                  %12 = ktdf.token : !ktdf.token
                  ktdf.private_yield %10, %11, %12 : memref<?x128xf16, "LX">, memref<128x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%9) {
                  %13 = arith.constant 0 : index
                  %14 = arith.addi %5, %t0 : index
                  %15 = arith.addi %6, %13 : index
                  ktdf.data_transfer from %h_in_memory_view[%14, %15] size [%n0, 128] to %7[0, 0] size [%n0, 128] : memref<64x128xf16>, memref<?x128xf16, "LX">
                  %16 = arith.addi %c0, %13 : index
                  %17 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Wdv[%16, %17] size [128, %n1] to %8[0, 0] size [128, %n1] : memref<128x1024xf16>, memref<128x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%9) depends_out(none) {
                  scf.for %p0 = %c0_1 to %n0 step %c8 {
                    %18 = ktdf.tiling.linearize_index %t0, %p0 : index
                    scf.for %p1 = %c0_1 to %n1 step %c64 {
                      %19 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %blk = ktdf.tiling.derive_size %18, %c8, %c16 : index
                      %blk_1 = ktdf.tiling.derive_size %19, %c64, %c1024 : index
                      ktdf.pipeline attributes {ktdf.compute = "p1"} {
                        %20, %21, %22, %23, %24 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                          %25 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                          %26 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          %27 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                          %28 = ktdf.token : !ktdf.token
                          %29 = ktdf.token : !ktdf.token
                          ktdf.private_yield %25, %26, %27, %28, %29 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%23) {
                          scf.for %30 = %c0_1 to %c128 step %c32 {
                            %vec = ktdf.tiling.derive_size %30, %c32, %c128 : index
                            ktdf.data_transfer from %7[%p0, %30] size [%blk, %vec] to %20 size [%blk, %vec] : memref<?x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                            ktdf.data_transfer from %8[%30, %p1] size [%vec, %blk_1] to %21 size [%vec, %blk_1] : memref<128x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%23) depends_out(%24) {
                          %31 = tensor.empty() : tensor<8x64xf32>
                          %32 = linalg.fill ins(%zero : f32) outs(%31 : tensor<8x64xf32>) -> tensor<8x64xf32>
                          %33 = scf.for %34 = %c0_1 to %c128 step %c32 iter_args(%35 = %32) -> (tensor<8x64xf32>) {
                            %36 = ktdf.read_from_fifo %20 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                            %37 = ktdf.read_from_fifo %21 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                            %38 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%36, %37 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%35 : tensor<8x64xf32>) {
                            ^bb0(%ae: f16, %be: f16, %acc: f32):
                              %af = arith.extf %ae : f16 to f32
                              %bf = arith.extf %be : f16 to f32
                              %p = arith.mulf %af, %bf : f32
                              %s = arith.addf %acc, %p : f32
                              linalg.yield %s : f32
                            } -> tensor<8x64xf32>
                            scf.yield %38 : tensor<8x64xf32>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                          ktdf.write_to_fifo %33, %22 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                        } {applicable_units = ["systolic"]}
                        ktdf.stage depends_in(%24) depends_out(none) {
                          ktdf.data_transfer from %22 size [%blk, %blk_1] to %0[%18, %19] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<16x1024xf32, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "systolic", "store"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store"]}
        ktdf.stage depends_in(%1) depends_out(none) {
          %c16_1 = arith.constant 16 : index
          %c1024_1 = arith.constant 1024 : index
          %c1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p1.c1.tile.lx.d0", extent = 16 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1_1 = ktdf.tiling.reserve_size {decision = "p1.c1.tile.lx.d1", extent = 1024 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          scf.for %t0_1 = %c0_2 to %c16_1 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c16_1 : index
            scf.for %t1_1 = %c0_2 to %c1024_1 step %T1_1 {
              %n1_1 = ktdf.tiling.derive_size %t1_1, %T1_1, %c1024_1 : index
              ktdf.pipeline {
                %39, %40 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %41 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p1.c1.tile.lx.d0", "p1.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %42 = ktdf.token : !ktdf.token
                  ktdf.private_yield %41, %42 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%40) {
                  scf.for %p0_1 = %c0_2 to %n0_1 step %c1 {
                    %43 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    scf.for %p1_1 = %c0_2 to %n1_1 step %c32_1 {
                      %44 = ktdf.tiling.linearize_index %t1_1, %p1_1 : index
                      %vec_1 = ktdf.tiling.derive_size %44, %c32_1, %c1024_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p1.c1"} {
                        %45, %46, %47, %48 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                          %49 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %50 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                          %51 = ktdf.token : !ktdf.token
                          %52 = ktdf.token : !ktdf.token
                          ktdf.private_yield %49, %50, %51, %52 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%47) {
                          ktdf.data_transfer from %0[%43, %44] size [1, %vec_1] to %45 size [1, %vec_1] : memref<16x1024xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%47) depends_out(%48) {
                          %53 = ktdf.read_from_fifo %45 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %54 = tensor.empty() : tensor<1x32xf16>
                          %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%53 : tensor<1x32xf32>) outs(%54 : tensor<1x32xf16>) {
                          ^bb0(%v: f32, %o: f16):
                            %r = arith.truncf %v : f32 to f16
                            linalg.yield %r : f16
                          } -> tensor<1x32xf16>
                          ktdf.write_to_fifo %55, %46 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%48) depends_out(none) {
                          ktdf.data_transfer from %46 size [1, %vec_1] to %39[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%40) depends_out(none) {
                  %56 = arith.addi %row, %t0_1 : index
                  %57 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %39[0, 0] size [%n0_1, %n1_1] to %Yv[%56, %57] size [%n0_1, %n1_1] : memref<?x?xf16, "LX">, memref<64x1024xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["load", "sfu", "store", "dma"]}
      }
      func.return
    }
  }
}

