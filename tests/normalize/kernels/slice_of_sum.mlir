// The KTIR article's add, sliced after the compute: each of four tiles adds its 3x64
// blocks of A and B, stores the sum whole into D, adds a bias row broadcast over the
// block (`linalg.broadcast`) and stores row 1 of that (a `tensor.extract_slice` of the
// computed tile) into row t of C. The slice moves to the computes' inputs (a sub-tile
// load of A and B, the bias read whole by the broadcast over one row), the whole sum
// stays for D.
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#one = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#cs = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @slice_of_sum(%A: index, %B: index, %Bias: index, %C: index, %D: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c3 : index
  %Av = ktdp.construct_memory_view %A, sizes: [12, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [12, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
  %Cv = ktdp.construct_memory_view %C, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #cs, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Dv = ktdp.construct_memory_view %D, sizes: [12, 64], strides: [64, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<12x64xf16>
  %Biasv = ktdp.construct_memory_view %Bias, sizes: [64], strides: [1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %Biast = ktdp.construct_access_tile %Biasv[%c0] {access_tile_set = #row, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<64xindex>
  %At = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<12x64xf16> -> !ktdp.access_tile<3x64xindex>
  %Bt = ktdp.construct_access_tile %Bv[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<12x64xf16> -> !ktdp.access_tile<3x64xindex>
  %Ct = ktdp.construct_access_tile %Cv[%t, %c0] {access_tile_set = #one, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Dt = ktdp.construct_access_tile %Dv[%row, %c0] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<12x64xf16> -> !ktdp.access_tile<3x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
  %e = tensor.empty() : tensor<3x64xf16>
  %s = linalg.add ins(%a, %b : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) -> tensor<3x64xf16>
  ktdp.store %s, %Dt : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  %bias = ktdp.load %Biast : !ktdp.access_tile<64xindex> -> tensor<64xf16>
  %e1 = tensor.empty() : tensor<3x64xf16>
  %bb = linalg.broadcast ins(%bias : tensor<64xf16>) outs(%e1 : tensor<3x64xf16>) dimensions = [0]
  %e2 = tensor.empty() : tensor<3x64xf16>
  %sb = linalg.add ins(%s, %bb : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e2 : tensor<3x64xf16>) -> tensor<3x64xf16>
  %r = tensor.extract_slice %sb[1, 0] [1, 64] [1, 1] : tensor<3x64xf16> to tensor<1x64xf16>
  ktdp.store %r, %Ct : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
