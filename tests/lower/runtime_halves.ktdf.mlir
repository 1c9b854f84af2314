// Run-time shapes: Y[N + i] = X[i] * X[i] (and Y[i] = X[i] + X[i]) with N a run-time
// argument; the second store's row is (2N) / 2 + i. The program keeps N symbolic: the outer
// function reads the run-time argument's value and defines the "shape" symbol 2N; the units
// read it (symbol.create_symbol) and divide it themselves (the division is not affine). The
// orchestrator's loop over N is the job plan's (tests/lower/test_runtime_shapes.py).
// CHECK-LABEL: func.func @local_schedule_0(%X: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 32, upperbound = 128>, %i: index) {
// CHECK-NEXT:    %n_value = ktdp.runtime_arg_extract value from %n : <index, granularity = 32, upperbound = 128> -> index
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %s0 = arith.muli %n_value, %[[TWO]] : index
// CHECK-NEXT:    symbol.create_id %s0 {symbol_id = 0 : i64}
// CHECK-LABEL: func.func @local_schedule_0_body() {
// CHECK-NEXT:    %sym0 = symbol.create_symbol {SymbolId = 0 : i64} : index
// CHECK:         dataflow.program_unit @p0_dma_store
// CHECK:           %[[H:.*]] = arith.divui %sym0, %{{.*}} : index
// CHECK:           scf.for
// CHECK:           %[[ROW:.*]] = arith.muli %[[H]], %{{.*}} : index
// CHECK-NEXT:      scf.for
// CHECK:             %[[OFF:.*]] = arith.addi %[[ROW]], %{{.*}} : index
// CHECK-NEXT:        %[[DST:.*]] = arith.addi %[[OFF]], %sym2 : index
// CHECK-NEXT:        agen.composite_load_and_store "lx"[%{{.*}}] {{.*}} to "ddr"[%[[DST]]]
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @runtime_halves(%X: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 32, upperbound = 128>) attributes {grid = [1 : i64]} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %N = ktdp.runtime_arg_extract value from %n : <index, granularity = 32, upperbound = 128> -> index
    scf.for %i = %c0 to %N step %c32 {
      func.call @local_schedule_0(%X, %Y, %n, %i) : (index, index, !ktdp.runtime_arg<index, granularity = 32, upperbound = 128>, index) -> ()
    }
    func.return
  }
  func.func private @local_schedule_0(index, index, !ktdp.runtime_arg<index, granularity = 32, upperbound = 128>, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 32, upperbound = 128>, %i: index) attributes {grid = [1 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %N = ktdp.runtime_arg_extract value from %n : <index, granularity = 32, upperbound = 128> -> index
      %N2 = arith.muli %N, %c2 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [%N, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, ((s0 + -1) + (d0 * -1)) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
      %Yv = ktdp.construct_memory_view %Y, sizes: [%N2, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, ((s0 + -1) + (d0 * -1)) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
      %h = arith.divui %N2, %c2 : index
      %j = arith.addi %h, %i : index
      ktdf.pipeline {
        %0 = ktdf.private -> (!ktdf.token) {
          %1 = ktdf.token : !ktdf.token
          ktdf.private_yield %1 : !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%0) {
          %c32 = arith.constant 32 : index
          %c64 = arith.constant 64 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 32 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 64 : i64, min_value = 64 : i64, divisibility = 64 : i64, value = 64 : i64} : index
          scf.for %t0 = %c0_1 to %c32 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c32 : index
            scf.for %t1 = %c0_1 to %c64 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c64 : index
              ktdf.pipeline modulo(size: 2, decision = "p0.pipe.lx.modulo") {
                %2, %3, %4, %5, %6 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
                  %7 = ktdf.buffer {elements_at_max = 2048 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %8 = ktdf.buffer {elements_at_max = 2048 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %9 = ktdf.buffer {elements_at_max = 2048 : i64, role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %10 = ktdf.token : !ktdf.token
                  %11 = ktdf.token : !ktdf.token
                  ktdf.private_yield %7, %8, %9, %10, %11 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%5) {
                  %12 = arith.addi %i, %t0 : index
                  %13 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Xv[%12, %13] size [%n0, %n1] to %2[0, 0] size [%n0, %n1] : memref<?x64xf16>, memref<?x?xf16, "LX">
                  %14 = arith.addi %i, %t0 : index
                  %15 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Xv[%14, %15] size [%n0, %n1] to %3[0, 0] size [%n0, %n1] : memref<?x64xf16>, memref<?x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%5) depends_out(%6) {
                  ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = 2) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %16 = ktdf.tiling.linearize_index %t0, %p0 : index
                    ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = 1) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                      %17 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %vec = ktdf.tiling.derive_size %17, %c64, %c64 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0"} {
                        %18, %19, %20, %21, %22 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                          %23 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %24 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %25 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                          %26 = ktdf.token : !ktdf.token
                          %27 = ktdf.token : !ktdf.token
                          ktdf.private_yield %23, %24, %25, %26, %27 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%21) {
                          ktdf.data_transfer from %2[%p0, %p1] size [1, %vec] to %18 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          ktdf.data_transfer from %3[%p0, %p1] size [1, %vec] to %19 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%21) depends_out(%22) {
                          %28 = ktdf.read_from_fifo %18 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %29 = ktdf.read_from_fifo %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %30 = tensor.empty() : tensor<1x64xf16>
                          %31 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%28, %29 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%30 : tensor<1x64xf16>) {
                          ^bb0(%32: f16, %33: f16, %34: f16):
                            %35 = arith.addf %32, %33 : f16
                            linalg.yield %35 : f16
                          } -> tensor<1x64xf16>
                          ktdf.write_to_fifo %31, %20 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%22) depends_out(none) {
                          ktdf.data_transfer from %20 size [1, %vec] to %4[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    }
                  }
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%6) depends_out(none) {
                  %36 = arith.addi %i, %t0 : index
                  %37 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %4[0, 0] size [%n0, %n1] to %Yv[%36, %37] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<?x64xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%0) depends_out(none) {
          %c32_1 = arith.constant 32 : index
          %c64_1 = arith.constant 64 : index
          %c1_1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 32 : i64, min_value = 1 : i64, divisibility = 1 : i64, value = 2 : i64} : index
          %T1_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 64 : i64, min_value = 64 : i64, divisibility = 64 : i64, value = 64 : i64} : index
          scf.for %t0_1 = %c0_2 to %c32_1 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c32_1 : index
            scf.for %t1_1 = %c0_2 to %c64_1 step %T1_1 {
              %n1_1 = ktdf.tiling.derive_size %t1_1, %T1_1, %c64_1 : index
              ktdf.pipeline modulo(size: 2, decision = "p0.c1.pipe.lx.modulo") {
                %38, %39, %40, %41, %42 = ktdf.private -> (memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token) {
                  %43 = ktdf.buffer {elements_at_max = 2048 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %44 = ktdf.buffer {elements_at_max = 2048 : i64, role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %45 = ktdf.buffer {elements_at_max = 2048 : i64, role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %46 = ktdf.token : !ktdf.token
                  %47 = ktdf.token : !ktdf.token
                  ktdf.private_yield %43, %44, %45, %46, %47 : memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, memref<?x?xf16, "LX">, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%41) {
                  %48 = arith.addi %i, %t0_1 : index
                  %49 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %Xv[%48, %49] size [%n0_1, %n1_1] to %38[0, 0] size [%n0_1, %n1_1] : memref<?x64xf16>, memref<?x?xf16, "LX">
                  %50 = arith.addi %i, %t0_1 : index
                  %51 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %Xv[%50, %51] size [%n0_1, %n1_1] to %39[0, 0] size [%n0_1, %n1_1] : memref<?x64xf16>, memref<?x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%41) depends_out(%42) {
                  ktdf.parallel (%p0_1) = (%c0_2) to (%n0_1) step (%c1_1) distribute(num_instances = 2) {decision = "p0.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %52 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    ktdf.parallel (%p1_1) = (%c0_2) to (%n1_1) step (%c64_1) distribute(num_instances = 1) {decision = "p0.c1.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                      %53 = ktdf.tiling.linearize_index %t1_1, %p1_1 : index
                      %vec_1 = ktdf.tiling.derive_size %53, %c64_1, %c64_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %54, %55, %56, %57, %58 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                          %59 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %60 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %61 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                          %62 = ktdf.token : !ktdf.token
                          %63 = ktdf.token : !ktdf.token
                          ktdf.private_yield %59, %60, %61, %62, %63 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%57) {
                          ktdf.data_transfer from %38[%p0_1, %p1_1] size [1, %vec_1] to %54 size [1, %vec_1] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          ktdf.data_transfer from %39[%p0_1, %p1_1] size [1, %vec_1] to %55 size [1, %vec_1] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%57) depends_out(%58) {
                          %64 = ktdf.read_from_fifo %54 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %65 = ktdf.read_from_fifo %55 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %66 = tensor.empty() : tensor<1x64xf16>
                          %67 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%64, %65 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%66 : tensor<1x64xf16>) {
                          ^bb0(%68: f16, %69: f16, %70: f16):
                            %71 = arith.mulf %68, %69 : f16
                            linalg.yield %71 : f16
                          } -> tensor<1x64xf16>
                          ktdf.write_to_fifo %67, %56 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%58) depends_out(none) {
                          ktdf.data_transfer from %56 size [1, %vec_1] to %40[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    }
                  }
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%42) depends_out(none) {
                  %72 = arith.addi %j, %t0_1 : index
                  %73 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %40[0, 0] size [%n0_1, %n1_1] to %Yv[%72, %73] size [%n0_1, %n1_1] : memref<?x?xf16, "LX">, memref<?x64xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
      }
      func.return
    }
  }
}
