// A distributed view whose parts are memref arguments (upstream allows any memrefs): it
// parses and verifies; an access through it is unsupported, reported at the access.
func.func @dv(%a: memref<4xf16>, %b: memref<4xf16>, %O: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %d = ktdp.construct_distributed_memory_view (%a, %b : memref<4xf16>, memref<4xf16>) : memref<8xf16>
  %t = ktdp.construct_access_tile %d[%c0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<8xf16> -> !ktdp.access_tile<8xindex>
  %x = ktdp.load %t : <8xindex> -> tensor<8xf16>
  return
}
