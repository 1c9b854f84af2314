// PASS: expand-paths
// spyre routes DDR -> dma_load -> LX -> lx_load -> sfu and back: five stages, staging
// buffers in LX of one vector, FIFOs between adjacent units.
// CHECK: ktdf.buffer {role = "input", operand = "A", access_map = affine_map<(d0, d1) -> (d0, d1)>, tile_dims = [1 : i64, 64 : i64]} : memref<1x64xf16, "LX">
// CHECK: ktdf.buffer {role = "output", operand = "C", {{.*}} : memref<1x64xf16, "LX">
// CHECK: ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 1x64xf16>
// CHECK: ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "store", 1x64xf16>
// CHECK: } {applicable_units = ["dma"]}
// CHECK: } {applicable_units = ["load"]}
// CHECK: } {applicable_units = ["sfu"]}
// CHECK: } {applicable_units = ["store"]}
// CHECK: ktdf.data_transfer from %{{.*}}[0, 0] size [1, %vec] to %Cv
// CHECK-NEXT: } {applicable_units = ["dma"]}
// CHECK-NOT: "DDR" -> "sfu"
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @small_add(%A: index, %B: index, %C: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%A, %B, %C) : (index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%A: index, %B: index, %C: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 0 : i64} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %t = ktdp.get_compute_tile_id : index
      %row = arith.muli %t, %c2 : index
      %Av = ktdp.construct_memory_view %A, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %Bv = ktdp.construct_memory_view %B, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %Cv = ktdp.construct_memory_view %C, sizes: [4, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 95) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x96xf16>
      %c2_1 = arith.constant 2 : index
      %c96 = arith.constant 96 : index
      %c1 = arith.constant 1 : index
      %c0_1 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      scf.for %i0 = %c0_1 to %c2_1 step %c1 {
        scf.for %i1 = %c0_1 to %c96 step %c64 {
          %vec = ktdf.tiling.derive_size %i1, %c64, %c96 : index
          ktdf.pipeline attributes {ktdf.compute = "p0"} {
            %0, %1, %2, %3, %4 = ktdf.private -> (!ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "DDR", 1x64xf16>, !ktdf.token, !ktdf.token) {
              %5 = ktdf.fifo : !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>
              %6 = ktdf.fifo : !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>
              %7 = ktdf.fifo : !ktdf.fifo.slot<"sfu" -> "DDR", 1x64xf16>
              %8 = ktdf.token : !ktdf.token
              %9 = ktdf.token : !ktdf.token
              ktdf.private_yield %5, %6, %7, %8, %9 : !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>, !ktdf.fifo.slot<"sfu" -> "DDR", 1x64xf16>, !ktdf.token, !ktdf.token
            }
            ktdf.stage depends_in(none) depends_out(%3) {
              %10 = arith.addi %row, %i0 : index
              %11 = arith.addi %c0, %i1 : index
              ktdf.data_transfer from %Av[%10, %11] size [1, %vec] to %0 size [1, %vec] : memref<4x96xf16>, !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>
              %12 = arith.addi %row, %i0 : index
              %13 = arith.addi %c0, %i1 : index
              ktdf.data_transfer from %Bv[%12, %13] size [1, %vec] to %1 size [1, %vec] : memref<4x96xf16>, !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16>
            } {applicable_units = []}
            ktdf.stage depends_in(%3) depends_out(%4) {
              %14 = ktdf.read_from_fifo %0 : !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
              %15 = ktdf.read_from_fifo %1 : !ktdf.fifo.slot<"DDR" -> "sfu", 1x64xf16> -> tensor<1x64xf16>
              %16 = tensor.empty() : tensor<1x64xf16>
              %17 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%14, %15 : tensor<1x64xf16>, tensor<1x64xf16>) outs(%16 : tensor<1x64xf16>) {
              ^bb0(%18: f16, %19: f16, %20: f16):
                %21 = arith.addf %18, %19 : f16
                %22 = arith.mulf %21, %18 : f16
                linalg.yield %22 : f16
              } -> tensor<1x64xf16>
              ktdf.write_to_fifo %17, %2 : tensor<1x64xf16>, !ktdf.fifo.slot<"sfu" -> "DDR", 1x64xf16>
            } {applicable_units = ["sfu"]}
            ktdf.stage depends_in(%4) depends_out(none) {
              %23 = arith.addi %row, %i0 : index
              %24 = arith.addi %c0, %i1 : index
              ktdf.data_transfer from %2 size [1, %vec] to %Cv[%23, %24] size [1, %vec] : !ktdf.fifo.slot<"sfu" -> "DDR", 1x64xf16>, memref<4x96xf16>
            } {applicable_units = []}
          }
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
