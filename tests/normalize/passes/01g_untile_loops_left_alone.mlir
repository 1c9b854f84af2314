// PASS: untile-loops
// A loop whose body is a whole load -> compute -> store chain but updates its rows in
// place (it stores into the buffer it loads) is not provably foldable: folding would
// load every row before any store. Each iteration is a whole chain, so the loop stays,
// for the orchestrator to call the program once per row, in order.
// CHECK: scf.for %k = %c0 to %c4 step %c1 {
// CHECK-NEXT: %b = ktdp.load %Bt
// CHECK-NEXT: %row = arith.addi %row0, %k : index
// CHECK: ktdp.load %Xt : <1x64xindex> -> tensor<1x64xf16>
// CHECK: ktdp.store %y, %Xt : tensor<1x64xf16>, <1x64xindex>
#row1 = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#vec = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#colmap = affine_map<(d0, d1) -> (d1)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @rows_bias(%X: index, %B: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = ktdp.get_compute_tile_id : index
    %row0 = arith.muli %t, %c4 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Bv = ktdp.construct_memory_view %B, sizes: [64], strides: [1] {coordinate_set = #vec, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Bt = ktdp.construct_access_tile %Bv[%c0] {access_tile_set = #vec, access_tile_order = #id1} : memref<64xf16> -> !ktdp.access_tile<64xindex>
    scf.for %k = %c0 to %c4 step %c1 {
      %b = ktdp.load %Bt : !ktdp.access_tile<64xindex> -> tensor<64xf16>
      %row = arith.addi %row0, %k : index
      %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #row1, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
      %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #row1, access_tile_order = #id2} : memref<8x64xf16> -> !ktdp.access_tile<1x64xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
      %e = tensor.empty() : tensor<1x64xf16>
      %y = linalg.generic {indexing_maps = [#id2, #colmap, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%x, %b : tensor<1x64xf16>, tensor<64xf16>) outs(%e : tensor<1x64xf16>) {
      ^bb0(%xe: f16, %be: f16, %o: f16):
        %s = arith.addf %xe, %be : f16
        linalg.yield %s : f16
      } -> tensor<1x64xf16>
      ktdp.store %y, %Xt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
    }
    func.return
  }
}
