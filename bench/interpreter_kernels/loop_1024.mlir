// A 1024-iteration scf.for whose body is 5 ops (two access tiles, a load, an add, a store):
// row i of Y = X[i] + X[i]. Measures the interpreter's per-op overhead inside loops.
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1023 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rm = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 1024 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [1024, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<1024x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [1024, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global> } : memref<1024x64xf16>
  %e = tensor.empty() : tensor<1x64xf16>
  scf.for %i = %c0 to %n step %c1 {
    %Xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_set = #row, access_tile_order = #rm}
        : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %y = linalg.add ins(%x, %x : tensor<1x64xf16>, tensor<1x64xf16>) outs(%e : tensor<1x64xf16>) -> tensor<1x64xf16>
    %Yt = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_set = #row, access_tile_order = #rm}
        : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %y, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
