// In place, X[t] = X[t + 1] over 4 tiles: tile t loads row t + 1, then stores row t. Tile
// t + 1 stores row t + 1 after its own load, with nothing ordering that store against
// tile t's load of it: a read/write race between tiles (no loop around either access).
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 4 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @shift(%X: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = ktdp.get_compute_tile_id : index
  %next = arith.addi %t, %c1 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [5, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<5x64xf16>
  %Xn = ktdp.construct_access_tile %Xv[%next, %c0] {access_tile_set = #row, access_tile_order = #rm}
      : memref<5x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Xt = ktdp.construct_access_tile %Xv[%t, %c0] {access_tile_set = #row, access_tile_order = #rm}
      : memref<5x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %Xn : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %Xt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
