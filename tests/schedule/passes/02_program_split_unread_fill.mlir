// PASS: program-split
// A fill nobody reads any more (stored-fill-to-generic folded its value into the body of
// its reader) shares the tensor.empty the generic takes into its program: the fill is
// dropped first, so nothing is left using a value that moved (it crashed with "Erased
// SSA value"). The scalar the body reads moves into the program with it.
// CHECK: func.func @fill_then_add(%X: index, %Y: index)
// CHECK-NEXT: func.call @local_schedule_0(%X, %Y) : (index, index) -> ()
// CHECK-NEXT: func.return
// CHECK: builtin.module @program_0 {
// CHECK: %h = arith.constant 2.500000e-01 : f16
// CHECK: %init = tensor.empty() : tensor<8x96xf16>
// CHECK-NOT: linalg.fill
// CHECK: arith.addf %{{.*}}, %h : f16
// CHECK-NOT: linalg.fill
builtin.module attributes {ktdf.device = "spyre"} {
func.func @fill_then_add(%X: index, %Y: index) attributes {grid = [8]} {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c8 : index
  %h = arith.constant 0.25 : f16
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [64, 96], strides: [96, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 95 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x96xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 95 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x96xf16> -> !ktdp.access_tile<8x96xindex>
  %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 95 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<64x96xf16> -> !ktdp.access_tile<8x96xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<8x96xindex> -> tensor<8x96xf16>
  %init = tensor.empty() : tensor<8x96xf16>
  %f = linalg.fill ins(%h : f16) outs(%init : tensor<8x96xf16>) -> tensor<8x96xf16>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<8x96xf16>) outs(%init : tensor<8x96xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %h : f16
    linalg.yield %s : f16
  } -> tensor<8x96xf16>
  ktdp.store %y, %Yt : tensor<8x96xf16>, !ktdp.access_tile<8x96xindex>
  func.return
}
}
