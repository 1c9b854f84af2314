// PASS: stream-k-chunks
// tests/matmul/kernels/ffn_gate_up_streamed.mlir (H through device memory) on the 128 KiB
// test device after hoist-inner-invariants: X's 16 x 1024 row tile is held around the
// column loop; the tile pipeline runs gate = X @ Wg and then up = X @ Wu, each after its
// own DMA of a whole-K 1024 x T1 panel (128 KiB at the narrowest: the scratchpad alone).
// Both matmuls are streamed in chunks of one decision (p0.tile.lx.d2: their panels cover
// the same K beside the same row tile), each with a chunk pipeline of its own depth and a
// zeroing stage before its chunk loop; the tile pipeline's depth is named by its first
// compute.
// CHECK: %K2 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d2", extent = 1024 : i64, min_value = 32 : i64, divisibility = 32 : i64}
// CHECK-NOT: reserve_size {decision = "p0.c1.tile.lx.d2"
// CHECK: ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo")
// CHECK-NOT: operand = "Wg"
// CHECK-NOT: operand = "Wu"
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0.zero", ktdf.accumulator_init = "p0"}
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1024{{.*}} step %K2 {
// CHECK: ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.d2.modulo")
// CHECK: ktdf.buffer {role = "input", operand = "Wg", {{.*}}"p0.tile.lx.d2"]} : memref<?x?xf16, "LX">
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0"}
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0.c1.zero", ktdf.accumulator_init = "p0.c1"}
// CHECK: scf.for %{{.*}} = %{{.*}} to %c1024{{.*}} step %K2 {
// CHECK: ktdf.pipeline modulo(size: ?, decision = "p0.c1.pipe.lx.d2.modulo")
// CHECK: ktdf.buffer {role = "input", operand = "Wu", {{.*}}"p0.tile.lx.d2"]} : memref<?x?xf16, "LX">
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0.c1"}
// CHECK: ktdf.pipeline attributes {ktdf.compute = "p0.c2"}
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
        ktdf.private -> () {
          ktdf.private_yield
        }
        ktdf.stage depends_in(none) depends_out(none) {
          %0 = arith.constant 16 : index
          %1 = arith.muli %t, %0 : index
          %2 = arith.constant 0 : index
          %c16 = arith.constant 16 : index
          %c128 = arith.constant 128 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %c16_1 = arith.constant 16 : index
          %c128_1 = arith.constant 128 : index
          %c1024 = arith.constant 1024 : index
          %c8 = arith.constant 8 : index
          %c0_2 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c32_1 = arith.constant 32 : index
          %c16_2 = arith.constant 16 : index
          %c128_2 = arith.constant 128 : index
          %c1024_1 = arith.constant 1024 : index
          %c8_1 = arith.constant 8 : index
          %c0_3 = arith.constant 0 : index
          %c64_1 = arith.constant 64 : index
          %c32_2 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 16 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_3 to %c16_2 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c16_2 : index
            ktdf.pipeline attributes {ktdf.outer_fetch} {
              %3, %4 = ktdf.private -> (memref<?x1024xf16, "LX">, !ktdf.token) {
                %5 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 1024 : i64]} : memref<?x1024xf16, "LX">
                %6 = ktdf.token : !ktdf.token
                ktdf.private_yield %5, %6 : memref<?x1024xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%4) {
                %7 = arith.addi %row, %t0 : index
                %8 = arith.constant 0 : index
                %9 = arith.addi %c0, %8 : index
                ktdf.data_transfer from %Xv[%7, %9] size [%n0, 1024] to %3[0, 0] size [%n0, 1024] : memref<64x1024xf16>, memref<?x1024xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%4) depends_out(none) {
                scf.for %t1 = %c0_3 to %c128_2 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c128_2 : index
                  ktdf.pipeline {
                    %10, %11, %12, %13, %14, %15, %16, %17, %18, %19 = ktdf.private -> (memref<1024x?xf16, "LX">, !ktdf.token, memref<1024x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">, memref<?x?xf32, "LX">) {
                      %20 = ktdf.buffer {role = "input", operand = "Wg", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 1024 : i64]} : memref<1024x?xf16, "LX">
                      %21 = ktdf.token : !ktdf.token
                      %22 = ktdf.buffer {role = "input", operand = "Wu", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 1024 : i64]} : memref<1024x?xf16, "LX">
                      %23 = ktdf.token : !ktdf.token
                      %24 = ktdf.token : !ktdf.token
                      %25 = ktdf.buffer {role = "output", operand = "h_in_memory", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %26 = ktdf.token : !ktdf.token
                      %27 = ktdf.token : !ktdf.token
                      %28 = ktdf.buffer {role = "intermediate", operand = "gate", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf32, "LX">
                      %29 = ktdf.buffer {role = "intermediate", operand = "up", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf32, "LX">
                      ktdf.private_yield %20, %21, %22, %23, %24, %25, %26, %27, %28, %29 : memref<1024x?xf16, "LX">, !ktdf.token, memref<1024x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">, memref<?x?xf32, "LX">
                    }
                    ktdf.stage depends_in(none) depends_out(%11) {
                      %30 = arith.constant 0 : index
                      %31 = arith.addi %c0, %30 : index
                      %32 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %Wgv[%31, %32] size [1024, %n1] to %10[0, 0] size [1024, %n1] : memref<1024x128xf16>, memref<1024x?xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%11) depends_out(%14) {
                      scf.for %p0 = %c0_3 to %n0 step %c8_1 {
                        %33 = ktdf.tiling.linearize_index %t0, %p0 : index
                        scf.for %p1 = %c0_3 to %n1 step %c64_1 {
                          %34 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %blk = ktdf.tiling.derive_size %33, %c8_1, %c16_2 : index
                          %blk_1 = ktdf.tiling.derive_size %34, %c64_1, %c128_2 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0"} {
                            %35, %36, %37, %38, %39 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                              %40 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %41 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              %42 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                              %43 = ktdf.token : !ktdf.token
                              %44 = ktdf.token : !ktdf.token
                              ktdf.private_yield %40, %41, %42, %43, %44 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%38) {
                              scf.for %45 = %c0_3 to %c1024_1 step %c32_2 {
                                %vec = ktdf.tiling.derive_size %45, %c32_2, %c1024_1 : index
                                ktdf.data_transfer from %3[%p0, %45] size [%blk, %vec] to %35 size [%blk, %vec] : memref<?x1024xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %10[%45, %p1] size [%vec, %blk_1] to %36 size [%vec, %blk_1] : memref<1024x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%38) depends_out(%39) {
                              %46 = tensor.empty() : tensor<8x64xf32>
                              %47 = linalg.fill ins(%zero : f32) outs(%46 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %48 = scf.for %49 = %c0_3 to %c1024_1 step %c32_2 iter_args(%50 = %47) -> (tensor<8x64xf32>) {
                                %51 = ktdf.read_from_fifo %35 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                                %52 = ktdf.read_from_fifo %36 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                                %53 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%51, %52 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%50 : tensor<8x64xf32>) {
                                ^bb0(%ae: f16, %be: f16, %acc: f32):
                                  %af = arith.extf %ae : f16 to f32
                                  %bf = arith.extf %be : f16 to f32
                                  %p = arith.mulf %af, %bf : f32
                                  %s = arith.addf %acc, %p : f32
                                  linalg.yield %s : f32
                                } -> tensor<8x64xf32>
                                scf.yield %53 : tensor<8x64xf32>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %48, %37 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%39) depends_out(none) {
                              ktdf.data_transfer from %37 size [%blk, %blk_1] to %18[%p0, %p1] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<?x?xf32, "LX">
                            } {applicable_units = ["store"]}
                          }
                        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load", "systolic", "store"]}
                    ktdf.stage depends_in(%14) depends_out(%13) {
                      %54 = arith.constant 0 : index
                      %55 = arith.addi %c0, %54 : index
                      %56 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %Wuv[%55, %56] size [1024, %n1] to %12[0, 0] size [1024, %n1] : memref<1024x128xf16>, memref<1024x?xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%13) depends_out(%17) {
                      scf.for %p0_1 = %c0_2 to %n0 step %c8 {
                        %57 = ktdf.tiling.linearize_index %t0, %p0_1 : index
                        scf.for %p1_1 = %c0_2 to %n1 step %c64 {
                          %58 = ktdf.tiling.linearize_index %t1, %p1_1 : index
                          %blk_2 = ktdf.tiling.derive_size %57, %c8, %c16_1 : index
                          %blk_3 = ktdf.tiling.derive_size %58, %c64, %c128_1 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                            %59, %60, %61, %62, %63 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                              %64 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %65 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              %66 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                              %67 = ktdf.token : !ktdf.token
                              %68 = ktdf.token : !ktdf.token
                              ktdf.private_yield %64, %65, %66, %67, %68 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%62) {
                              scf.for %69 = %c0_2 to %c1024 step %c32_1 {
                                %vec_1 = ktdf.tiling.derive_size %69, %c32_1, %c1024 : index
                                ktdf.data_transfer from %3[%p0_1, %69] size [%blk_2, %vec_1] to %59 size [%blk_2, %vec_1] : memref<?x1024xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %12[%69, %p1_1] size [%vec_1, %blk_3] to %60 size [%vec_1, %blk_3] : memref<1024x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%62) depends_out(%63) {
                              %70 = tensor.empty() : tensor<8x64xf32>
                              %71 = linalg.fill ins(%zero : f32) outs(%70 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %72 = scf.for %73 = %c0_2 to %c1024 step %c32_1 iter_args(%74 = %71) -> (tensor<8x64xf32>) {
                                %75 = ktdf.read_from_fifo %59 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                                %76 = ktdf.read_from_fifo %60 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                                %77 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%75, %76 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%74 : tensor<8x64xf32>) {
                                ^bb0(%ae_1: f16, %be_1: f16, %acc_1: f32):
                                  %af_1 = arith.extf %ae_1 : f16 to f32
                                  %bf_1 = arith.extf %be_1 : f16 to f32
                                  %p_1 = arith.mulf %af_1, %bf_1 : f32
                                  %s_1 = arith.addf %acc_1, %p_1 : f32
                                  linalg.yield %s_1 : f32
                                } -> tensor<8x64xf32>
                                scf.yield %77 : tensor<8x64xf32>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %72, %61 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%63) depends_out(none) {
                              ktdf.data_transfer from %61 size [%blk_2, %blk_3] to %19[%p0_1, %p1_1] size [%blk_2, %blk_3] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<?x?xf32, "LX">
                            } {applicable_units = ["store"]}
                          }
                        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load", "systolic", "store"]}
                    ktdf.stage depends_in(%17) depends_out(%16) {
                      scf.for %p0_2 = %c0_1 to %n0 step %c1 {
                        %78 = ktdf.tiling.linearize_index %t0, %p0_2 : index
                        scf.for %p1_2 = %c0_1 to %n1 step %c32 {
                          %79 = ktdf.tiling.linearize_index %t1, %p1_2 : index
                          %vec_2 = ktdf.tiling.derive_size %79, %c32, %c128 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0.c2"} {
                            %80, %81, %82, %83, %84 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                              %85 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              %86 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              %87 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                              %88 = ktdf.token : !ktdf.token
                              %89 = ktdf.token : !ktdf.token
                              ktdf.private_yield %85, %86, %87, %88, %89 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%83) {
                              ktdf.data_transfer from %18[%p0_2, %p1_2] size [1, %vec_2] to %80 size [1, %vec_2] : memref<?x?xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              ktdf.data_transfer from %19[%p0_2, %p1_2] size [1, %vec_2] to %81 size [1, %vec_2] : memref<?x?xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%83) depends_out(%84) {
                              %90 = ktdf.read_from_fifo %80 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                              %91 = ktdf.read_from_fifo %81 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                              %92 = tensor.empty() : tensor<1x32xf16>
                              %93 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%90, %91 : tensor<1x32xf32>, tensor<1x32xf32>) outs(%92 : tensor<1x32xf16>) {
                              ^bb0(%g: f32, %u: f32, %o: f16):
                                %94 = spyreop.sigmoid %g : f32
                                %sg = arith.mulf %g, %94 : f32
                                %m = arith.mulf %sg, %u : f32
                                %r = arith.truncf %m : f32 to f16
                                linalg.yield %r : f16
                              } -> tensor<1x32xf16>
                              ktdf.write_to_fifo %93, %82 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                            } {applicable_units = ["sfu"]}
                            ktdf.stage depends_in(%84) depends_out(none) {
                              ktdf.data_transfer from %82 size [1, %vec_2] to %15[%p0_2, %p1_2] size [1, %vec_2] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                            } {applicable_units = ["store"]}
                          }
                        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
                      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
                    } {applicable_units = ["load", "sfu", "store"]}
                    ktdf.stage depends_in(%16) depends_out(none) {
                      %95 = arith.addi %1, %t0 : index
                      %96 = arith.addi %2, %t1 : index
                      ktdf.data_transfer from %15[0, 0] size [%n0, %n1] to %h_in_memory_view[%95, %96] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<64x128xf16>
                    } {applicable_units = ["dma"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
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
        ktdf.private -> () {
          ktdf.private_yield
        }
        ktdf.stage depends_in(none) depends_out(none) {
          %c16 = arith.constant 16 : index
          %c1024 = arith.constant 1024 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %0 = arith.constant 16 : index
          %1 = arith.muli %t, %0 : index
          %2 = arith.constant 0 : index
          %c16_1 = arith.constant 16 : index
          %c1024_1 = arith.constant 1024 : index
          %c128 = arith.constant 128 : index
          %c8 = arith.constant 8 : index
          %c0_2 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c32_1 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p1.tile.lx.d0", extent = 16 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p1.tile.lx.d1", extent = 1024 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_2 to %c16_1 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c16_1 : index
            ktdf.pipeline attributes {ktdf.outer_fetch} {
              %3, %4 = ktdf.private -> (memref<?x128xf16, "LX">, !ktdf.token) {
                %5 = ktdf.buffer {role = "input", operand = "h_in_memory", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1", 128 : i64]} : memref<?x128xf16, "LX">
                %6 = ktdf.token : !ktdf.token
                ktdf.private_yield %5, %6 : memref<?x128xf16, "LX">, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%4) {
                %7 = arith.addi %1, %t0 : index
                %8 = arith.constant 0 : index
                %9 = arith.addi %2, %8 : index
                ktdf.data_transfer from %h_in_memory_view[%7, %9] size [%n0, 128] to %3[0, 0] size [%n0, 128] : memref<64x128xf16>, memref<?x128xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%4) depends_out(none) {
                scf.for %t1 = %c0_2 to %c1024_1 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c1024_1 : index
                  ktdf.pipeline {
                    %10, %11, %12, %13, %14, %15 = ktdf.private -> (memref<128x?xf16, "LX">, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">) {
                      %16 = ktdf.buffer {role = "input", operand = "Wd", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1", 128 : i64]} : memref<128x?xf16, "LX">
                      %17 = ktdf.token : !ktdf.token
                      %18 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %19 = ktdf.token : !ktdf.token
                      %20 = ktdf.token : !ktdf.token
                      %21 = ktdf.buffer {role = "intermediate", operand = "ys", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1"]} : memref<?x?xf32, "LX">
                      ktdf.private_yield %16, %17, %18, %19, %20, %21 : memref<128x?xf16, "LX">, !ktdf.token, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token, memref<?x?xf32, "LX">
                    }
                    ktdf.stage depends_in(none) depends_out(%11) {
                      %22 = arith.constant 0 : index
                      %23 = arith.addi %c0, %22 : index
                      %24 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %Wdv[%23, %24] size [128, %n1] to %10[0, 0] size [128, %n1] : memref<128x1024xf16>, memref<128x?xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%11) depends_out(%14) {
                      scf.for %p0 = %c0_2 to %n0 step %c8 {
                        %25 = ktdf.tiling.linearize_index %t0, %p0 : index
                        scf.for %p1 = %c0_2 to %n1 step %c64 {
                          %26 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %blk = ktdf.tiling.derive_size %25, %c8, %c16_1 : index
                          %blk_1 = ktdf.tiling.derive_size %26, %c64, %c1024_1 : index
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
                              scf.for %37 = %c0_2 to %c128 step %c32_1 {
                                %vec = ktdf.tiling.derive_size %37, %c32_1, %c128 : index
                                ktdf.data_transfer from %3[%p0, %37] size [%blk, %vec] to %27 size [%blk, %vec] : memref<?x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %10[%37, %p1] size [%vec, %blk_1] to %28 size [%vec, %blk_1] : memref<128x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%30) depends_out(%31) {
                              %38 = tensor.empty() : tensor<8x64xf32>
                              %39 = linalg.fill ins(%zero : f32) outs(%38 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %40 = scf.for %41 = %c0_2 to %c128 step %c32_1 iter_args(%42 = %39) -> (tensor<8x64xf32>) {
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
                          %vec_1 = ktdf.tiling.derive_size %47, %c32, %c1024 : index
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
                      ktdf.data_transfer from %12[0, 0] size [%n0, %n1] to %Yv[%59, %60] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<64x1024xf16>
                    } {applicable_units = ["dma"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "systolic", "store", "sfu"]}
      }
      func.return
    }
  }
}

