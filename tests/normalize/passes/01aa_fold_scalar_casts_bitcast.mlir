// PASS: fold-scalar-casts
// A float constant written as its bit pattern (Triton's -inf: `0xFF800000 : i32` bitcast
// to f32) is that float; 1.0 as f16 bitcast to i16 is its bits, 15360. A bitcast of a
// value that is not a constant (the tile id's cast) stays.
// CHECK: %ninf = arith.constant 0xff800000 : f32
// CHECK: %one_bits = arith.constant 15360 : i16
// CHECK: %t_f = arith.bitcast %t_i : i32 to f32
// CHECK: linalg.fill ins(%ninf : f32)
#row = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @bit_patterns(%Y: index, %T: index, %B: index) attributes {grid = [2]} {
    %ninf_i = arith.constant 0xFF800000 : i32
    %ninf = arith.bitcast %ninf_i : i32 to f32
    %one = arith.constant 1.0 : f16
    %one_bits = arith.bitcast %one : f16 to i16
    %t = ktdp.get_compute_tile_id : index
    %t_i = arith.index_cast %t : index to i32
    %t_f = arith.bitcast %t_i : i32 to f32
    %Yv = ktdp.construct_memory_view %Y, sizes: [2], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2xf32>
    %Tv = ktdp.construct_memory_view %T, sizes: [2], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2xf32>
    %Bv = ktdp.construct_memory_view %B, sizes: [2], strides: [1] {coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<2xi16>
    %Yt = ktdp.construct_access_tile %Yv[%t] {access_tile_set = #row, access_tile_order = #id1} : memref<2xf32> -> !ktdp.access_tile<1xindex>
    %Tt = ktdp.construct_access_tile %Tv[%t] {access_tile_set = #row, access_tile_order = #id1} : memref<2xf32> -> !ktdp.access_tile<1xindex>
    %Bt = ktdp.construct_access_tile %Bv[%t] {access_tile_set = #row, access_tile_order = #id1} : memref<2xi16> -> !ktdp.access_tile<1xindex>
    %e = tensor.empty() : tensor<1xf32>
    %y = linalg.fill ins(%ninf : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
    %et = tensor.empty() : tensor<1xf32>
    %tf = linalg.fill ins(%t_f : f32) outs(%et : tensor<1xf32>) -> tensor<1xf32>
    %eb = tensor.empty() : tensor<1xi16>
    %b = linalg.fill ins(%one_bits : i16) outs(%eb : tensor<1xi16>) -> tensor<1xi16>
    ktdp.store %y, %Yt : tensor<1xf32>, !ktdp.access_tile<1xindex>
    ktdp.store %tf, %Tt : tensor<1xf32>, !ktdp.access_tile<1xindex>
    ktdp.store %b, %Bt : tensor<1xi16>, !ktdp.access_tile<1xindex>
    func.return
  }
}
