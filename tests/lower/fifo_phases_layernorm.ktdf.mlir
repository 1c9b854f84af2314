// FIFO depth per phase: the quick LayerNorm (bench/kernels/quick/layernorm.mlir, solved
// for spyre) is one run-once pipeline of four computes, one stage each: the mean's sum
// (1 FIFO lx_load -> sfu), its scaling (1), the variance's sum (2: the mean and X), and
// the normalisation (5: X, mean, rstd, gamma, beta). A unit pushes and pops all of one
// stage's entries before the next stage's, so the datapath's queue (16 entries) is split
// only among the FIFOs of one stage: 16, 16, 8 + 8, and 3 for each of the last five.
// Before, it was split among all nine (depth 1 each). The sfu -> lx_store FIFOs, one per
// stage, get 16 each. The normalisation's vector loop then moves 3 vectors per
// instruction (k = its FIFOs' depth; vector<1x96xf16>), where depth 1 allowed 1.
// (tests/lower/test_lower_filecheck.py lowers this and runs `filecheck` on program 0.)
// CHECK-LABEL: func.func @local_schedule_0_body() {
// CHECK:         dataflow.fifo @p0_f_0 "lx_load" -> "sfu" {depth = 16 : i64} : vector<32xf16>
// CHECK-NEXT:    dataflow.fifo @p0_f_1 "sfu" -> "lx_store" {depth = 16 : i64} : vector<1xf32>
// CHECK-NEXT:    dataflow.fifo @p0_f_2 "lx_load" -> "sfu" {depth = 16 : i64} : vector<2xf32>
// CHECK-NEXT:    dataflow.fifo @p0_f_3 "sfu" -> "lx_store" {depth = 16 : i64} : vector<2xf32>
// CHECK-NEXT:    dataflow.fifo @p0_f_4 "lx_load" -> "sfu" {depth = 8 : i64} : vector<1xf32>
// CHECK-NEXT:    dataflow.fifo @p0_f_5 "lx_load" -> "sfu" {depth = 8 : i64} : vector<32xf16>
// CHECK-NEXT:    dataflow.fifo @p0_f_6 "sfu" -> "lx_store" {depth = 16 : i64} : vector<1xf32>
// CHECK-NEXT:    dataflow.fifo @p0_f_7 "lx_load" -> "sfu" {depth = 3 : i64} : vector<32xf16>
// CHECK-NEXT:    dataflow.fifo @p0_f_8 "lx_load" -> "sfu" {depth = 3 : i64} : vector<32xf32>
// CHECK-NEXT:    dataflow.fifo @p0_f_9 "lx_load" -> "sfu" {depth = 3 : i64} : vector<32xf32>
// CHECK-NEXT:    dataflow.fifo @p0_f_10 "lx_load" -> "sfu" {depth = 3 : i64} : vector<32xf16>
// CHECK-NEXT:    dataflow.fifo @p0_f_11 "lx_load" -> "sfu" {depth = 3 : i64} : vector<32xf16>
// CHECK-NEXT:    dataflow.fifo @p0_f_12 "sfu" -> "lx_store" {depth = 16 : i64} : vector<32xf16>
// CHECK-LABEL: dataflow.program_unit @p0_sfu
// CHECK:         dataflow.receive @p0_f_0 : vector<1x32xf16>
// CHECK:         dataflow.receive @p0_f_7 : vector<1x96xf16>
// CHECK-NEXT:    dataflow.receive @p0_f_8 : vector<1x96xf32>
// CHECK-NEXT:    dataflow.receive @p0_f_9 : vector<1x96xf32>
// CHECK-NEXT:    dataflow.receive @p0_f_10 : vector<96xf16>
// CHECK-NEXT:    dataflow.receive @p0_f_11 : vector<96xf16>
// CHECK:         dataflow.send %{{.*}} to @p0_f_12 : vector<1x96xf16>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @layernorm(%X: index, %gamma: index, %beta: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %gamma, %beta, %Y) : (index, index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %gamma: index, %beta: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %inv_n = arith.constant 3.906250e-03 : f32
      %eps = arith.constant 1.000000e-05 : f32
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Gv = ktdp.construct_memory_view %gamma, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %Bv = ktdp.construct_memory_view %beta, sizes: [256], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      ktdf.pipeline {
        %0, %1, %2, %3, %4, %5, %6 = ktdf.private -> (memref<2xf32, "LX">, memref<2xf32, "LX">, memref<2xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, memref<2x256xf16, "LX">) {
          %7 = ktdf.buffer {elements_at_max = 2 : i64, role = "intermediate", operand = "sum", access_map = affine_map<(d0) -> (d0)>, tile_dims = [2 : i64]} : memref<2xf32, "LX">
          %8 = ktdf.buffer {elements_at_max = 2 : i64, role = "intermediate", operand = "mean", access_map = affine_map<(d0) -> (d0)>, tile_dims = [2 : i64]} : memref<2xf32, "LX">
          %9 = ktdf.buffer {elements_at_max = 2 : i64, role = "intermediate", operand = "ssq", access_map = affine_map<(d0) -> (d0)>, tile_dims = [2 : i64]} : memref<2xf32, "LX">
          %10 = ktdf.token : !ktdf.token
          %11 = ktdf.token : !ktdf.token
          %12 = ktdf.token : !ktdf.token
          %13 = ktdf.buffer {elements_at_max = 512 : i64, role = "resident", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [2 : i64, 256 : i64]} : memref<2x256xf16, "LX">
          ktdf.private_yield %7, %8, %9, %10, %11, %12, %13 : memref<2xf32, "LX">, memref<2xf32, "LX">, memref<2xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, memref<2x256xf16, "LX">
        }
        ktdf.stage depends_in(none) depends_out(%3) {
          %c2 = arith.constant 2 : index
          %c256 = arith.constant 256 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
          scf.for %t0 = %c0_1 to %c2 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c2 : index
            ktdf.pipeline modulo(size: 1, decision = "p0.pipe.lx.modulo") {
              %14 = ktdf.private -> (!ktdf.token) {
                %15 = ktdf.token : !ktdf.token
                ktdf.private_yield %15 : !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%14) {
                %16 = arith.constant 0 : index
                %17 = arith.addi %row, %t0 : index
                %18 = arith.addi %c0, %16 : index
                ktdf.data_transfer from %Xv[%17, %18] size [%n0, 256] to %6[%t0, %16] size [%n0, 256] : memref<64x256xf16>, memref<2x256xf16, "LX">
              } {applicable_units = ["dma"]}
              ktdf.stage depends_in(%14) depends_out(none) {
                ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = 2) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                  %19 = ktdf.tiling.linearize_index %t0, %p0 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0"} {
                    %20, %21, %22, %23 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token) {
                      %24 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      %25 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                      %26 = ktdf.token : !ktdf.token
                      %27 = ktdf.token : !ktdf.token
                      ktdf.private_yield %24, %25, %26, %27 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%22) {
                      scf.for %28 = %c0_1 to %c256 step %c32 {
                        %vec = ktdf.tiling.derive_size %28, %c32, %c256 : index
                        %29 = arith.addi %t0, %p0 : index
                        ktdf.data_transfer from %6[%29, %28] size [1, %vec] to %20 size [1, %vec] : memref<2x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%22) depends_out(%23) {
                      %30 = tensor.empty() : tensor<1xf32>
                      %31 = linalg.fill ins(%zero : f32) outs(%30 : tensor<1xf32>) -> tensor<1xf32>
                      %32 = scf.for %33 = %c0_1 to %c256 step %c32 iter_args(%34 = %31) -> (tensor<1xf32>) {
                        %35 = ktdf.read_from_fifo %20 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                        %36 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%35 : tensor<1x32xf16>) outs(%34 : tensor<1xf32>) {
                        ^bb0(%xe: f16, %acc: f32):
                          %w = arith.extf %xe : f16 to f32
                          %a = arith.addf %w, %acc : f32
                          linalg.yield %a : f32
                        } -> tensor<1xf32>
                        scf.yield %36 : tensor<1xf32>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                      ktdf.write_to_fifo %32, %21 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%23) depends_out(none) {
                      ktdf.data_transfer from %21 size [1] to %0[%19] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<2xf32, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              } {applicable_units = ["load", "sfu", "store"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%3) depends_out(%4) {
          %c2_1 = arith.constant 2 : index
          %c0_2 = arith.constant 0 : index
          ktdf.parallel (%i0) = (%c0_2) to (%c2_1) step (%c2_1) distribute(num_instances = 1) {decision = "p0.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
            %vec_1 = ktdf.tiling.derive_size %i0, %c2_1, %c2_1 : index
            ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
              %37, %38, %39, %40 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 2xf32>, !ktdf.fifo.slot<"sfu" -> "store", 2xf32>, !ktdf.token, !ktdf.token) {
                %41 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 2xf32>
                %42 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 2xf32>
                %43 = ktdf.token : !ktdf.token
                %44 = ktdf.token : !ktdf.token
                ktdf.private_yield %41, %42, %43, %44 : !ktdf.fifo.slot<"load" -> "sfu", 2xf32>, !ktdf.fifo.slot<"sfu" -> "store", 2xf32>, !ktdf.token, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%39) {
                ktdf.data_transfer from %0[%i0] size [%vec_1] to %37 size [%vec_1] : memref<2xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 2xf32>
              } {applicable_units = ["load"]}
              ktdf.stage depends_in(%39) depends_out(%40) {
                %45 = ktdf.read_from_fifo %37 : !ktdf.fifo.slot<"load" -> "sfu", 2xf32> -> tensor<2xf32>
                %46 = tensor.empty() : tensor<2xf32>
                %47 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%45 : tensor<2xf32>) outs(%46 : tensor<2xf32>) {
                ^bb0(%se: f32, %o: f32):
                  %mu = arith.mulf %se, %inv_n : f32
                  linalg.yield %mu : f32
                } -> tensor<2xf32>
                ktdf.write_to_fifo %47, %38 : tensor<2xf32>, !ktdf.fifo.slot<"sfu" -> "store", 2xf32>
              } {applicable_units = ["sfu"]}
              ktdf.stage depends_in(%40) depends_out(none) {
                ktdf.data_transfer from %38 size [%vec_1] to %1[%i0] size [%vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 2xf32>, memref<2xf32, "LX">
              } {applicable_units = ["store"]}
            }
          }
        } {applicable_units = ["load", "sfu", "store"]}
        ktdf.stage depends_in(%4) depends_out(%5) {
          %c2_2 = arith.constant 2 : index
          %c256_1 = arith.constant 256 : index
          %c1_1 = arith.constant 1 : index
          %c0_3 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c2.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
          scf.for %t0_1 = %c0_3 to %c2_2 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c2_2 : index
            ktdf.pipeline modulo(size: 1, decision = "p0.c2.pipe.lx.modulo") {
              ktdf.private -> () {
                ktdf.private_yield
              }
              ktdf.stage depends_in(none) depends_out(none) {
                ktdf.parallel (%p0_1) = (%c0_3) to (%n0_1) step (%c1_1) distribute(num_instances = 2) {decision = "p0.c2.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                  %48 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                  ktdf.pipeline attributes {ktdf.compute = "p0.c2"} {
                    %49, %50, %51, %52, %53 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token) {
                      %54 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1xf32>
                      %55 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      %56 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                      %57 = ktdf.token : !ktdf.token
                      %58 = ktdf.token : !ktdf.token
                      ktdf.private_yield %54, %55, %56, %57, %58 : !ktdf.fifo.slot<"load" -> "sfu", 1xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%52) {
                      ktdf.data_transfer from %1[%48] size [1] to %49 size [1] : memref<2xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1xf32>
                      scf.for %59 = %c0_3 to %c256_1 step %c32_1 {
                        %vec_2 = ktdf.tiling.derive_size %59, %c32_1, %c256_1 : index
                        %60 = arith.addi %t0_1, %p0_1 : index
                        ktdf.data_transfer from %6[%60, %59] size [1, %vec_2] to %50 size [1, %vec_2] : memref<2x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%52) depends_out(%53) {
                      %61 = ktdf.read_from_fifo %49 : !ktdf.fifo.slot<"load" -> "sfu", 1xf32> -> tensor<1xf32>
                      %62 = tensor.empty() : tensor<1xf32>
                      %63 = linalg.fill ins(%zero : f32) outs(%62 : tensor<1xf32>) -> tensor<1xf32>
                      %64 = scf.for %65 = %c0_3 to %c256_1 step %c32_1 iter_args(%66 = %63) -> (tensor<1xf32>) {
                        %67 = ktdf.read_from_fifo %50 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                        %68 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%67, %61 : tensor<1x32xf16>, tensor<1xf32>) outs(%66 : tensor<1xf32>) {
                        ^bb0(%xe_1: f16, %mu_1: f32, %acc_1: f32):
                          %w_1 = arith.extf %xe_1 : f16 to f32
                          %d = arith.subf %w_1, %mu_1 : f32
                          %sq = arith.mulf %d, %d : f32
                          %a_1 = arith.addf %sq, %acc_1 : f32
                          linalg.yield %a_1 : f32
                        } -> tensor<1xf32>
                        scf.yield %68 : tensor<1xf32>
                      } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                      ktdf.write_to_fifo %64, %51 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%53) depends_out(none) {
                      ktdf.data_transfer from %51 size [1] to %2[%48] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<2xf32, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              } {applicable_units = ["load", "sfu", "store"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["load", "sfu", "store"]}
        ktdf.stage depends_in(%5) depends_out(none) {
          %c2_3 = arith.constant 2 : index
          %c256_2 = arith.constant 256 : index
          %c1_2 = arith.constant 1 : index
          %c0_4 = arith.constant 0 : index
          %c32_2 = arith.constant 32 : index
          %T0_2 = ktdf.tiling.reserve_size {decision = "p0.c3.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.c3.tile.lx.d1", extent = 256 : i64, min_value = 32 : i64, divisibility = 32 : i64, value = 96 : i64} : index
          ktdf.pipeline {
            %69, %70, %71 = ktdf.private -> (memref<256xf16, "LX">, memref<256xf16, "LX">, !ktdf.token) {
              %72 = ktdf.buffer {elements_at_max = 256 : i64, role = "input", operand = "gamma", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = [1 : i64, 256 : i64]} : memref<256xf16, "LX">
              %73 = ktdf.buffer {elements_at_max = 256 : i64, role = "input", operand = "beta", access_map = affine_map<(d0, d1) -> (d1)>, tile_dims = [1 : i64, 256 : i64]} : memref<256xf16, "LX">
              %74 = ktdf.token : !ktdf.token
              ktdf.private_yield %72, %73, %74 : memref<256xf16, "LX">, memref<256xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%71) {
              %75 = arith.addi %c0, %c0_4 : index
              ktdf.data_transfer from %Gv[%75] size [256] to %69[0] size [256] : memref<256xf16>, memref<256xf16, "LX">
              %76 = arith.addi %c0, %c0_4 : index
              ktdf.data_transfer from %Bv[%76] size [256] to %70[0] size [256] : memref<256xf16>, memref<256xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%71) depends_out(none) {
              scf.for %t0_2 = %c0_4 to %c2_3 step %T0_2 {
                %n0_2 = ktdf.tiling.derive_size %t0_2, %T0_2, %c2_3 : index
                scf.for %t1 = %c0_4 to %c256_2 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c256_2 : index
                  ktdf.pipeline modulo(size: 2, decision = "p0.c3.pipe.lx.modulo") {
                    %77, %78 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                      %79 = ktdf.buffer {elements_at_max = 512 : i64, role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c3.tile.lx.d0", "p0.c3.tile.lx.d1"]} : memref<?x?xf16, "LX">
                      %80 = ktdf.token : !ktdf.token
                      ktdf.private_yield %79, %80 : memref<?x?xf16, "LX">, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%78) {
                      ktdf.parallel (%p0_2) = (%c0_4) to (%n0_2) step (%c1_2) distribute(num_instances = 2) {decision = "p0.c3.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                        %81 = ktdf.tiling.linearize_index %t0_2, %p0_2 : index
                        ktdf.parallel (%p1) = (%c0_4) to (%n1) step (%c32_2) distribute(num_instances = 1) {decision = "p0.c3.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                          %82 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %vec_3 = ktdf.tiling.derive_size %82, %c32_2, %c256_2 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0.c3"} {
                            %83, %84, %85, %86, %87, %88, %89, %90 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                              %91 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                              %92 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              %93 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              %94 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                              %95 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                              %96 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                              %97 = ktdf.token : !ktdf.token
                              %98 = ktdf.token : !ktdf.token
                              ktdf.private_yield %91, %92, %93, %94, %95, %96, %97, %98 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%89) {
                              %99 = arith.addi %t0_2, %p0_2 : index
                              %100 = arith.addi %t1, %p1 : index
                              ktdf.data_transfer from %6[%99, %100] size [1, %vec_3] to %83 size [1, %vec_3] : memref<2x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                              ktdf.data_transfer from %1[%81] size [1] to %84 size [1, %vec_3] {transfer_mode = "splat"} : memref<2xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              ktdf.data_transfer from %2[%81] size [1] to %85 size [1, %vec_3] {transfer_mode = "splat"} : memref<2xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                              ktdf.data_transfer from %69[%82] size [%vec_3] to %86 size [%vec_3] : memref<256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                              ktdf.data_transfer from %70[%82] size [%vec_3] to %87 size [%vec_3] : memref<256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 32xf16>
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%89) depends_out(%90) {
                              %101 = ktdf.read_from_fifo %83 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                              %102 = ktdf.read_from_fifo %84 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                              %103 = ktdf.read_from_fifo %85 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                              %104 = ktdf.read_from_fifo %86 : !ktdf.fifo.slot<"load" -> "sfu", 32xf16> -> tensor<32xf16>
                              %105 = ktdf.read_from_fifo %87 : !ktdf.fifo.slot<"load" -> "sfu", 32xf16> -> tensor<32xf16>
                              %106 = tensor.empty() : tensor<1x32xf16>
                              %107 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%101, %102, %103, %104, %105 : tensor<1x32xf16>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<32xf16>, tensor<32xf16>) outs(%106 : tensor<1x32xf16>) {
                              ^bb0(%108: f16, %109: f32, %110: f32, %111: f16, %112: f16, %113: f16):
                                %var = arith.mulf %110, %inv_n : f32
                                %v = arith.addf %var, %eps : f32
                                %r = spyreop.rsqrt %v : f32
                                %xf = arith.extf %108 : f16 to f32
                                %gf = arith.extf %111 : f16 to f32
                                %bf = arith.extf %112 : f16 to f32
                                %d_1 = arith.subf %xf, %109 : f32
                                %nrm = arith.mulf %d_1, %r : f32
                                %sc = arith.mulf %nrm, %gf : f32
                                %sh = arith.addf %sc, %bf : f32
                                %h = arith.truncf %sh : f32 to f16
                                linalg.yield %h : f16
                              } -> tensor<1x32xf16>
                              ktdf.write_to_fifo %107, %88 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                            } {applicable_units = ["sfu"]}
                            ktdf.stage depends_in(%90) depends_out(none) {
                              ktdf.data_transfer from %88 size [1, %vec_3] to %77[%p0_2, %p1] size [1, %vec_3] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                            } {applicable_units = ["store"]}
                          }
                        }
                      }
                    } {applicable_units = ["load", "sfu", "store"]}
                    ktdf.stage depends_in(%78) depends_out(none) {
                      %114 = arith.addi %row, %t0_2 : index
                      %115 = arith.addi %c0, %t1 : index
                      ktdf.data_transfer from %77[0, 0] size [%n0_2, %n1] to %Yv[%114, %115] size [%n0_2, %n1] : memref<?x?xf16, "LX">, memref<64x256xf16>
                    } {applicable_units = ["dma"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["load", "sfu", "store", "dma"]}
          }
        } {applicable_units = ["dma", "load", "sfu", "store"]}
      }
      func.return
    }
  }
}
