// Two views of one buffer %P that overlap as wholes (rows 0..95 of 64 from element 0,
// and from element 4096), while the tiles the kernel moves do not: it reads the first
// 3 rows of the first view and writes them, plus one, to the first 3 rows of the second
// (elements 4096..4287), twice, from a loop. Whether the store and the loads must be
// ordered is decided on the elements they touch, not on the views' extents.
#rows3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @overlapping_views(%P: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4096 = arith.constant 4096 : index
  %one = arith.constant 1.0 : f16
  %Q = arith.addi %P, %c4096 : index
  %In = ktdp.construct_memory_view %P, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %Out = ktdp.construct_memory_view %Q, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %It = ktdp.construct_access_tile %In[%c0, %c0] {access_tile_set = #rows3, access_tile_order = #id2}
      : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  %Ot = ktdp.construct_access_tile %Out[%c0, %c0] {access_tile_set = #rows3, access_tile_order = #id2}
      : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
  scf.for %i = %c0 to %c2 step %c1 {
    %x = ktdp.load %It : !ktdp.access_tile<3x64xindex> -> tensor<3x64xf16>
    %ones = tensor.splat %one : tensor<3x64xf16>
    %y = arith.addf %x, %ones : tensor<3x64xf16>
    ktdp.store %y, %Ot : tensor<3x64xf16>, !ktdp.access_tile<3x64xindex>
  }
  return
}
