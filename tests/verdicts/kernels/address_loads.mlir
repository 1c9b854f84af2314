// A 64x128 f16 tensor read through views at hard-coded addresses, no pointer argument:
// rows 0..31 in device memory at element 0, rows 32..63 in core 1's scratchpad at
// element 0. Each of 2 tiles adds each block of 32 rows to itself and stores it into Y
// (the same values: a redundant store), also at a hard-coded device-memory address
// (element 16384: byte 0x8000). The memory read is an input the run makes (`global@0x0`,
// `ct_local(core 1)@0x0`), so the comparison is on data, not on the poison both
// executors' memory starts with.
#top = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#bottom = affine_set<(d0, d1) : (d0 >= 32, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @address_loads() attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %ybase = arith.constant 16384 : index
  %Xg = ktdp.construct_memory_view %c0, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = #top, memory_space = #ktdp.memory_space<global>} : memref<32x128xf16>
  %Xl = ktdp.construct_memory_view %c0, sizes: [32, 128], strides: [128, 1] {
      coordinate_set = #bottom, memory_space = #ktdp.memory_space<ct_local, ct_id = 1>} : memref<32x128xf16>
  %X = ktdp.construct_distributed_memory_view (%Xg, %Xl : memref<32x128xf16>, memref<32x128xf16>) : memref<64x128xf16>
  %Yv = ktdp.construct_memory_view %ybase, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  scf.for %row = %c0 to %c64 step %c32 {
  %Xt = ktdp.construct_access_tile %X[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2}
      : memref<64x128xf16> -> !ktdp.access_tile<32x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<32x128xindex> -> tensor<32x128xf16>
  %y = arith.addf %x, %x : tensor<32x128xf16>
  ktdp.store %y, %Yt : tensor<32x128xf16>, !ktdp.access_tile<32x128xindex>
  }
  return
}
