// PASS: fold-scalar-casts
// A size turned into a float by casts (index -> i32 -> f16) is a constant once the size
// is: the chain becomes that constant. A cast of a value that is not a constant (the
// tile id) stays.
// CHECK: %n_f = arith.constant 3.840000e+02 : f16
// CHECK-NOT: arith.sitofp
// CHECK: %t_i = arith.index_cast %t : index to i32
// CHECK: linalg.fill ins(%n_f : f16)
#row = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @size_as_float(%Y: index, %T: index) attributes {grid = [2]} {
    %n = arith.constant 384 : index
    %t = ktdp.get_compute_tile_id : index
    %n_i = arith.index_cast %n : index to i32
    %n_f = arith.sitofp %n_i : i32 to f16
    %t_i = arith.index_cast %t : index to i32
    %Yv = ktdp.construct_memory_view %Y, sizes: [2], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2xf16>
    %Tv = ktdp.construct_memory_view %T, sizes: [2], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2xi32>
    %Yt = ktdp.construct_access_tile %Yv[%t] {access_tile_set = #row, access_tile_order = #id1} : memref<2xf16> -> !ktdp.access_tile<1xindex>
    %Tt = ktdp.construct_access_tile %Tv[%t] {access_tile_set = #row, access_tile_order = #id1} : memref<2xi32> -> !ktdp.access_tile<1xindex>
    %e = tensor.empty() : tensor<1xf16>
    %y = linalg.fill ins(%n_f : f16) outs(%e : tensor<1xf16>) -> tensor<1xf16>
    %ei = tensor.empty() : tensor<1xi32>
    %ti = linalg.fill ins(%t_i : i32) outs(%ei : tensor<1xi32>) -> tensor<1xi32>
    ktdp.store %y, %Yt : tensor<1xf16>, !ktdp.access_tile<1xindex>
    ktdp.store %ti, %Tt : tensor<1xi32>, !ktdp.access_tile<1xindex>
    func.return
  }
}
