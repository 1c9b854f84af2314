// A += B on 4x64 f16 in place, 2 compute tiles of 2 rows, each tile walking its rows with
// a KTIR scf.for (one row per iteration). Each iteration stores into the buffer it loads,
// so folding the loop (every load before every store) is not provably exact: the loop
// stays in the orchestrator, which calls the program once per row, in order, with the
// row as an extra argument.
#row1 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @looped_add_in_place(%A: index, %B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %t = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %t, %c2 : index
  %Av = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  scf.for %k = %c0 to %c2 step %c1 {
    %row = arith.addi %row0, %k : index
    %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #row1, access_tile_order = #id2}
        : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = #row1, access_tile_order = #id2}
        : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
    %a = ktdp.load %At : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %e = tensor.empty() : tensor<1x64xf16>
    %c = linalg.add ins(%a, %b : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    ktdp.store %c, %At : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
