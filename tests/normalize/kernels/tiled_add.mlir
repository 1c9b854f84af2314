// C = A + B on 8x512 f16, 4 compute tiles of 2 rows; each tile walks its 2x512 slab in
// blocks of 2x128 with an `scf.for`, adding with `arith.addf` on tensors.
#block = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @tiled_add(%A: index, %B: index, %C: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Av = ktdp.construct_memory_view %A, sizes: [8, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [8, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [8, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x512xf16>
  scf.for %col = %c0 to %c512 step %c128 {
    %At = ktdp.construct_access_tile %Av[%row, %col] {access_tile_set = #block, access_tile_order = #id2}
        : memref<8x512xf16> -> !ktdp.access_tile<2x128xindex>
    %Bt = ktdp.construct_access_tile %Bv[%row, %col] {access_tile_set = #block, access_tile_order = #id2}
        : memref<8x512xf16> -> !ktdp.access_tile<2x128xindex>
    %Ct = ktdp.construct_access_tile %Cv[%row, %col] {access_tile_set = #block, access_tile_order = #id2}
        : memref<8x512xf16> -> !ktdp.access_tile<2x128xindex>
    %a = ktdp.load %At : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
    %c = arith.addf %a, %b : tensor<2x128xf16>
    ktdp.store %c, %Ct : tensor<2x128xf16>, !ktdp.access_tile<2x128xindex>
  }
  return
}
