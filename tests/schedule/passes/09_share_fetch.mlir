// PASS: share-fetch
// C = A @ B on 4 tiles (tests/crosscore/kernels/shared_weights_matmul.mlir): every tile DMAs
// the same whole 256x128 box of B into its staging buffer, so the union of what the tiles
// read is one box where the sum is four. The pass offers fetching it once: the choice in
// program 0 (4 parts, fetched by program 1); program 1, called first, where tile t loads
// rows [64t, 64t+64) of B into the same rows of a 64 KiB region (B's shape) at byte 0 of
// its own scratchpad; programs 2 and 3, the relay steps: at step s tile t copies the rows
// of slice (t + s) mod 4 from its right neighbour's region (a view whose
// ktdf.owner_by_tile names core t + 1 for tile t) and, at step 1 only (4 - 1 = 2 + 1),
// slice (t - 1) mod 4 from its left neighbour's, into the same rows of its own region;
// beside program 0's direct DMA of B, one read of the whole gathered region into the
// staging buffer, marked `in_place` (the buffer is exactly B's box, so the computes can
// read the region itself), and the buffer marked as the direct form's; the region on all
// four programs. A is read per tile (its box
// differs): not offered.
// CHECK: func.call @local_schedule_1(%A, %B, %C)
// CHECK-NEXT: func.call @local_schedule_2(%A, %B, %C)
// CHECK-NEXT: func.call @local_schedule_3(%A, %B, %C)
// CHECK-NEXT: func.call @local_schedule_0(%A, %B, %C)
// CHECK: func.func private @local_schedule_3(index, index, index) -> ()
// CHECK: func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64, ktdf.resident_regions = {p0.share.B = array<i64: 0, 65536>}}
// CHECK: %B_gathered = ktdp.construct_memory_view %{{.*}}, sizes: [256, 128], strides: [128, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>} : memref<256x128xf16>
// CHECK: ktdf.share_fetch {decision = "p0.share.B", operand = "B", parts = 4 : i64, fetch_program = 1 : i64}
// CHECK: ktdf.buffer {ktdf.share = "p0.share.B", ktdf.share_role = "direct", role = "input", operand = "B"
// CHECK: ktdf.data_transfer from %B_gathered[0, 0] size [256, 128] to %[[BUF:.*]][0, 0] size [256, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "in_place"}
// CHECK-NEXT: ktdf.data_transfer from %Bv[{{.*}}] size [256, 128] to %[[BUF]][0, 0] size [256, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "direct"}
// CHECK-NOT: ktdf.share
// CHECK: builtin.module @program_1 {
// CHECK-NEXT: func.func @local_schedule_1(%A: index, %B: index, %C: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64, ktdf.resident_regions = {p0.share.B = array<i64: 0, 65536>}}
// CHECK: %share_t = ktdp.get_compute_tile_id : index
// CHECK-NEXT: %share_rows = arith.constant 64 : index
// CHECK: %share_start = arith.muli %share_t, %share_rows : index
// CHECK: %share_whole = ktdp.construct_memory_view %B, sizes: [256, 128]
// CHECK: %share_region = ktdp.construct_memory_view %{{.*}}, sizes: [256, 128], strides: [128, 1] {{.*}}memory_space = #ktdp.memory_space<ct_local>}
// CHECK: ktdf.data_transfer from %share_whole[%{{.*}}, %{{.*}}] size [64, 128] to %share_region[%share_start, 0] size [64, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "fill"}
// CHECK: {applicable_units = ["dma"]}
// CHECK: builtin.module @program_2 {
// CHECK-NEXT: func.func @local_schedule_2({{.*}}ktdf.resident_regions = {p0.share.B = array<i64: 0, 65536>}}
// CHECK: %share_right_ahead = arith.constant 1 : index
// CHECK-NEXT: %share_right_sum = arith.addi %share_t, %share_right_ahead : index
// CHECK-NEXT: %share_right_slice = arith.remui %share_right_sum, %share_parts : index
// CHECK-NEXT: %share_right_row = arith.muli %share_right_slice, %share_rows : index
// CHECK: %share_right = ktdp.construct_memory_view {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 1>, ktdf.owner_by_tile = array<i64: 1, 2, 3, 0>}
// CHECK: %share_left_ahead = arith.constant 3 : index
// CHECK: %share_left = ktdp.construct_memory_view {{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 3>, ktdf.owner_by_tile = array<i64: 3, 0, 1, 2>}
// CHECK: ktdf.data_transfer from %share_right[%share_right_row, 0] size [64, 128] to %share_region[%share_right_row, 0] size [64, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "relay"}
// CHECK-NEXT: ktdf.data_transfer from %share_left[%share_left_row, 0] size [64, 128] to %share_region[%share_left_row, 0] size [64, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "relay"}
// CHECK: builtin.module @program_3 {
// CHECK: %share_right_ahead = arith.constant 2 : index
// CHECK-NOT: share_left
// CHECK: ktdf.data_transfer from %share_right[%share_right_row, 0] size [64, 128] to %share_region[%share_right_row, 0] size [64, 128] {ktdf.share = "p0.share.B", ktdf.share_role = "relay"}
// CHECK-NOT: ktdf.data_transfer
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @matmul(%A: index, %B: index, %C: index) attributes {grid = [4 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [4 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %crows = arith.constant 8 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %crows : index
      %zero = arith.constant 0.000000e+00 : f32
      %Av = ktdp.construct_memory_view %A, sizes: [32, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x256xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [256, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 255) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<256x128xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [32, 128], strides: [128, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 127) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
      ktdf.pipeline {
        %0, %1 = ktdf.private -> (memref<8x128xf32, "LX">, !ktdf.token) {
          %2 = ktdf.buffer {role = "intermediate", operand = "s", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [8 : i64, 128 : i64]} : memref<8x128xf32, "LX">
          %3 = ktdf.token : !ktdf.token
          ktdf.private_yield %2, %3 : memref<8x128xf32, "LX">, !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%1) {
          %c8 = arith.constant 8 : index
          %c128 = arith.constant 128 : index
          %c256 = arith.constant 256 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %c32 = arith.constant 32 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 8 : i64, min_value = 8 : i64, divisibility = 8 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 128 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          ktdf.pipeline {
            %4, %5 = ktdf.private -> (memref<256x128xf16, "LX">, !ktdf.token) {
              %6 = ktdf.buffer {role = "input", operand = "B", access_map = affine_map<(d0, d1, d2) -> (d2, d1)>, tile_dims = [1 : i64, 128 : i64, 256 : i64]} : memref<256x128xf16, "LX">
              %7 = ktdf.token : !ktdf.token
              ktdf.private_yield %6, %7 : memref<256x128xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%5) {
              %8 = arith.constant 0 : index
              %9 = arith.addi %c0, %8 : index
              %10 = arith.addi %c0, %c0_1 : index
              ktdf.data_transfer from %Bv[%9, %10] size [256, 128] to %4[0, 0] size [256, 128] : memref<256x128xf16>, memref<256x128xf16, "LX">
            } {applicable_units = ["dma"]}
            ktdf.stage depends_in(%5) depends_out(none) {
              scf.for %t0 = %c0_1 to %c8 step %T0 {
                %n0 = ktdf.tiling.derive_size %t0, %T0, %c8 : index
                scf.for %t1 = %c0_1 to %c128 step %T1 {
                  %n1 = ktdf.tiling.derive_size %t1, %T1, %c128 : index
                  ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
                    %11, %12 = ktdf.private -> (memref<?x256xf16, "LX">, !ktdf.token) {
                      %13 = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1, d2) -> (d0, d2)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", 256 : i64]} : memref<?x256xf16, "LX">
                      %14 = ktdf.token : !ktdf.token
                      ktdf.private_yield %13, %14 : memref<?x256xf16, "LX">, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%12) {
                      %15 = arith.constant 0 : index
                      %16 = arith.addi %row, %t0 : index
                      %17 = arith.addi %c0, %15 : index
                      ktdf.data_transfer from %Av[%16, %17] size [%n0, 256] to %11[0, 0] size [%n0, 256] : memref<32x256xf16>, memref<?x256xf16, "LX">
                    } {applicable_units = ["dma"]}
                    ktdf.stage depends_in(%12) depends_out(none) {
                      ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c8) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                        %18 = ktdf.tiling.linearize_index %t0, %p0 : index
                        ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = ?) {decision = "p0.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                          %19 = ktdf.tiling.linearize_index %t1, %p1 : index
                          %blk = ktdf.tiling.derive_size %18, %c8, %c8 : index
                          %blk_1 = ktdf.tiling.derive_size %19, %c64, %c128 : index
                          ktdf.pipeline attributes {ktdf.compute = "p0"} {
                            %20, %21, %22, %23, %24 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token) {
                              %25 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                              %26 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              %27 = ktdf.fifo : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                              %28 = ktdf.token : !ktdf.token
                              %29 = ktdf.token : !ktdf.token
                              ktdf.private_yield %25, %26, %27, %28, %29 : !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, !ktdf.token, !ktdf.token
                            }
                            ktdf.stage depends_in(none) depends_out(%23) {
                              scf.for %30 = %c0_1 to %c256 step %c32 {
                                %vec = ktdf.tiling.derive_size %30, %c32, %c256 : index
                                ktdf.data_transfer from %11[%p0, %30] size [%blk, %vec] to %20 size [%blk, %vec] : memref<?x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 8x32xf16>
                                ktdf.data_transfer from %4[%30, %19] size [%vec, %blk_1] to %21 size [%vec, %blk_1] : memref<256x128xf16, "LX">, !ktdf.fifo.slot<"load" -> "systolic", 32x64xf16>
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64}
                            } {applicable_units = ["load"]}
                            ktdf.stage depends_in(%23) depends_out(%24) {
                              %31 = tensor.empty() : tensor<8x64xf32>
                              %32 = linalg.fill ins(%zero : f32) outs(%31 : tensor<8x64xf32>) -> tensor<8x64xf32>
                              %33 = scf.for %34 = %c0_1 to %c256 step %c32 iter_args(%35 = %32) -> (tensor<8x64xf32>) {
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
                              } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 2 : i64, ktdf.reduction = "arith.addf"}
                              ktdf.write_to_fifo %33, %22 : tensor<8x64xf32>, !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>
                            } {applicable_units = ["systolic"]}
                            ktdf.stage depends_in(%24) depends_out(none) {
                              ktdf.data_transfer from %22 size [%blk, %blk_1] to %0[%18, %19] size [%blk, %blk_1] : !ktdf.fifo.slot<"systolic" -> "store", 8x64xf32>, memref<8x128xf32, "LX">
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
        ktdf.stage depends_in(%1) depends_out(none) {
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
                %39, %40 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %41 = ktdf.buffer {role = "output", operand = "C", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.c1.tile.lx.d0", "p0.c1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %42 = ktdf.token : !ktdf.token
                  ktdf.private_yield %41, %42 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%40) {
                  ktdf.parallel (%p0_1) = (%c0_2) to (%n0_1) step (%c1) distribute(num_instances = ?) {decision = "p0.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %43 = ktdf.tiling.linearize_index %t0_1, %p0_1 : index
                    ktdf.parallel (%p1_1) = (%c0_2) to (%n1_1) step (%c32_1) distribute(num_instances = ?) {decision = "p0.c1.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                      %44 = ktdf.tiling.linearize_index %t1_1, %p1_1 : index
                      %vec_1 = ktdf.tiling.derive_size %44, %c32_1, %c128_1 : index
                      ktdf.pipeline attributes {ktdf.compute = "p0.c1"} {
                        %45, %46, %47, %48 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                          %49 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                          %50 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                          %51 = ktdf.token : !ktdf.token
                          %52 = ktdf.token : !ktdf.token
                          ktdf.private_yield %49, %50, %51, %52 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%47) {
                          ktdf.data_transfer from %0[%43, %44] size [1, %vec_1] to %45 size [1, %vec_1] : memref<8x128xf32, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%47) depends_out(%48) {
                          %53 = ktdf.read_from_fifo %45 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                          %54 = tensor.empty() : tensor<1x32xf16>
                          %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%53 : tensor<1x32xf32>) outs(%54 : tensor<1x32xf16>) {
                          ^bb0(%se: f32, %o: f16):
                            %r = arith.truncf %se : f32 to f16
                            linalg.yield %r : f16
                          } -> tensor<1x32xf16>
                          ktdf.write_to_fifo %55, %46 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%48) depends_out(none) {
                          ktdf.data_transfer from %46 size [1, %vec_1] to %39[%p0_1, %p1_1] size [1, %vec_1] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                        } {applicable_units = ["store"]}
                      }
                    }
                  }
                } {applicable_units = ["load", "sfu", "store"]}
                ktdf.stage depends_in(%40) depends_out(none) {
                  %56 = arith.addi %row, %t0_1 : index
                  %57 = arith.addi %c0, %t1_1 : index
                  ktdf.data_transfer from %39[0, 0] size [%n0_1, %n1_1] to %Cv[%56, %57] size [%n0_1, %n1_1] : memref<?x?xf16, "LX">, memref<32x128xf16>
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
