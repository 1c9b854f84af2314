// PASS: interchange-tile-loops
// The same IR as 08_interchange_tile_loops.mlir, not asked: nothing is rewritten; the
// top module lists program 0 as one whose tile loops the interchange would change
// (the compile schedules the kernel a second time with them interchanged, and the
// solver's model holds both forms).
// CHECK: builtin.module attributes {ktdf.device = "tests/solve/devices/spyre_128k_lx.mlir", ktdf.stopped_after = "tile-intermediates", ktdf.interchangeable = [0 : i64]} {
// CHECK-NOT: ktdf.tile_loops_interchanged
// CHECK: scf.for %t0 = %c0_2 to %c64_1 step %T0 {
// CHECK-NEXT: %n0 = ktdf.tiling.derive_size %t0, %T0, %c64_1 : index
// CHECK-NEXT: scf.for %t1 = %c0_2 to %c128_1 step %T1 {
builtin.module attributes {ktdf.device = "tests/solve/devices/spyre_128k_lx.mlir", ktdf.stopped_after = "tile-intermediates"} {
  func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [4 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 64 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Av = ktdp.construct_memory_view %A, sizes: [256, 512], strides: [512, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 511) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x512xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [512, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 511) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<512x128xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      ktdf.pipeline {
        ktdf.private -> () {
          ktdf.private_yield
        }
        ktdf.stage depends_in(none) depends_out(none) {
          %c64 = arith.constant 64 : index
          %c128 = arith.constant 128 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %c64_1 = arith.constant 64 : index
          %c128_1 = arith.constant 128 : index
          %c512 = arith.constant 512 : index
          %c8 = arith.constant 8 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 64 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_2 to %c64_1 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c64_1 : index
            scf.for %t1 = %c0_2 to %c128_1 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c128_1 : index
              ktdf.pipeline {
                %0, %1, %2, %3, %4, %5, %6 = ktdf.private -> (memref<?x512xf16, "LX">, memref<512x?xf16, "LX">, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">) {
                  %7 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 512 : i64]} : memref<?x512xf16, "LX">
                  %8 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 512 : i64]} : memref<512x?xf16, "LX">
                  %9 = ktdf.token : !ktdf.token
                  %10 = ktdf.buffer {role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %11 = ktdf.token : !ktdf.token
                  %12 = ktdf.token : !ktdf.token
                  %13 = ktdf.buffer {role = "intermediate", operand = "s", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf32, "LX">
                  ktdf.private_yield %7, %8, %9, %10, %11, %12, %13 : memref<?x512xf16, "LX">, memref<512x?xf16, "LX">, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">
                }
                ktdf.stage depends_in(none) depends_out(%2) {
                  %14 = arith.constant 0 : index
                  %15 = arith.addi %row, %t0 : index
                  %16 = arith.addi %c0, %14 : index
                  ktdf.data_transfer from %Av[%15, %16] size [%n0, 512] to %0[0, 0] size [%n0, 512] : memref<256x512xf16>, memref<?x512xf16, "LX">
                  %17 = arith.addi %c0, %14 : index
                  %18 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Bv[%17, %18] size [512, %n1] to %1[0, 0] size [512, %n1] : memref<512x128xf16>, memref<512x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%2) depends_out(%5) {
                  scf.for %p0 = %c0_2 to %n0 step %c8 {
                    %19 = ktdf.tiling.linearize_index %t0, %p0 : index
                    scf.for %p1 = %c0_2 to %n1 step %c64_1 {
                      %20 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %blk = ktdf.tiling.derive_size %19, %c8, %c64_1 : index
                      %blk_1 = ktdf.tiling.derive_size %20, %c64_1, %c128_1 : index
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
                          scf.for %31 = %c0_2 to %c512 step %c32_1 {
                            %vec = ktdf.tiling.derive_size %31, %c32_1, %c512 : index
                            ktdf.data_transfer from %0[%p0, %31] size [%blk, %vec] to %21 size [%blk, %vec] : memref<?x512xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                            ktdf.data_transfer from %1[%31, %p1] size [%vec, %blk_1] to %22 size [%vec, %blk_1] : memref<512x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%24) depends_out(%25) {
                          %32 = tensor.empty() : tensor<8x64xf32>
                          %33 = linalg.fill ins(%zero : f32) outs(%32 : tensor<8x64xf32>) -> tensor<8x64xf32>
                          %34 = scf.for %35 = %c0_2 to %c512 step %c32_1 iter_args(%36 = %33) -> (tensor<8x64xf32>) {
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
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                          ktdf.write_to_fifo %34, %23 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                        } {applicable_units = ["systolic"]}
                        ktdf.stage depends_in(%25) depends_out(none) {
                          ktdf.data_transfer from %23 size [%blk, %blk_1] to %6[%p0, %p1] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<?x?xf32, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "systolic", "store"]}
                ktdf.stage depends_in(%5) depends_out(%4) {
                  scf.for %p0_1 = %c0_1 to %n0 step %c1 {
                    %40 = ktdf.tiling.linearize_index %t0, %p0_1 : index
                    scf.for %p1_1 = %c0_1 to %n1 step %c32 {
                      %41 = ktdf.tiling.linearize_index %t1, %p1_1 : index
                      %vec_1 = ktdf.tiling.derive_size %41, %c32, %c128 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %42, %43, %44, %45 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                          %46 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %47 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                          %48 = ktdf.token : !ktdf.token
                          %49 = ktdf.token : !ktdf.token
                          ktdf.private_yield %46, %47, %48, %49 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%44) {
                          ktdf.data_transfer from %6[%p0_1, %p1_1] size [1, %vec_1] to %42 size [1, %vec_1] : memref<?x?xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%44) depends_out(%45) {
                          %50 = ktdf.read_from_fifo %42 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %51 = tensor.empty() : tensor<1x32xf16>
                          %52 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%50 : tensor<1x32xf32>) outs(%51 : tensor<1x32xf16>) {
                          ^bb0(%se: f32, %o: f16):
                            %r = arith.truncf %se : f32 to f16
                            linalg.yield %r : f16
                          } -> tensor<1x32xf16>
                          ktdf.write_to_fifo %52, %43 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%45) depends_out(none) {
                          ktdf.data_transfer from %43 size [1, %vec_1] to %3[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%4) depends_out(none) {
                  %53 = arith.addi %row, %t0 : index
                  %54 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %3[0, 0] size [%n0, %n1] to %Cv[%53, %54] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<256x128xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
      }
      func.return
    }
  }
}