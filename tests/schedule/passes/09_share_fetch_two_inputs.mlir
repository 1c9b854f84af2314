// PASS: share-fetch
// Two inputs every tile reads whole, in one program: C = A @ B and D = A @ E on 4 tiles
// (tests/crosscore/kernels/shared_two_weights_matmul.mlir). Each gets its own choice
// (p0.share.B, p0.share.E) and its own region, E's above B's, but one fill program
// (program 1, both owners' slices) and one set of relay steps (programs 2 and 3, each
// moving both inputs' slices, the second input's values named %share1_*): the fills'
// device-memory latency and every step's wait for the slowest core are paid once, not
// once per input.
// CHECK: func.call @local_schedule_1(%A, %B, %E, %C, %D)
// CHECK-NEXT: func.call @local_schedule_2(%A, %B, %E, %C, %D)
// CHECK-NEXT: func.call @local_schedule_3(%A, %B, %E, %C, %D)
// CHECK-NEXT: func.call @local_schedule_0(%A, %B, %E, %C, %D)
// CHECK-NEXT: func.return
// CHECK: func.func @local_schedule_0({{.*}}ktdf.resident_regions = {p0.share.B = array<i64: 0, 65536>, p0.share.E = array<i64: 65536, 131072>}}
// CHECK: ktdf.share_fetch {decision = "p0.share.B", operand = "B", parts = 4 : i64, fetch_program = 1 : i64}
// CHECK-NEXT: ktdf.share_fetch {decision = "p0.share.E", operand = "E", parts = 4 : i64, fetch_program = 1 : i64}
// CHECK: ktdf.data_transfer from %B_gathered[0, 0] size [256, 128] to {{.*}} {ktdf.share = "p0.share.B", ktdf.share_role = "in_place"}
// CHECK: ktdf.data_transfer from %E_gathered[0, 0] size [256, 128] to {{.*}} {ktdf.share = "p0.share.E", ktdf.share_role = "in_place"}
// CHECK: builtin.module @program_1 {
// CHECK-NEXT: func.func @local_schedule_1({{.*}}ktdf.resident_regions = {p0.share.B = array<i64: 0, 65536>, p0.share.E = array<i64: 65536, 131072>}}
// CHECK: %share_region_at = arith.constant 0 : index
// CHECK: %share1_region_at = arith.constant 32768 : index
// CHECK: ktdf.data_transfer from %share_whole[%share_b0, %share_b1] size [64, 128] to %share_region[%share_start, 0] size [64, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "fill"}
// CHECK-NEXT: ktdf.data_transfer from %share1_whole[%share1_b0, %share1_b1] size [64, 128] to %share1_region[%share1_start, 0] size [64, 128] {ktdf.share = "p0.share.E", ktdf.share_role = "fill"}
// CHECK: builtin.module @program_2 {
// CHECK: ktdf.data_transfer from %share_right[%share_right_row, 0] size [64, 128] to %share_region[%share_right_row, 0] size [64, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "relay"}
// CHECK-NEXT: ktdf.data_transfer from %share_left[%share_left_row, 0] size [64, 128] to %share_region[%share_left_row, 0] size [64, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "relay"}
// CHECK-NEXT: ktdf.data_transfer from %share1_right[%share1_right_row, 0] size [64, 128] to %share1_region[%share1_right_row, 0] size [64, 128] {ktdf.share = "p0.share.E", ktdf.share_role = "relay"}
// CHECK-NEXT: ktdf.data_transfer from %share1_left[%share1_left_row, 0] size [64, 128] to %share1_region[%share1_left_row, 0] size [64, 128] {ktdf.share = "p0.share.E", ktdf.share_role = "relay"}
// CHECK: builtin.module @program_3 {
// CHECK: ktdf.data_transfer from %share_right[%share_right_row, 0] size [64, 128] to %share_region[%share_right_row, 0] size [64, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "relay"}
// CHECK-NEXT: ktdf.data_transfer from %share1_right[%share1_right_row, 0] size [64, 128] to %share1_region[%share1_right_row, 0] size [64, 128] {ktdf.share = "p0.share.E", ktdf.share_role = "relay"}
// CHECK-NOT: builtin.module @program_4
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @two_weights(%A: index, %B: index, %E: index, %C: index, %D: index) attributes {grid = [4 : i64]} {
    func.call @local_schedule_0(%A, %B, %E, %C, %D) : (index, index, index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %E: index, %C: index, %D: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 8 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Av = ktdp.construct_memory_view %A, sizes: [32, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      %Ev = ktdp.construct_memory_view %E, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [32, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
      %Dv = ktdp.construct_memory_view %D, sizes: [32, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
      ktdf.keep_resident {decision = "p0.keep.A", operand = "A"}
      ktdf.pipeline {
        %0, %1, %2, %3, %4, %5 = ktdf.private -> (memref<8x128xf32, "LX">, memref<8x128xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, memref<8x256xf16, "LX">) {
          %6 = ktdf.buffer {role = "intermediate", operand = "s", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [8 : i64, 128 : i64]} : memref<8x128xf32, "LX">
          %7 = ktdf.buffer {role = "intermediate", operand = "u", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [8 : i64, 128 : i64]} : memref<8x128xf32, "LX">
          %8 = ktdf.token : !ktdf.token
          %9 = ktdf.token : !ktdf.token
          %10 = ktdf.token : !ktdf.token
          %11 = ktdf.buffer {ktdf.keep = "p0.keep.A", role = "resident", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = [8 : i64, 128 : i64, 256 : i64]} : memref<8x256xf16, "LX">
          ktdf.private_yield %6, %7, %8, %9, %10, %11 : memref<8x128xf32, "LX">, memref<8x128xf32, "LX">, !ktdf.token, !ktdf.token, !ktdf.token, memref<8x256xf16, "LX">
        }
        ktdf.stage depends_in(none) depends_out(%2) {
          %c8 = arith.constant 8 : index
          %c128 = arith.constant 128 : index
          %c256 = arith.constant 256 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 8 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          ktdf.pipeline {
            %12, %13 = ktdf.private -> (memref<256x128xf16, "LX">, !ktdf.token) {
              %14 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = [1 : i64, 128 : i64, 256 : i64]} : memref<256x128xf16, "LX">
              %15 = ktdf.token : !ktdf.token
              ktdf.private_yield %14, %15 : memref<256x128xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%13) {
              %16 = arith.constant 0 : index
              %17 = arith.addi %c0, %16 : index
              %18 = arith.addi %c0, %c0_1 : index
              ktdf.data_transfer from %Bv[%17, %18] size [256, 128] to %12[0, 0] size [256, 128] : memref<256x128xf16>, memref<256x128xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%13) depends_out(none) {
              scf.for %t0 = %c0_1 to %c8 step %T0 {
                %n0 = ktdf.tiling.derive_size %t0, %T0, %c8 : index
                scf.for %t1 = %c0_1 to %c128 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c128 : index
                  ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
                    %19, %20 = ktdf.private -> (memref<?x256xf16, "LX">, !ktdf.token) {
                      %21 = ktdf.buffer {ktdf.keep = "p0.keep.A", role = "input", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 256 : i64]} : memref<?x256xf16, "LX">
                      %22 = ktdf.token : !ktdf.token
                      ktdf.private_yield %21, %22 : memref<?x256xf16, "LX">, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%20) {
                      %23 = arith.constant 0 : index
                      %24 = arith.addi %row, %t0 : index
                      %25 = arith.addi %c0, %23 : index
                      ktdf.data_transfer from %Av[%24, %25] size [%n0, 256] to %19[0, 0] size [%n0, 256] {ktdf.keep = "p0.keep.A", ktdf.keep_role = "fill"} : memref<32x256xf16>, memref<?x256xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%20) depends_out(none) {
                      ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c8) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                        %26 = ktdf.tiling.linearize_index %t0, %p0 : index
                        ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = ?) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                          %27 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %blk = ktdf.tiling.derive_size %26, %c8, %c8 : index
                          %blk_1 = ktdf.tiling.derive_size %27, %c64, %c128 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0"} {
                            %28, %29, %30, %31, %32 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                              %33 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %34 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              %35 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                              %36 = ktdf.token : !ktdf.token
                              %37 = ktdf.token : !ktdf.token
                              ktdf.private_yield %33, %34, %35, %36, %37 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%31) {
                              scf.for %38 = %c0_1 to %c256 step %c32 {
                                %vec = ktdf.tiling.derive_size %38, %c32, %c256 : index
                                ktdf.data_transfer from %19[%p0, %38] size [%blk, %vec] to %28 size [%blk, %vec] : memref<?x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %12[%38, %27] size [%vec, %blk_1] to %29 size [%vec, %blk_1] : memref<256x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%31) depends_out(%32) {
                              %39 = tensor.empty() : tensor<8x64xf32>
                              %40 = linalg.fill ins(%zero : f32) outs(%39 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %41 = scf.for %42 = %c0_1 to %c256 step %c32 iter_args(%43 = %40) -> (tensor<8x64xf32>) {
                                %44 = ktdf.read_from_fifo %28 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                                %45 = ktdf.read_from_fifo %29 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                                %46 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%44, %45 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%43 : tensor<8x64xf32>) {
                                ^bb0(%ae: f16, %be: f16, %acc: f32):
                                  %af = arith.extf %ae : f16 to f32
                                  %bf = arith.extf %be : f16 to f32
                                  %p = arith.mulf %af, %bf : f32
                                  %s = arith.addf %acc, %p : f32
                                  linalg.yield %s : f32
                                } -> tensor<8x64xf32>
                                scf.yield %46 : tensor<8x64xf32>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %41, %30 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%32) depends_out(none) {
                              ktdf.data_transfer from %30 size [%blk, %blk_1] to %0[%26, %27] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<8x128xf32, "LX">
                            } {applicable_units = ["store"]}
                          }
                        }
                      }
                    } {applicable_units = ["load", "systolic", "store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["dma", "load", "systolic", "store"]}
          }
        } {applicable_units = ["dma", "load", "systolic", "store"]}
        ktdf.stage depends_in(%2) depends_out(%3) {
          %c8_1 = arith.constant 8 : index
          %c128_1 = arith.constant 128 : index
          %c1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %c32_1 = arith.constant 32 : index
          %T0_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d0", extent = 8 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1_1 = ktdf.tiling.reserve_size {decision = "p0.c1.tile.lx.d1", extent = 128 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          scf.for %t0_1 = %c0_2 to %c8_1 step %T0_1 {
            %n0_1 = ktdf.tiling.derive_size %t0_1, %T0_1, %c8_1 : index
            scf.for %t1_1 = %c0_2 to %c128_1 step %T1_1 {
              %n1_1 = ktdf.tiling.derive_size %t1_1, %T1_1, %c128_1 : index
              ktdf.pipeline modulo(size: ?, decision = "p0.c1.pipe.lx.modulo") {
                %47, %48 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %49 = ktdf.buffer {role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %50 = ktdf.token : !ktdf.token
                  ktdf.private_yield %49, %50 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%48) {
                  ktdf.parallel (%p0_1) = (%c0_2) to (%n0_1) step (%c1) distribute(num_instances = ?) {decision = "p0.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %51 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    ktdf.parallel (%p1_1) = (%c0_2) to (%n1_1) step (%c32_1) distribute(num_instances = ?) {decision = "p0.c1.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                      %52 = ktdf.tiling.linearize_index %t1_1, %p1_1 : index
                      %vec_1 = ktdf.tiling.derive_size %52, %c32_1, %c128_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %53, %54, %55, %56 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                          %57 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %58 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                          %59 = ktdf.token : !ktdf.token
                          %60 = ktdf.token : !ktdf.token
                          ktdf.private_yield %57, %58, %59, %60 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%55) {
                          ktdf.data_transfer from %0[%51, %52] size [1, %vec_1] to %53 size [1, %vec_1] : memref<8x128xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%55) depends_out(%56) {
                          %61 = ktdf.read_from_fifo %53 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %62 = tensor.empty() : tensor<1x32xf16>
                          %63 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%61 : tensor<1x32xf32>) outs(%62 : tensor<1x32xf16>) {
                          ^bb0(%se: f32, %o: f16):
                            %r = arith.truncf %se : f32 to f16
                            linalg.yield %r : f16
                          } -> tensor<1x32xf16>
                          ktdf.write_to_fifo %63, %54 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%56) depends_out(none) {
                          ktdf.data_transfer from %54 size [1, %vec_1] to %47[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    }
                  }
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%48) depends_out(none) {
                  %64 = arith.addi %row, %t0_1 : index
                  %65 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %47[0, 0] size [%n0_1, %n1_1] to %Cv[%64, %65] size [%n0_1, %n1_1] : memref<?x?xf16, "LX">, memref<32x128xf16>
                } {applicable_units = ["dma"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["load", "sfu", "store", "dma"]}
        ktdf.stage depends_in(%3) depends_out(%4) {
          %c8_2 = arith.constant 8 : index
          %c128_2 = arith.constant 128 : index
          %c256_1 = arith.constant 256 : index
          %c0_3 = arith.constant 0 : index
          %c64_1 = arith.constant 64 : index
          %c32_2 = arith.constant 32 : index
          %T0_2 = ktdf.tiling.reserve_size {decision = "p0.c2.tile.lx.d0", extent = 8 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1_2 = ktdf.tiling.reserve_size {decision = "p0.c2.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          ktdf.pipeline {
            %66, %67 = ktdf.private -> (memref<256x128xf16, "LX">, !ktdf.token) {
              %68 = ktdf.buffer {role = "input", operand = "E", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = [1 : i64, 128 : i64, 256 : i64]} : memref<256x128xf16, "LX">
              %69 = ktdf.token : !ktdf.token
              ktdf.private_yield %68, %69 : memref<256x128xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%67) {
              %70 = arith.constant 0 : index
              %71 = arith.addi %c0, %70 : index
              %72 = arith.addi %c0, %c0_3 : index
              ktdf.data_transfer from %Ev[%71, %72] size [256, 128] to %66[0, 0] size [256, 128] : memref<256x128xf16>, memref<256x128xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%67) depends_out(none) {
              scf.for %t0_2 = %c0_3 to %c8_2 step %T0_2 {
                %n0_2 = ktdf.tiling.derive_size %t0_2, %T0_2, %c8_2 : index
                scf.for %t1_2 = %c0_3 to %c128_2 step %T1_2 {
                  %n1_2 = ktdf.tiling.derive_size %t1_2, %T1_2, %c128_2 : index
                  ktdf.pipeline modulo(size: ?, decision = "p0.c2.pipe.lx.modulo") {
                    %73, %74 = ktdf.private -> (memref<?x256xf16, "LX">, !ktdf.token) {
                      %75 = ktdf.buffer {ktdf.keep = "p0.keep.A", role = "input", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.c2.tile.lx.d0", "p0.c2.tile.lx.d1", 256 : i64]} : memref<?x256xf16, "LX">
                      %76 = ktdf.token : !ktdf.token
                      ktdf.private_yield %75, %76 : memref<?x256xf16, "LX">, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%74) {
                      %77 = arith.constant 0 : index
                      %78 = arith.addi %row, %t0_2 : index
                      %79 = arith.addi %c0, %77 : index
                      ktdf.data_transfer from %Av[%78, %79] size [%n0_2, 256] to %73[0, 0] size [%n0_2, 256] {ktdf.keep = "p0.keep.A", ktdf.keep_role = "reread"} : memref<32x256xf16>, memref<?x256xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%74) depends_out(none) {
                      ktdf.parallel (%p0_2) = (%c0_3) to (%n0_2) step (%c8_2) distribute(num_instances = ?) {decision = "p0.c2.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                        %80 = ktdf.tiling.linearize_index %t0_2, %p0_2 : index
                        ktdf.parallel (%p1_2) = (%c0_3) to (%n1_2) step (%c64_1) distribute(num_instances = ?) {decision = "p0.c2.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                          %81 = ktdf.tiling.linearize_index %t1_2, %p1_2 : index
                          %blk_2 = ktdf.tiling.derive_size %80, %c8_2, %c8_2 : index
                          %blk_3 = ktdf.tiling.derive_size %81, %c64_1, %c128_2 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0.c2"} {
                            %82, %83, %84, %85, %86 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                              %87 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %88 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              %89 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                              %90 = ktdf.token : !ktdf.token
                              %91 = ktdf.token : !ktdf.token
                              ktdf.private_yield %87, %88, %89, %90, %91 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%85) {
                              scf.for %92 = %c0_3 to %c256_1 step %c32_2 {
                                %vec_2 = ktdf.tiling.derive_size %92, %c32_2, %c256_1 : index
                                ktdf.data_transfer from %73[%p0_2, %92] size [%blk_2, %vec_2] to %82 size [%blk_2, %vec_2] : memref<?x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %66[%92, %81] size [%vec_2, %blk_3] to %83 size [%vec_2, %blk_3] : memref<256x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%85) depends_out(%86) {
                              %93 = tensor.empty() : tensor<8x64xf32>
                              %94 = linalg.fill ins(%zero : f32) outs(%93 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %95 = scf.for %96 = %c0_3 to %c256_1 step %c32_2 iter_args(%97 = %94) -> (tensor<8x64xf32>) {
                                %98 = ktdf.read_from_fifo %82 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16> -> tensor<8x32xf16>
                                %99 = ktdf.read_from_fifo %83 : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16> -> tensor<32x64xf16>
                                %100 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%98, %99 : tensor<8x32xf16>, tensor<32x64xf16>) outs(%97 : tensor<8x64xf32>) {
                                ^bb0(%ae_1: f16, %be_1: f16, %acc_1: f32):
                                  %af_1 = arith.extf %ae_1 : f16 to f32
                                  %bf_1 = arith.extf %be_1 : f16 to f32
                                  %p_1 = arith.mulf %af_1, %bf_1 : f32
                                  %q = arith.addf %acc_1, %p_1 : f32
                                  linalg.yield %q : f32
                                } -> tensor<8x64xf32>
                                scf.yield %100 : tensor<8x64xf32>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %95, %84 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%86) depends_out(none) {
                              ktdf.data_transfer from %84 size [%blk_2, %blk_3] to %1[%80, %81] size [%blk_2, %blk_3] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<8x128xf32, "LX">
                            } {applicable_units = ["store"]}
                          }
                        }
                      }
                    } {applicable_units = ["load", "systolic", "store"]}
                  }
                } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
              } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
            } {applicable_units = ["dma", "load", "systolic", "store"]}
          }
        } {applicable_units = ["dma", "load", "systolic", "store"]}
        ktdf.stage depends_in(%4) depends_out(none) {
          %c8_3 = arith.constant 8 : index
          %c128_3 = arith.constant 128 : index
          %c1_1 = arith.constant 1 : index
          %c0_4 = arith.constant 0 : index
          %c32_3 = arith.constant 32 : index
          %T0_3 = ktdf.tiling.reserve_size {decision = "p0.c3.tile.lx.d0", extent = 8 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1_3 = ktdf.tiling.reserve_size {decision = "p0.c3.tile.lx.d1", extent = 128 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
          scf.for %t0_3 = %c0_4 to %c8_3 step %T0_3 {
            %n0_3 = ktdf.tiling.derive_size %t0_3, %T0_3, %c8_3 : index
            scf.for %t1_3 = %c0_4 to %c128_3 step %T1_3 {
              %n1_3 = ktdf.tiling.derive_size %t1_3, %T1_3, %c128_3 : index
              ktdf.pipeline modulo(size: ?, decision = "p0.c3.pipe.lx.modulo") {
                %101, %102 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %103 = ktdf.buffer {role = "output", operand = "D", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c3.tile.lx.d0", "p0.c3.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %104 = ktdf.token : !ktdf.token
                  ktdf.private_yield %103, %104 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%102) {
                  ktdf.parallel (%p0_3) = (%c0_4) to (%n0_3) step (%c1_1) distribute(num_instances = ?) {decision = "p0.c3.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %105 = ktdf.tiling.linearize_index %t0_3, %p0_3 : index
                    ktdf.parallel (%p1_3) = (%c0_4) to (%n1_3) step (%c32_3) distribute(num_instances = ?) {decision = "p0.c3.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                      %106 = ktdf.tiling.linearize_index %t1_3, %p1_3 : index
                      %vec_3 = ktdf.tiling.derive_size %106, %c32_3, %c128_3 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c3"} {
                        %107, %108, %109, %110 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                          %111 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %112 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                          %113 = ktdf.token : !ktdf.token
                          %114 = ktdf.token : !ktdf.token
                          ktdf.private_yield %111, %112, %113, %114 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%109) {
                          ktdf.data_transfer from %1[%105, %106] size [1, %vec_3] to %107 size [1, %vec_3] : memref<8x128xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%109) depends_out(%110) {
                          %115 = ktdf.read_from_fifo %107 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %116 = tensor.empty() : tensor<1x32xf16>
                          %117 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%115 : tensor<1x32xf32>) outs(%116 : tensor<1x32xf16>) {
                          ^bb0(%se_1: f32, %o_1: f16):
                            %r_1 = arith.truncf %se_1 : f32 to f16
                            linalg.yield %r_1 : f16
                          } -> tensor<1x32xf16>
                          ktdf.write_to_fifo %117, %108 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%110) depends_out(none) {
                          ktdf.data_transfer from %108 size [1, %vec_3] to %101[%p0_3, %p1_3] size [1, %vec_3] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    }
                  }
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%102) depends_out(none) {
                  %118 = arith.addi %row, %t0_3 : index
                  %119 = arith.addi %c0, %t1_3 : index
                  ktdf.data_transfer from %101[0, 0] size [%n0_3, %n1_3] to %Dv[%118, %119] size [%n0_3, %n1_3] : memref<?x?xf16, "LX">, memref<32x128xf16>
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
