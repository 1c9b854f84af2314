// PASS: hoist-inner-invariants
// The first program of an FFN whose H goes through device memory (gate = X @ Wg and
// up = X @ Wu fused in one tile pipeline, then H = silu(gate) * up stored): both matmuls
// read the same row tile of X, each through its own buffer and fill, and neither fill
// depends on the column tile loop t1. Both leave the tile pipeline together, into one
// run-once pipeline around t1, and become one buffer filled once per row tile (the up's
// loads read the gate's buffer); Wg and Wu stay in the tile pipeline.
// CHECK: scf.for %t0 = %{{.*}} to %{{.*}} step %T0 {
// CHECK-NEXT: %n0 = ktdf.tiling.derive_size %t0, %T0, %{{.*}} : index
// CHECK-NEXT: ktdf.pipeline attributes {ktdf.outer_fetch} {
// CHECK-NEXT: %[[X:.*]], %[[TOK:.*]] = ktdf.private -> (memref<?x128xf16, "LX">, !ktdf.token) {
// CHECK-NEXT: ktdf.buffer {role = "input", operand = "X"
// CHECK: ktdf.stage depends_in(none) depends_out(%[[TOK]]) {
// CHECK: ktdf.data_transfer from %Xv[%{{.*}}] size [%n0, 128] to %[[X]][0, 0] size [%n0, 128]
// CHECK-NOT: from %Xv
// CHECK: } {applicable_units = ["dma"]}
// CHECK-NEXT: ktdf.stage depends_in(%[[TOK]]) depends_out(none) {
// CHECK-NEXT: scf.for %t1 = %{{.*}} to %{{.*}} step %T1 {
// CHECK: ktdf.pipeline {
// CHECK-NEXT: ktdf.private -> (memref<128x?xf16, "LX">, !ktdf.token, memref<128x?xf16, "LX">,
// CHECK-NOT: operand = "X"
// CHECK-NOT: from %Xv
// CHECK: ktdf.data_transfer from %Wgv
// CHECK-NOT: from %Xv
// CHECK: ktdf.data_transfer from %[[X]][%p0, %{{.*}}] size [%blk, %vec]
// CHECK-NOT: from %Xv
// CHECK: ktdf.data_transfer from %Wuv
// CHECK-NOT: from %Xv
// CHECK: ktdf.data_transfer from %[[X]][%p0_1, %{{.*}}] size [%blk_2, %vec_1]
// CHECK: @local_schedule_1
builtin.module attributes {ktdf.device = "tests/solve/devices/spyre_128k_lx.mlir", ktdf.stopped_after = "tile-intermediates"} {
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
      %crows = arith.constant 64 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Xv = ktdp.construct_memory_view %X, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      %Wgv = ktdp.construct_memory_view %Wg, sizes: [128, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
      %Wuv = ktdp.construct_memory_view %Wu, sizes: [128, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
      %h_in_memory_view = ktdp.construct_memory_view %h_in_memory, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      ktdf.pipeline {
        ktdf.private -> () {
          ktdf.private_yield
        }
        ktdf.stage depends_in(none) depends_out(none) {
          %0 = arith.constant 64 : index
          %1 = arith.muli %t, %0 : index
          %2 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c128 = arith.constant 128 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %c64_1 = arith.constant 64 : index
          %c128_1 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %c64_2 = arith.constant 64 : index
          %c128_2 = arith.constant 128 : index
          %c8_1 = arith.constant 8 : index
          %c0_3 = arith.constant 0 : index
          %c32_2 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 64 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_3 to %c64_2 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c64_2 : index
            scf.for %t1 = %c0_3 to %c128_2 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c128_2 : index
              ktdf.pipeline {
                %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14 = ktdf.private -> (memref<?x128xf16, "LX">, memref<128x?xf16, "LX">, !ktdf.token, memref<?x128xf16, "LX">, memref<128x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">, memref<?x?xf32, "LX">) {
                  %15 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 128 : i64]} : memref<?x128xf16, "LX">
                  %16 = ktdf.buffer {role = "input", operand = "Wg", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 128 : i64]} : memref<128x?xf16, "LX">
                  %17 = ktdf.token : !ktdf.token
                  %18 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 128 : i64]} : memref<?x128xf16, "LX">
                  %19 = ktdf.buffer {role = "input", operand = "Wu", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 128 : i64]} : memref<128x?xf16, "LX">
                  %20 = ktdf.token : !ktdf.token
                  %21 = ktdf.token : !ktdf.token
                  %22 = ktdf.buffer {role = "output", operand = "h_in_memory", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %23 = ktdf.token : !ktdf.token
                  %24 = ktdf.token : !ktdf.token
                  %25 = ktdf.buffer {role = "intermediate", operand = "gate", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf32, "LX">
                  %26 = ktdf.buffer {role = "intermediate", operand = "up", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf32, "LX">
                  ktdf.private_yield %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26 : memref<?x128xf16, "LX">, memref<128x?xf16, "LX">, !ktdf.token, memref<?x128xf16, "LX">, memref<128x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">, memref<?x?xf32, "LX">
                }
                ktdf.stage depends_in(none) depends_out(%5) {
                  %27 = arith.constant 0 : index
                  %28 = arith.addi %row, %t0 : index
                  %29 = arith.addi %c0, %27 : index
                  ktdf.data_transfer from %Xv[%28, %29] size [%n0, 128] to %3[0, 0] size [%n0, 128] : memref<256x128xf16>, memref<?x128xf16, "LX">
                  %30 = arith.addi %c0, %27 : index
                  %31 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Wgv[%30, %31] size [128, %n1] to %4[0, 0] size [128, %n1] : memref<128x128xf16>, memref<128x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%5) depends_out(%9) {
                  scf.for %p0 = %c0_3 to %n0 step %c8_1 {
                    %32 = ktdf.tiling.linearize_index %t0, %p0 : index
                    scf.for %p1 = %c0_3 to %n1 step %c64_2 {
                      %33 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %blk = ktdf.tiling.derive_size %32, %c8_1, %c64_2 : index
                      %blk_1 = ktdf.tiling.derive_size %33, %c64_2, %c128_2 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0"} {
                        %34, %35, %36, %37, %38 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                          %39 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                          %40 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          %41 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                          %42 = ktdf.token : !ktdf.token
                          %43 = ktdf.token : !ktdf.token
                          ktdf.private_yield %39, %40, %41, %42, %43 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%37) {
                          scf.for %44 = %c0_3 to %c128_2 step %c32_2 {
                            %vec = ktdf.tiling.derive_size %44, %c32_2, %c128_2 : index
                            ktdf.data_transfer from %3[%p0, %44] size [%blk, %vec] to %34 size [%blk, %vec] : memref<?x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                            ktdf.data_transfer from %4[%44, %p1] size [%vec, %blk_1] to %35 size [%vec, %blk_1] : memref<128x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%37) depends_out(%38) {
                          %45 = tensor.empty() : tensor<8x64xf32>
                          %46 = linalg.fill ins(%zero : f32) outs(%45 : tensor<8x64xf32>) -> tensor<8x64xf32>
                          %47 = scf.for %48 = %c0_3 to %c128_2 step %c32_2 iter_args(%49 = %46) -> (tensor<8x64xf32>) {
                            %50 = ktdf.read_from_fifo %34 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                            %51 = ktdf.read_from_fifo %35 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                            %52 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%50, %51 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%49 : tensor<8x64xf32>) {
                            ^bb0(%ae: f16, %be: f16, %acc: f32):
                              %af = arith.extf %ae : f16 to f32
                              %bf = arith.extf %be : f16 to f32
                              %p = arith.mulf %af, %bf : f32
                              %s = arith.addf %acc, %p : f32
                              linalg.yield %s : f32
                            } -> tensor<8x64xf32>
                            scf.yield %52 : tensor<8x64xf32>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                          ktdf.write_to_fifo %47, %36 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                        } {applicable_units = ["systolic"]}
                        ktdf.stage depends_in(%38) depends_out(none) {
                          ktdf.data_transfer from %36 size [%blk, %blk_1] to %13[%p0, %p1] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<?x?xf32, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "systolic", "store"]}
                ktdf.stage depends_in(%9) depends_out(%8) {
                  %53 = arith.constant 0 : index
                  %54 = arith.addi %row, %t0 : index
                  %55 = arith.addi %c0, %53 : index
                  ktdf.data_transfer from %Xv[%54, %55] size [%n0, 128] to %6[0, 0] size [%n0, 128] : memref<256x128xf16>, memref<?x128xf16, "LX">
                  %56 = arith.addi %c0, %53 : index
                  %57 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Wuv[%56, %57] size [128, %n1] to %7[0, 0] size [128, %n1] : memref<128x128xf16>, memref<128x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%8) depends_out(%12) {
                  scf.for %p0_1 = %c0_2 to %n0 step %c8 {
                    %58 = ktdf.tiling.linearize_index %t0, %p0_1 : index
                    scf.for %p1_1 = %c0_2 to %n1 step %c64_1 {
                      %59 = ktdf.tiling.linearize_index %t1, %p1_1 : index
                      %blk_2 = ktdf.tiling.derive_size %58, %c8, %c64_1 : index
                      %blk_3 = ktdf.tiling.derive_size %59, %c64_1, %c128_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %60, %61, %62, %63, %64 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                          %65 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                          %66 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          %67 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                          %68 = ktdf.token : !ktdf.token
                          %69 = ktdf.token : !ktdf.token
                          ktdf.private_yield %65, %66, %67, %68, %69 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%63) {
                          scf.for %70 = %c0_2 to %c128_1 step %c32_1 {
                            %vec_1 = ktdf.tiling.derive_size %70, %c32_1, %c128_1 : index
                            ktdf.data_transfer from %6[%p0_1, %70] size [%blk_2, %vec_1] to %60 size [%blk_2, %vec_1] : memref<?x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                            ktdf.data_transfer from %7[%70, %p1_1] size [%vec_1, %blk_3] to %61 size [%vec_1, %blk_3] : memref<128x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%63) depends_out(%64) {
                          %71 = tensor.empty() : tensor<8x64xf32>
                          %72 = linalg.fill ins(%zero : f32) outs(%71 : tensor<8x64xf32>) -> tensor<8x64xf32>
                          %73 = scf.for %74 = %c0_2 to %c128_1 step %c32_1 iter_args(%75 = %72) -> (tensor<8x64xf32>) {
                            %76 = ktdf.read_from_fifo %60 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                            %77 = ktdf.read_from_fifo %61 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                            %78 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%76, %77 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%75 : tensor<8x64xf32>) {
                            ^bb0(%ae_1: f16, %be_1: f16, %acc_1: f32):
                              %af_1 = arith.extf %ae_1 : f16 to f32
                              %bf_1 = arith.extf %be_1 : f16 to f32
                              %p_1 = arith.mulf %af_1, %bf_1 : f32
                              %s_1 = arith.addf %acc_1, %p_1 : f32
                              linalg.yield %s_1 : f32
                            } -> tensor<8x64xf32>
                            scf.yield %78 : tensor<8x64xf32>
                          } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                          ktdf.write_to_fifo %73, %62 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                        } {applicable_units = ["systolic"]}
                        ktdf.stage depends_in(%64) depends_out(none) {
                          ktdf.data_transfer from %62 size [%blk_2, %blk_3] to %14[%p0_1, %p1_1] size [%blk_2, %blk_3] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<?x?xf32, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "systolic", "store"]}
                ktdf.stage depends_in(%12) depends_out(%11) {
                  scf.for %p0_2 = %c0_1 to %n0 step %c1 {
                    %79 = ktdf.tiling.linearize_index %t0, %p0_2 : index
                    scf.for %p1_2 = %c0_1 to %n1 step %c32 {
                      %80 = ktdf.tiling.linearize_index %t1, %p1_2 : index
                      %vec_2 = ktdf.tiling.derive_size %80, %c32, %c128 : index
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
                          ktdf.data_transfer from %13[%p0_2, %p1_2] size [1, %vec_2] to %81 size [1, %vec_2] : memref<?x?xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          ktdf.data_transfer from %14[%p0_2, %p1_2] size [1, %vec_2] to %82 size [1, %vec_2] : memref<?x?xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
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
                          ktdf.data_transfer from %83 size [1, %vec_2] to %10[%p0_2, %p1_2] size [1, %vec_2] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                  } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%11) depends_out(none) {
                  %96 = arith.addi %1, %t0 : index
                  %97 = arith.addi %2, %t1 : index
                  ktdf.data_transfer from %10[0, 0] size [%n0, %n1] to %h_in_memory_view[%96, %97] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<256x128xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
      }
      func.return
    }
  }
  builtin.module @program_1 {
    func.func @local_schedule_1(%X: index, %Wg: index, %Wu: index, %Wd: index, %Y: index, %h_in_memory: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 64 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Wdv = ktdp.construct_memory_view %Wd, sizes: [128, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 127) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<128x128xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      %h_in_memory_view = ktdp.construct_memory_view %h_in_memory, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
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
          %0 = arith.constant 64 : index
          %1 = arith.muli %t, %0 : index
          %2 = arith.constant 0 : index
          %c64_1 = arith.constant 64 : index
          %c128_1 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p1.tile.lx.d0", extent = 64 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p1.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          ktdf.pipeline {
            %3, %4 = ktdf.private -> (memref<128x128xf16, "LX">, !ktdf.token) {
              %5 = ktdf.buffer {role = "input", operand = "Wd", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = [1 : i64, 128 : i64, 128 : i64]} : memref<128x128xf16, "LX">
              %6 = ktdf.token : !ktdf.token
              ktdf.private_yield %5, %6 : memref<128x128xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%4) {
              %7 = arith.constant 0 : index
              %8 = arith.addi %c0, %7 : index
              %9 = arith.addi %c0, %c0_2 : index
              ktdf.data_transfer from %Wdv[%8, %9] size [128, 128] to %3[0, 0] size [128, 128] : memref<128x128xf16>, memref<128x128xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%4) depends_out(none) {
              scf.for %t0 = %c0_2 to %c64_1 step %T0 {
                %n0 = ktdf.tiling.derive_size %t0, %T0, %c64_1 : index
                scf.for %t1 = %c0_2 to %c128_1 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c128_1 : index
                  ktdf.pipeline {
                    %10, %11, %12, %13, %14, %15 = ktdf.private -> (memref<?x128xf16, "LX">, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">) {
                      %16 = ktdf.buffer {role = "input", operand = "h_in_memory", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1", 128 : i64]} : memref<?x128xf16, "LX">
                      %17 = ktdf.token : !ktdf.token
                      %18 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %19 = ktdf.token : !ktdf.token
                      %20 = ktdf.token : !ktdf.token
                      %21 = ktdf.buffer {role = "intermediate", operand = "ys", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1"]} : memref<?x?xf32, "LX">
                      ktdf.private_yield %16, %17, %18, %19, %20, %21 : memref<?x128xf16, "LX">, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">
                    }
                    ktdf.stage depends_in(none) depends_out(%11) {
                      %22 = arith.constant 0 : index
                      %23 = arith.addi %1, %t0 : index
                      %24 = arith.addi %2, %22 : index
                      ktdf.data_transfer from %h_in_memory_view[%23, %24] size [%n0, 128] to %10[0, 0] size [%n0, 128] : memref<256x128xf16>, memref<?x128xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%11) depends_out(%14) {
                      scf.for %p0 = %c0_2 to %n0 step %c8 {
                        %25 = ktdf.tiling.linearize_index %t0, %p0 : index
                        scf.for %p1 = %c0_2 to %n1 step %c64_1 {
                          %26 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %blk = ktdf.tiling.derive_size %25, %c8, %c64_1 : index
                          %blk_1 = ktdf.tiling.derive_size %26, %c64_1, %c128_1 : index
                          ktdf.pipeline attributes {ktdf.compute = "p1"} {
                            %27, %28, %29, %30, %31 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                              %32 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %33 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              %34 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                              %35 = ktdf.token : !ktdf.token
                              %36 = ktdf.token : !ktdf.token
                              ktdf.private_yield %32, %33, %34, %35, %36 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%30) {
                              scf.for %37 = %c0_2 to %c128_1 step %c32_1 {
                                %vec = ktdf.tiling.derive_size %37, %c32_1, %c128_1 : index
                                ktdf.data_transfer from %10[%p0, %37] size [%blk, %vec] to %27 size [%blk, %vec] : memref<?x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %3[%37, %26] size [%vec, %blk_1] to %28 size [%vec, %blk_1] : memref<128x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%30) depends_out(%31) {
                              %38 = tensor.empty() : tensor<8x64xf32>
                              %39 = linalg.fill ins(%zero : f32) outs(%38 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %40 = scf.for %41 = %c0_2 to %c128_1 step %c32_1 iter_args(%42 = %39) -> (tensor<8x64xf32>) {
                                %43 = ktdf.read_from_fifo %27 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                                %44 = ktdf.read_from_fifo %28 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                                %45 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%43, %44 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%42 : tensor<8x64xf32>) {
                                ^bb0(%ae: f16, %be: f16, %acc: f32):
                                  %af = arith.extf %ae : f16 to f32
                                  %bf = arith.extf %be : f16 to f32
                                  %p = arith.mulf %af, %bf : f32
                                  %s = arith.addf %acc, %p : f32
                                  linalg.yield %s : f32
                                } -> tensor<8x64xf32>
                                scf.yield %45 : tensor<8x64xf32>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %40, %29 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%31) depends_out(none) {
                              ktdf.data_transfer from %29 size [%blk, %blk_1] to %15[%p0, %p1] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<?x?xf32, "LX">
                            } {applicable_units = ["store"]}
                          }
                        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load", "systolic", "store"]}
                    ktdf.stage depends_in(%14) depends_out(%13) {
                      scf.for %p0_1 = %c0_1 to %n0 step %c1 {
                        %46 = ktdf.tiling.linearize_index %t0, %p0_1 : index
                        scf.for %p1_1 = %c0_1 to %n1 step %c32 {
                          %47 = ktdf.tiling.linearize_index %t1, %p1_1 : index
                          %vec_1 = ktdf.tiling.derive_size %47, %c32, %c128 : index
                          ktdf.pipeline attributes {ktdf.compute = "p1.c1"} {
                            %48, %49, %50, %51 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                              %52 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              %53 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                              %54 = ktdf.token : !ktdf.token
                              %55 = ktdf.token : !ktdf.token
                              ktdf.private_yield %52, %53, %54, %55 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%50) {
                              ktdf.data_transfer from %15[%p0_1, %p1_1] size [1, %vec_1] to %48 size [1, %vec_1] : memref<?x?xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%50) depends_out(%51) {
                              %56 = ktdf.read_from_fifo %48 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                              %57 = tensor.empty() : tensor<1x32xf16>
                              %58 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%56 : tensor<1x32xf32>) outs(%57 : tensor<1x32xf16>) {
                              ^bb0(%v: f32, %o: f16):
                                %r = arith.truncf %v : f32 to f16
                                linalg.yield %r : f16
                              } -> tensor<1x32xf16>
                              ktdf.write_to_fifo %58, %49 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                            } {applicable_units = ["sfu"]}
                            ktdf.stage depends_in(%51) depends_out(none) {
                              ktdf.data_transfer from %49 size [1, %vec_1] to %12[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                            } {applicable_units = ["store"]}
                          }
                        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load", "sfu", "store"]}
                    ktdf.stage depends_in(%13) depends_out(none) {
                      %59 = arith.addi %row, %t0 : index
                      %60 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %12[0, 0] size [%n0, %n1] to %Yv[%59, %60] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<256x128xf16>
                    } {applicable_units = ["dma"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
          }
        } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
      }
      func.return
    }
  }
}
