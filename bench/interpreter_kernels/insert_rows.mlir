// Builds a 1024x64 tensor row by row with tensor.insert_slice in a loop carrying it, then
// stores it: each insert should cost a row, not a copy of the whole tensor.
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
  %init = tensor.empty() : tensor<1024x64xf16>
  %full = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<1024x64xf16>) {
    %Xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_set = #row, access_tile_order = #rm}
        : memref<1024x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %next = tensor.insert_slice %x into %acc[%i, 0] [1, 64] [1, 1] : tensor<1x64xf16> into tensor<1024x64xf16>
    scf.yield %next : tensor<1024x64xf16>
  }
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #all, access_tile_order = #rm}
      : memref<1024x64xf16> -> !ktdp.access_tile<1024x64xindex>
  ktdp.store %full, %Yt : tensor<1024x64xf16>, !ktdp.access_tile<1024x64xindex>
  return
}
