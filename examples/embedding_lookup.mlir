// Embedding lookup: Y[t, :] = E[Ids[t], :] for 64 tokens over a 256-row table of 64-wide
// f16 embeddings, split over 32 compute tiles: tile k looks up tokens 2k and 2k+1. The
// rows are gathered through an indirect access tile whose first coordinate comes from
// the i32 index tensor Ids; a token id outside [0, 255] is an error at run time.
#table = affine_set<(d0, d1) : (d0 >= 0, -d0 + 255 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#ids = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#two_rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>

func.func @embedding_lookup(%E: index, %Ids: index, %Y: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %id = ktdp.get_compute_tile_id : index
  %t0 = arith.muli %id, %c2 : index
  %Ev = ktdp.construct_memory_view %E, sizes: [256, 64], strides: [64, 1] {
      coordinate_set = #table, memory_space = #ktdp.memory_space<global> } : memref<256x64xf16>
  %Iv = ktdp.construct_memory_view %Ids, sizes: [64], strides: [1] {
      coordinate_set = #ids, memory_space = #ktdp.memory_space<global> } : memref<64xi32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global> } : memref<64x64xf16>
  %rows = ktdp.construct_indirect_access_tile intermediate_variables(%t, %d)
      %Ev[ind(%Iv[%t0 + %t]), (%d)] {
      variables_space_set = #two_rows, variables_space_order = #rowmajor }
      : memref<256x64xf16>, memref<64xi32> -> !ktdp.access_tile<2x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%t0, %c0] {
      access_tile_set = #two_rows, access_tile_order = #rowmajor } : memref<64x64xf16> -> !ktdp.access_tile<2x64xindex>
  %x = ktdp.load %rows : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
  ktdp.store %x, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  return
}
