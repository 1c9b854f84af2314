// VERDICT: UNCHECKED
// A copy of device memory at a hard-coded address that an i32 view also reaches: nothing
// says which values those bytes hold, so no input is made for them and both executors
// copy the poison pattern memory starts with. Equal outputs then say nothing: the verdict
// is UNCHECKED, not MATCH (a copy the lowering forgot would read the same poison).
#s = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>
#si = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @clash() attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1024 = arith.constant 1024 : index
  %Xv = ktdp.construct_memory_view %c0, sizes: [128], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %Iv = ktdp.construct_memory_view %c0, sizes: [64], strides: [1] {coordinate_set = #si, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
  %Yv = ktdp.construct_memory_view %c1024, sizes: [128], strides: [1] {coordinate_set = #s, memory_space = #ktdp.memory_space<global>} : memref<128xf16>
  %Jv = ktdp.construct_memory_view %c1024, sizes: [64], strides: [1] {coordinate_set = #si, memory_space = #ktdp.memory_space<global>} : memref<64xi32>
  %Xt = ktdp.construct_access_tile %Xv[%c0] {access_tile_set = #s, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0] {access_tile_set = #s, access_tile_order = #id1} : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<128xindex> -> tensor<128xf16>
  ktdp.store %x, %Yt : tensor<128xf16>, !ktdp.access_tile<128xindex>
  return
}
