// PASS: fold-scalar-casts
// A narrowing index_cast keeps the low bits, read signed: 383 as i1 is its low bit 1,
// which is -1 signed, so sitofp gives -1.0 (and 128 as i8 wraps to -128).
// CHECK: %a_f = arith.constant -1.000000e+00 : f16
// CHECK: %b_f = arith.constant -1.280000e+02 : f16
// CHECK-NOT: arith.sitofp
#row = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @narrow(%Y: index) attributes {grid = [2]} {
    %a = arith.constant 383 : index
    %b = arith.constant 128 : index
    %t = ktdp.get_compute_tile_id : index
    %a_i = arith.index_cast %a : index to i1
    %a_f = arith.sitofp %a_i : i1 to f16
    %b_i = arith.index_cast %b : index to i8
    %b_f = arith.sitofp %b_i : i8 to f16
    %s = arith.addf %a_f, %b_f : f16
    %Yv = ktdp.construct_memory_view %Y, sizes: [2], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
    %Yt = ktdp.construct_access_tile %Yv[%t] {access_tile_set = #row, access_tile_order = #id1} : memref<2xf16> -> !ktdp.access_tile<1xindex>
    %e = tensor.empty() : tensor<1xf16>
    %y = linalg.fill ins(%s : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
    ktdp.store %y, %Yt : tensor<1xf16>, !ktdp.access_tile<1xindex>
    func.return
  }
}
