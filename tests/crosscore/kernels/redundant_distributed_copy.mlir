// Every tile copies the whole of a distributed view (rows 0..15 in device memory, rows
// 16..31 in core 1's scratchpad) into one output, scaled by 2, 16 rows at a time:
// both tiles write every element of B, the same values (nothing they compute or read
// depends on the tile), so `check` reports a redundant store, not a race, and the
// kernel compiles without --allow-races.
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 >= 16, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @redundant_copy(%A0: index, %B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %lx = arith.constant 0 : index
  %two = arith.constant 2.0 : f16
  %A0v = ktdp.construct_memory_view %A0, sizes: [16, 128], strides: [128, 1] {
      coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %A1v = ktdp.construct_memory_view %lx, sizes: [16, 128], strides: [128, 1] {
      coordinate_set = #bottom, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<16x128xf16>
  %A = ktdp.construct_distributed_memory_view (%A0v, %A1v : memref<16x128xf16>, memref<16x128xf16>) : memref<32x128xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  scf.for %row = %c0 to %c32 step %c16 {
    %At = ktdp.construct_access_tile %A[%row, %c0] {access_tile_set = #chunk, access_tile_order = #id2}
        : memref<32x128xf16> -> !ktdp.access_tile<16x128xindex>
    %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = #chunk, access_tile_order = #id2}
        : memref<32x128xf16> -> !ktdp.access_tile<16x128xindex>
    %x = ktdp.load %At : !ktdp.access_tile<16x128xindex> -> tensor<16x128xf16>
    %e = tensor.empty() : tensor<16x128xf16>
    %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%x : tensor<16x128xf16>) outs(%e : tensor<16x128xf16>) {
    ^bb0(%v: f16, %o: f16):
      %s = arith.mulf %v, %two : f16
      linalg.yield %s : f16
    } -> tensor<16x128xf16>
    ktdp.store %y, %Bt : tensor<16x128xf16>, !ktdp.access_tile<16x128xindex>
  }
  return
}
