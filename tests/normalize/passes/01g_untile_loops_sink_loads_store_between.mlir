// PASS: untile-loops
// ERROR: not supported yet: a loop that threads tensors across its boundary and cannot be folded: its iterations' access tiles overlap or leave gaps
// As 01g_untile_loops_sink_loads_store_elsewhere, but the store between the loads and the
// loop writes into sin, which the loads read: loading it again would read the store.
#half = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
func.func @rotate_over_sin(%X: index, %Cos: index, %Sin: index, %Y: index, %M: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %t = ktdp.get_compute_tile_id : index
  %pos = arith.muli %t, %c4 : index
  %xv = ktdp.construct_memory_view %X, sizes: [16, 128], strides: [128, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [16, 128], strides: [128, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 127 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<16x128xf16>
  %cv = ktdp.construct_memory_view %Cos, sizes: [8, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %sv = ktdp.construct_memory_view %Sin, sizes: [8, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %ct = ktdp.construct_access_tile %cv[%pos, %c0] {access_tile_set = #half, access_tile_order = #id2}
    : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %st = ktdp.construct_access_tile %sv[%pos, %c0] {access_tile_set = #half, access_tile_order = #id2}
    : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %cos = ktdp.load %ct : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %sin = ktdp.load %st : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %mv = ktdp.construct_memory_view %M, sizes: [8, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %mt = ktdp.construct_access_tile %mv[%pos, %c0] {access_tile_set = #half, access_tile_order = #id2}
    : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  ktdp.store %cos, %st : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  scf.for %h = %c0 to %c2 step %c1 {
    %base = arith.muli %h, %c8 : index
    %row = arith.addi %base, %pos : index
    %at = ktdp.construct_access_tile %xv[%row, %c0] {access_tile_set = #half, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<4x64xindex>
    %bt = ktdp.construct_access_tile %xv[%row, %c64] {access_tile_set = #half, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<4x64xindex>
    %a = ktdp.load %at : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    %b = ktdp.load %bt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    %ac = arith.mulf %a, %cos : tensor<4x64xf16>
    %bs = arith.mulf %b, %sin : tensor<4x64xf16>
    %first = arith.subf %ac, %bs : tensor<4x64xf16>
    %as = arith.mulf %a, %sin : tensor<4x64xf16>
    %bc = arith.mulf %b, %cos : tensor<4x64xf16>
    %second = arith.addf %as, %bc : tensor<4x64xf16>
    %ft = ktdp.construct_access_tile %yv[%row, %c0] {access_tile_set = #half, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<4x64xindex>
    %gt = ktdp.construct_access_tile %yv[%row, %c64] {access_tile_set = #half, access_tile_order = #id2}
      : memref<16x128xf16> -> !ktdp.access_tile<4x64xindex>
    ktdp.store %first, %ft : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
    ktdp.store %second, %gt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  }
  return
}
}
