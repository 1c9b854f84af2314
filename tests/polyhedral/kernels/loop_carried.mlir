// Row i+1 of T is computed from row i, in a loop: the store of iteration i is read by the
// load of iteration i+1 (a loop-carried dependence, the store textually after the load).
// U is read and written in the same row each iteration: no dependence between iterations.
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @carried(%T: index, %U: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %Tv = ktdp.construct_memory_view %T, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<8x64xf16>
  %Uv = ktdp.construct_memory_view %U, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<8x64xf16>
  scf.for %i = %c0 to %c7 step %c1 {
    %Ti = ktdp.construct_access_tile %Tv[%i, %c0] {access_tile_set = #row, access_tile_order = #rm}
        : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %Tn = ktdp.construct_access_tile %Tv[%i + 1, %c0] {access_tile_set = #row, access_tile_order = #rm}
        : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %Ui = ktdp.construct_access_tile %Uv[%i, %c0] {access_tile_set = #row, access_tile_order = #rm}
        : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
    %t = ktdp.load %Ti : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %u = ktdp.load %Ui : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    ktdp.store %t, %Tn : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    ktdp.store %u, %Ui : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
