// PASS: indirect-addresses
// A gather copied into a pinned scratchpad slot (a copy program: the gathered pages of
// paged attention's keys, which a matmul then reads as rows) has no data buffer to tile
// its addresses like: the address buffer joins the copy's pipeline, tiled by the
// transfer's own box (each dim's tile extent decision), and the index fetch precedes
// the gather in its DMA stage.
// CHECK: %[[ADDR:.*]] = ktdf.private -> (memref<1x?xi32, "LX">) {
// CHECK-NEXT: ktdf.buffer {role = "addresses", operand = "Iv_addresses", access_map = affine_map<(d0, d1, d2) -> (0, d0)>, tile_dims = ["p0.tile.lx.d0", "p0.tile.lx.d1", "p0.tile.lx.d2"]} : memref<1x?xi32, "LX">
// CHECK: ktdf.data_transfer from %Iv[%{{.*}}, %[[PAGE:.*]]] size [1, %n0] to %[[ADDR]][0, 0] size [1, %n0] {ktdf.addresses_for = "source:0"}
// CHECK-NEXT: ktdf.data_transfer from %Kv_gathered[%[[PAGE]], %{{.*}}, %{{.*}}] size [%n0, %n1, %n2] to %slot
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @paged_scores(%Q: index, %Kc: index, %Idx: index, %S: index) attributes {grid = [2 : i64]} {
    func.call @local_schedule_0(%Q, %Kc, %Idx, %S) : (index, index, index, index) -> ()
    func.return
  }
  func.func private @local_schedule_0(index, index, index, index) -> ()
  builtin.module @program_0 {
    func.func @local_schedule_0(%Q: index, %Kc: index, %Idx: index, %S: index) attributes {grid = [2 : i64], ktdf.pinned_bytes = 32640 : i64} {
      %0 = arith.constant 0 : index
      %1 = arith.constant 0 : index
      %slot = ktdp.construct_memory_view %1, sizes: [4, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<4x32x64xf16>
      %b = ktdp.get_compute_tile_id : index
      %Iv = ktdp.construct_memory_view %Idx, sizes: [2, 4], strides: [4, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 3) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<2x4xi32>
      %Kv = ktdp.construct_memory_view %Kc, sizes: [12, 32, 64], strides: [2048, 64, 1] {coordinate_set = affine_set<(d0, d1, d2) : (d0 >= 0, ((d0 * -1) + 11) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0, d2 >= 0, ((d2 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<12x32x64xf16>
      %2 = arith.constant 0 : index
      %3 = arith.constant 0 : index
      %4 = arith.constant 0 : index
      %Kv_gathered = ktdf.gather_view %Kv indices(%Iv) outer(%b) {ind_dims = array<i64: 0, -1, -1>, dim_map = affine_map<(d0, d1, d2)[s0] -> (0, d1, d2)>, index_maps = [affine_map<(d0, d1, d2)[s0] -> (s0, d0)>], lows = array<i64: 0, 0, 0>, extents = array<i64: 4, 32, 64>} : memref<12x32x64xf16>, (memref<2x4xi32>) -> memref<4x32x64xf16>
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c0 = arith.constant 0 : index
      %T0 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 4 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T1 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d1", extent = 32 : i64, min_value = 1 : i64, divisibility = 1 : i64} : index
      %T2 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d2", extent = 64 : i64, min_value = 64 : i64, divisibility = 64 : i64} : index
      scf.for %t0 = %c0 to %c4 step %T0 {
        %n0 = ktdf.tiling.derive_size %t0, %T0, %c4 : index
        scf.for %t1 = %c0 to %c32 step %T1 {
          %n1 = ktdf.tiling.derive_size %t1, %T1, %c32 : index
          scf.for %t2 = %c0 to %c64 step %T2 {
            %n2 = ktdf.tiling.derive_size %t2, %T2, %c64 : index
            ktdf.pipeline attributes {ktdf.copy = "p0"} {
              ktdf.private -> () {
                ktdf.private_yield
              }
              ktdf.stage depends_in(none) depends_out(none) {
                %5 = arith.addi %2, %t0 : index
                %6 = arith.addi %3, %t1 : index
                %7 = arith.addi %4, %t2 : index
                %8 = arith.addi %0, %t0 : index
                %9 = arith.addi %0, %t1 : index
                %10 = arith.addi %0, %t2 : index
                ktdf.data_transfer from %Kv_gathered[%5, %6, %7] size [%n0, %n1, %n2] to %slot[%8, %9, %10] size [%n0, %n1, %n2] : memref<4x32x64xf16>, memref<4x32x64xf16>
              } {applicable_units = ["dma"]}
            }
          } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 2 : i64}
        } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 1 : i64}
      } {loop_type = #ktdf.loop_type<parallel_loop>, ktdf.dim = 0 : i64}
      func.return
    }
  }
}
