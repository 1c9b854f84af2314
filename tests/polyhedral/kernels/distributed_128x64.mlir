// A 128x64 tensor distributed by rows over the scratchpads of 4 tiles (32 rows each);
// tile t < 3 reads rows 16+32t .. 47+32t (tile 1: rows 48..79, half on core 1, half on
// core 2); tile 3 reads rows 96..127 (all on core 3).
#tile = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rowmajor = affine_map<(d0, d1) -> (d0, d1)>
func.func @dist(%O: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %id = ktdp.get_compute_tile_id : index
  %v0 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<ct_local, ct_id = 0> } : memref<32x64xf16>
  %v1 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<ct_local, ct_id = 1> } : memref<32x64xf16>
  %v2 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 - 64 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<ct_local, ct_id = 2> } : memref<32x64xf16>
  %v3 = ktdp.construct_memory_view %c0, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 - 96 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<ct_local, ct_id = 3> } : memref<32x64xf16>
  %X = ktdp.construct_distributed_memory_view (%v0, %v1, %v2, %v3 : memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>, memref<32x64xf16>) : memref<128x64xf16>
  %Ov = ktdp.construct_memory_view %O, sizes: [128, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 127 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<128x64xf16>
  %r = arith.muli %id, %c32 : index
  %row0 = affine.apply affine_map<(t) -> (t * 32 + 16 - (t floordiv 3) * 16)>(%id)
  %Xt = ktdp.construct_access_tile %X[%row0, %c0] {
      access_tile_set = #tile, access_tile_order = #rowmajor } : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  %Ot = ktdp.construct_access_tile %Ov[%r, %c0] {
      access_tile_set = #tile, access_tile_order = #rowmajor } : memref<128x64xf16> -> !ktdp.access_tile<32x64xindex>
  ktdp.store %x, %Ot : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
