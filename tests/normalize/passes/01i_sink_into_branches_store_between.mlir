// PASS: sink-into-branches
// A store between the load and the scf.if may write what was loaded: nothing moves.
// CHECK: %x = ktdp.load %Xt
// CHECK: %y = linalg.generic
// CHECK: ktdp.store %x, %Zt
// CHECK: scf.if %first_half {
// CHECK-NEXT: ktdp.store %y, %Yt
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @guarded(%X: index, %Y: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [16, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [16, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Zt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<16x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %e = tensor.empty() : tensor<2x64xf16>
    %y = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x64xf16>) outs(%e : tensor<2x64xf16>) {
    ^bb0(%a: f16, %o: f16):
      %s = arith.addf %a, %a : f16
      linalg.yield %s : f16
    } -> tensor<2x64xf16>
    ktdp.store %x, %Zt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    %first_half = arith.cmpi ult, %t, %c4 : index
    scf.if %first_half {
      ktdp.store %y, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
    }
    func.return
  }
}
