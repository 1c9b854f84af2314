// PASS: intermediates-in-memory
// ERROR: no compute result that a later compute reads along its reduction can go through device memory
// examples/add_96x64.mlir in the normal form, marked: an elementwise add has no result a
// later compute reads along a reduction, so there is nothing to send through device memory
// (the scheduler then reports footprints' refusal of the kernel as written).
builtin.module attributes {ktdf.device = "spyre", ktdf.intermediates_in_memory} {
  func.func @add(%A: index, %B: index, %C: index) attributes {grid = [32 : i64]} {
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %id = ktdp.get_compute_tile_id : index
    %row0 = arith.muli %id, %c3 : index
    %Av = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
    %At = ktdp.construct_access_tile %Av[%row0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 2) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%row0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 2) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %Ct = ktdp.construct_access_tile %Cv[%row0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 2) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<96x64xf16> -> !ktdp.access_tile<3x64xindex>
    %a = ktdp.load %At : <3x64xindex> -> tensor<3x64xf16>
    %b = ktdp.load %Bt : <3x64xindex> -> tensor<3x64xf16>
    %e = tensor.empty() : tensor<3x64xf16>
    %c = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<3x64xf16>, tensor<3x64xf16>) outs(%e : tensor<3x64xf16>) {
    ^bb0(%0: f16, %1: f16, %2: f16):
      %3 = arith.addf %0, %1 : f16
      linalg.yield %3 : f16
    } -> tensor<3x64xf16>
    ktdp.store %c, %Ct : tensor<3x64xf16>, <3x64xindex>
    func.return
  }
}
