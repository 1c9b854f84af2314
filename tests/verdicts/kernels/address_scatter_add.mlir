// An indexed add whose index tensor lies at a hard-coded device-memory address (element
// 0: 64 i32 indices into Y's 128 rows), Y and U pointer arguments: each of 32 tiles
// gathers its two rows of Y by index, adds its two rows of U, and scatters them back.
// The indices are an input the run makes (`global@0x0`), distinct as a scatter needs.
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#u = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#idx = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#two_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

func.func @address_scatter_add(%Y: index, %U: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %r0 = arith.muli %id, %c2 : index
  %Yv = ktdp.construct_memory_view %Y, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = #y, memory_space = #ktdp.memory_space<global> } : memref<128x64xf16>
  %Iv = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {
      coordinate_set = #idx, memory_space = #ktdp.memory_space<global> } : memref<64xi32>
  %Uv = ktdp.construct_memory_view %U, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #u, memory_space = #ktdp.memory_space<global> } : memref<64x64xf16>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%i, %d)
      %Yv[ind(%Iv[%r0 + %i]), (%d)] {
      variables_space_set = #two_rows, variables_space_order = #rowmajor }
      : memref<128x64xf16>, memref<64xi32> -> !ktdp.access_tile<2x64xindex>
  %Ut = ktdp.construct_access_tile %Uv[%r0, %c0] {
      access_tile_set = #two_rows, access_tile_order = #rowmajor } : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
  %y = ktdp.load %rows : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %u = ktdp.load %Ut : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  %e = tensor.empty() : tensor<2x64xf16>
  %s = linalg.add ins(%y, %u : tensor<2x64xf16>, tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) -> tensor<2x64xf16>
  ktdp.store %s, %rows : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
