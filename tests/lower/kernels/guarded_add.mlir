// C = A + B on the rows of tiles with id < 16, only when the scalar %flag is not 0; the other
// rows of C keep what they held. The condition stays in the orchestrator: the tile-id part is a
// per-core predicate, the flag part is evaluated at launch.
#rows3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>
func.func @guarded(%A: index, %B: index, %C: index, %flag: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %id = ktdp.get_compute_tile_id : index
  %row0 = arith.muli %id, %c3 : index
  %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<96x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<96x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<96x64xf16>
  %low = arith.cmpi ult, %id, %c16 : index
  %on = arith.cmpi ne, %flag, %c0 : index
  %go = arith.andi %low, %on : i1
  scf.if %go {
    %At = ktdp.construct_access_tile %Av[%row0, %c0] {
        access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%row0, %c0] {
        access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %Ct = ktdp.construct_access_tile %Cv[%row0, %c0] {
        access_tile_set = #rows3, access_tile_order = #rowmajor } : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %a = ktdp.load %At : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %b = ktdp.load %Bt : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %e = tensor.empty() : tensor<3x64xf16>
    %c = linalg.add ins(%a, %b : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) -> tensor<3x64xf16>
    ktdp.store %c, %Ct : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  }
  return
}
