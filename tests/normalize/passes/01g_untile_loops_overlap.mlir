// PASS: untile-loops
// Chunks of 128 columns that start 64 apart overlap: folding them into one sum would
// count each column once where the kernel counts some twice. The loop is run iteration
// by iteration instead, its accumulator carried in a slot of the tile's own scratchpad.
// CHECK: %slot = ktdp.construct_memory_view %{{.*}}, sizes: [2], strides: [1] {{.*}}memory_space = #ktdp.memory_space<ct_local>}
// CHECK: ktdp.store %init, %slot_t
// CHECK-NEXT: scf.for %k = %c0 to %c4 step %c1 {
// CHECK-NEXT: %acc = ktdp.load %slot_t
// CHECK: %next = linalg.generic {{.*}} ins(%x : tensor<2x128xf32>) outs(%acc : tensor<2xf32>)
// CHECK: ktdp.store %next, %slot_t
// CHECK-NEXT: }
// CHECK-NEXT: %sum = ktdp.load %slot_t
// CHECK-NEXT: ktdp.store %sum, %St
#chunk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @chunked_row_sum(%X: index, %S: index) attributes {grid = [8]} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c128 = arith.constant 128 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c2 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [16, 512], strides: [512, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<16x512xf32>
    %Sv = ktdp.construct_memory_view %S, sizes: [16], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<16xf32>
    %St = ktdp.construct_access_tile %Sv[%row] {access_tile_set = #two, access_tile_order = #id1} : memref<16xf32> -> !ktdp.access_tile<2xindex>
    %a0 = tensor.empty() : tensor<2xf32>
    %init = linalg.fill ins(%zero : f32) outs(%a0 : tensor<2xf32>) -> tensor<2xf32>
    %sum = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (tensor<2xf32>) {
      %col = arith.muli %k, %c64 : index
      %Xt = ktdp.construct_access_tile %Xv[%row, %col] {access_tile_set = #chunk, access_tile_order = #id2} : memref<16x512xf32> -> !ktdp.access_tile<2x128xindex>
      %x = ktdp.load %Xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf32>
      %next = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
          ins(%x : tensor<2x128xf32>) outs(%acc : tensor<2xf32>) {
      ^bb0(%in: f32, %a: f32):
        %s = arith.addf %in, %a : f32
        linalg.yield %s : f32
      } -> tensor<2xf32>
      scf.yield %next : tensor<2xf32>
    }
    ktdp.store %sum, %St : tensor<2xf32>, !ktdp.access_tile<2xindex>
    func.return
  }
}
