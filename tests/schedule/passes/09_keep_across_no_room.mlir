// PASS: keep-across-programs
// The same softmax, with the kernel's pinned bytes (edited) leaving less than X's
// 1024-byte tile of scratchpad in the programs the region would span: no choice is
// offered, both programs keep re-reading X from device memory.
// CHECK-NOT: ktdf.keep
// CHECK-NOT: ktdf.resident_regions
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @softmax_rows(%X: index, %Y: index) attributes {grid = [32 : i64]} {
    func.call @local_schedule_0(%X, %Y) : (index, index) -> ()
    func.call @local_schedule_1(%X, %Y) : (index, index) -> ()
    func.call @local_schedule_2(%X, %Y) : (index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index) -> ()
  func.func private @local_schedule_1(index, index) -> ()
  func.func private @local_schedule_2(index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%X: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 2096200 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %M_off = arith.constant 512 : index
      %ninf = arith.constant -6.550400e+04 : f16
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Mv = ktdp.construct_memory_view %M_off, sizes: [2], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf16>
      %c2_1 = arith.constant 2 : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      scf.for %t0 = %c0_1 to %c2_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c2_1 : index
        ktdf.pipeline modulo(size: ?, decision = "p0.pipe.lx.modulo") {
          %0, %1 = ktdf.private -> (memref<?x256xf16, "LX">, !ktdf.token) {
            %2 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p0.tile.lx.d0", 256 : i64]} : memref<?x256xf16, "LX">
            %3 = ktdf.token : !ktdf.token
            ktdf.private_yield %2, %3 : memref<?x256xf16, "LX">, !ktdf.token
          }
          ktdf.stage depends_in(none) depends_out(%1) {
            %4 = arith.constant 0 : index
            %5 = arith.addi %row, %t0 : index
            %6 = arith.addi %c0, %4 : index
            ktdf.data_transfer from %Xv[%5, %6] size [%n0, 256] to %0[0, 0] size [%n0, 256] : memref<64x256xf16>, memref<?x256xf16, "LX">
          } {applicable_units = ["dma"]}
          ktdf.stage depends_in(%1) depends_out(none) {
            ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = ?) {decision = "p0.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
              %7 = ktdf.tiling.linearize_index %t0, %p0 : index
              ktdf.pipeline attributes {ktdf.compute = "p0"} {
                %8, %9, %10, %11 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, !ktdf.token, !ktdf.token) {
                  %12 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                  %13 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf16>
                  %14 = ktdf.token : !ktdf.token
                  %15 = ktdf.token : !ktdf.token
                  ktdf.private_yield %12, %13, %14, %15 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, !ktdf.token, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%10) {
                  scf.for %16 = %c0_1 to %c256 step %c64 {
                    %vec = ktdf.tiling.derive_size %16, %c64, %c256 : index
                    ktdf.data_transfer from %0[%p0, %16] size [1, %vec] to %8 size [1, %vec] : memref<?x256xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                  } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
                } {applicable_units = ["load"]}
                ktdf.stage depends_in(%10) depends_out(%11) {
                  %17 = tensor.empty() : tensor<1xf16>
                  %18 = linalg.fill ins(%ninf : f16) outs(%17 : tensor<1xf16>) -> tensor<1xf16>
                  %19 = scf.for %20 = %c0_1 to %c256 step %c64 iter_args(%21 = %18) -> (tensor<1xf16>) {
                    %22 = ktdf.read_from_fifo %8 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                    %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%22 : tensor<1x64xf16>) outs(%21 : tensor<1xf16>) {
                    ^bb0(%in: f16, %acc: f16):
                      %mx = arith.maximumf %in, %acc : f16
                      linalg.yield %mx : f16
                    } -> tensor<1xf16>
                    scf.yield %23 : tensor<1xf16>
                  } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.maximumf"}
                  ktdf.write_to_fifo %19, %9 : tensor<1xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf16>
                } {applicable_units = ["sfu"]}
                ktdf.stage depends_in(%11) depends_out(none) {
                  %24 = arith.addi %c0, %7 : index
                  ktdf.data_transfer from %9 size [1] to %Mv[%24] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf16>, memref<2xf16>
                } {applicable_units = ["store"]}
              }
            }
          } {applicable_units = ["load", "sfu", "store"]}
        }
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
  builtin.module @program_1 {
    func.func @local_schedule_1(%X: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 2096200 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %E_off = arith.constant 0 : index
      %M_off = arith.constant 512 : index
      %S_off = arith.constant 576 : index
      %zero = arith.constant 0.000000e+00 : f32
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Xv = ktdp.construct_memory_view %X, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Ev = ktdp.construct_memory_view %E_off, sizes: [2, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2x256xf16>
      %Mv = ktdp.construct_memory_view %M_off, sizes: [2], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf16>
      %Sv = ktdp.construct_memory_view %S_off, sizes: [2], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf32>
      ktdf.pipeline {
        %0 = ktdf.private -> (!ktdf.token) {
          %1 = ktdf.token : !ktdf.token
          ktdf.private_yield %1 : !ktdf.token
        }
        ktdf.stage depends_in(none) depends_out(%0) {
          %c2_1 = arith.constant 2 : index
          %c256 = arith.constant 256 : index
          %c1 = arith.constant 1 : index
          %c0_1 = arith.constant 0 : index
          %c64 = arith.constant 64 : index
          %T0 = ktdf.tiling.reserve_size {decision = "p1.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
          %T1 = ktdf.tiling.reserve_size {decision = "p1.tile.lx.d1", extent = 256 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
          scf.for %t0 = %c0_1 to %c2_1 step %T0 {
            %n0 = ktdf.tiling.derive_size %t0, %T0, %c2_1 : index
            scf.for %t1 = %c0_1 to %c256 step %T1 {
              %n1 = ktdf.tiling.derive_size %t1, %T1, %c256 : index
              ktdf.pipeline modulo(size: ?, decision = "p1.pipe.lx.modulo") {
                %2, %3 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
                  %4 = ktdf.buffer {role = "input", operand = "X", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p1.tile.lx.d0", "p1.tile.lx.d1"]} : memref<?x?xf16, "LX">
                  %5 = ktdf.token : !ktdf.token
                  ktdf.private_yield %4, %5 : memref<?x?xf16, "LX">, !ktdf.token
                }
                ktdf.stage depends_in(none) depends_out(%3) {
                  %6 = arith.addi %row, %t0 : index
                  %7 = arith.addi %c0, %t1 : index
                  ktdf.data_transfer from %Xv[%6, %7] size [%n0, %n1] to %2[0, 0] size [%n0, %n1] : memref<64x256xf16>, memref<?x?xf16, "LX">
                } {applicable_units = ["dma"]}
                ktdf.stage depends_in(%3) depends_out(none) {
                  ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = ?) {decision = "p1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                    %8 = ktdf.tiling.linearize_index %t0, %p0 : index
                    ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c64) distribute(num_instances = ?) {decision = "p1.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                      %9 = ktdf.tiling.linearize_index %t1, %p1 : index
                      %vec = ktdf.tiling.derive_size %9, %c64, %c256 : index
                      ktdf.pipeline attributes {ktdf.compute = "p1"} {
                        %10, %11, %12, %13, %14 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token) {
                          %15 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %16 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %17 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                          %18 = ktdf.token : !ktdf.token
                          %19 = ktdf.token : !ktdf.token
                          ktdf.private_yield %15, %16, %17, %18, %19 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, !ktdf.token, !ktdf.token
                        }
                        ktdf.stage depends_in(none) depends_out(%13) {
                          ktdf.data_transfer from %2[%p0, %p1] size [1, %vec] to %10 size [1, %vec] : memref<?x?xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                          %20 = arith.addi %c0, %8 : index
                          ktdf.data_transfer from %Mv[%20] size [1] to %11 size [1, %vec] {transfer_mode = "splat"} : memref<2xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
                        } {applicable_units = ["load"]}
                        ktdf.stage depends_in(%13) depends_out(%14) {
                          %21 = ktdf.read_from_fifo %10 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %22 = ktdf.read_from_fifo %11 : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
                          %23 = tensor.empty() : tensor<1x64xf16>
                          %24 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%21, %22 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%23 : tensor<1x64xf16>) {
                          ^bb0(%xe: f16, %me: f16, %o: f16):
                            %d = arith.subf %xe, %me : f16
                            %ex = spyreop.exp %d : f16
                            linalg.yield %ex : f16
                          } -> tensor<1x64xf16>
                          ktdf.write_to_fifo %24, %12 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
                        } {applicable_units = ["sfu"]}
                        ktdf.stage depends_in(%14) depends_out(none) {
                          %25 = arith.addi %c0, %8 : index
                          %26 = arith.addi %c0, %9 : index
                          ktdf.data_transfer from %12 size [1, %vec] to %Ev[%25, %26] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>, memref<2x256xf16>
                        } {applicable_units = ["store"]}
                      }
                    }
                  }
                } {applicable_units = ["load", "sfu", "store"]}
              }
            } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
        } {applicable_units = ["dma", "load", "sfu", "store"]}
        ktdf.stage depends_in(%0) depends_out(none) {
          %c2_2 = arith.constant 2 : index
          %c256_1 = arith.constant 256 : index
          %c1_1 = arith.constant 1 : index
          %c0_2 = arith.constant 0 : index
          %c32 = arith.constant 32 : index
          ktdf.parallel (%i0) = (%c0_2) to (%c2_2) step (%c1_1) distribute(num_instances = ?) {decision = "p1.c1.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
            ktdf.pipeline attributes {ktdf.compute = "p1.c1"} {
              %27, %28, %29, %30 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token) {
                %31 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                %32 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
                %33 = ktdf.token : !ktdf.token
                %34 = ktdf.token : !ktdf.token
                ktdf.private_yield %31, %32, %33, %34 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, !ktdf.token, !ktdf.token
              }
              ktdf.stage depends_in(none) depends_out(%29) {
                scf.for %35 = %c0_2 to %c256_1 step %c32 {
                  %vec_1 = ktdf.tiling.derive_size %35, %c32, %c256_1 : index
                  %36 = arith.addi %c0, %i0 : index
                  %37 = arith.addi %c0, %35 : index
                  ktdf.data_transfer from %Ev[%36, %37] size [1, %vec_1] to %27 size [1, %vec_1] : memref<2x256xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64}
              } {applicable_units = ["load"]}
              ktdf.stage depends_in(%29) depends_out(%30) {
                %38 = tensor.empty() : tensor<1xf32>
                %39 = linalg.fill ins(%zero : f32) outs(%38 : tensor<1xf32>) -> tensor<1xf32>
                %40 = scf.for %41 = %c0_2 to %c256_1 step %c32 iter_args(%42 = %39) -> (tensor<1xf32>) {
                  %43 = ktdf.read_from_fifo %27 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                  %44 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%43 : tensor<1x32xf16>) outs(%42 : tensor<1xf32>) {
                  ^bb0(%ee: f16, %a: f32):
                    %w = arith.extf %ee : f16 to f32
                    %sum = arith.addf %w, %a : f32
                    linalg.yield %sum : f32
                  } -> tensor<1xf32>
                  scf.yield %44 : tensor<1xf32>
                } {loop_type = #ktdf.loop_type<reduction_loop>, ktdf.dim = 1 : i64, ktdf.reduction = "arith.addf"}
                ktdf.write_to_fifo %40, %28 : tensor<1xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1xf32>
              } {applicable_units = ["sfu"]}
              ktdf.stage depends_in(%30) depends_out(none) {
                %45 = arith.addi %c0, %i0 : index
                ktdf.data_transfer from %28 size [1] to %Sv[%45] size [1] : !ktdf.fifo.slot<"sfu" -> "store", 1xf32>, memref<2xf32>
              } {applicable_units = ["store"]}
            }
          }
        } {applicable_units = ["load", "sfu", "store"]}
      }
      func.return
    }
  }
  builtin.module @program_2 {
    func.func @local_schedule_2(%X: index, %Y: index) attributes {grid = [32 : i64], ktdf.pinned_bytes = 2096200 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %E_off = arith.constant 0 : index
      %S_off = arith.constant 576 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Yv = ktdp.construct_memory_view %Y, sizes: [64, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 63) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
      %Ev = ktdp.construct_memory_view %E_off, sizes: [2, 256], strides: [256, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 255) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2x256xf16>
      %Sv = ktdp.construct_memory_view %S_off, sizes: [2], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, ((d0 * -1) + 1) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<2xf32>
      %c2_1 = arith.constant 2 : index
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p2.tile.lx.d0", extent = 2 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p2.tile.lx.d1", extent = 256 : i64, min_value = 32 : i64, divisibility = 32 : i64} : index
      scf.for %t0 = %c0_1 to %c2_1 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c2_1 : index
        scf.for %t1 = %c0_1 to %c256 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c256 : index
          ktdf.pipeline modulo(size: ?, decision = "p2.pipe.lx.modulo") {
            %0, %1 = ktdf.private -> (memref<?x?xf16, "LX">, !ktdf.token) {
              %2 = ktdf.buffer {role = "output", operand = "Y", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = ["p2.tile.lx.d0", "p2.tile.lx.d1"]} : memref<?x?xf16, "LX">
              %3 = ktdf.token : !ktdf.token
              ktdf.private_yield %2, %3 : memref<?x?xf16, "LX">, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%1) {
              ktdf.parallel (%p0) = (%c0_1) to (%n0) step (%c1) distribute(num_instances = ?) {decision = "p2.distribute.d0", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 0 : i64} {
                %4 = ktdf.tiling.linearize_index %t0, %p0 : index
                ktdf.parallel (%p1) = (%c0_1) to (%n1) step (%c32) distribute(num_instances = ?) {decision = "p2.distribute.d1", instance_group = "corelet", max_instances = 2 : i64, ktdf.dim = 1 : i64} {
                  %5 = ktdf.tiling.linearize_index %t1, %p1 : index
                  %vec = ktdf.tiling.derive_size %5, %c32, %c256 : index
                  ktdf.pipeline attributes {ktdf.compute = "p2"} {
                    %6, %7, %8, %9, %10 = ktdf.private -> (!ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token) {
                      %11 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      %12 = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                      %13 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                      %14 = ktdf.token : !ktdf.token
                      %15 = ktdf.token : !ktdf.token
                      ktdf.private_yield %11, %12, %13, %14, %15 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, !ktdf.token, !ktdf.token
                    }
                    ktdf.stage depends_in(none) depends_out(%9) {
                      %16 = arith.addi %c0, %4 : index
                      %17 = arith.addi %c0, %5 : index
                      ktdf.data_transfer from %Ev[%16, %17] size [1, %vec] to %6 size [1, %vec] : memref<2x256xf16>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16>
                      %18 = arith.addi %c0, %4 : index
                      ktdf.data_transfer from %Sv[%18] size [1] to %7 size [1, %vec] {transfer_mode = "splat"} : memref<2xf32>, !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32>
                    } {applicable_units = ["load"]}
                    ktdf.stage depends_in(%9) depends_out(%10) {
                      %19 = ktdf.read_from_fifo %6 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf16> -> tensor<1x32xf16>
                      %20 = ktdf.read_from_fifo %7 : !ktdf.fifo.slot<"load" -> "sfu", 1x32xf32> -> tensor<1x32xf32>
                      %21 = tensor.empty() : tensor<1x32xf16>
                      %22 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%19, %20 : tensor<1x32xf16>, tensor<1x32xf32>) outs(%21 : tensor<1x32xf16>) {
                      ^bb0(%ee: f16, %se: f32, %o: f16):
                        %w = arith.extf %ee : f16 to f32
                        %q = arith.divf %w, %se : f32
                        %h = arith.truncf %q : f32 to f16
                        linalg.yield %h : f16
                      } -> tensor<1x32xf16>
                      ktdf.write_to_fifo %22, %8 : tensor<1x32xf16>, !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>
                    } {applicable_units = ["sfu"]}
                    ktdf.stage depends_in(%10) depends_out(none) {
                      ktdf.data_transfer from %8 size [1, %vec] to %0[%p0, %p1] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "store", 1x32xf16>, memref<?x?xf16, "LX">
                    } {applicable_units = ["store"]}
                  }
                }
              }
            } {applicable_units = ["load", "sfu", "store"]}
            ktdf.stage depends_in(%1) depends_out(none) {
              %23 = arith.addi %row, %t0 : index
              %24 = arith.addi %c0, %t1 : index
              ktdf.data_transfer from %0[0, 0] size [%n0, %n1] to %Yv[%23, %24] size [%n0, %n1] : memref<?x?xf16, "LX">, memref<64x256xf16>
            } {applicable_units = ["dma"]}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
