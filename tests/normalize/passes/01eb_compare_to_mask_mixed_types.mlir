// PASS: compare-to-mask
// f16 scores chosen by a comparison of f32 positions (a causal mask once
// body-index-to-float has made its index arithmetic f32): the mask is made in the
// compared type and truncated to the chosen type (1.0 and 0.0 are exact in both).
// CHECK: %[[M:.*]] = spyreop.compare <lesserequal> %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: %[[M16:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK-NEXT: %r = spyreop.select %[[M16]], %v, %ninf : f16
// CHECK-NEXT: linalg.yield %r : f16
// CHECK-NOT: arith.cmpf
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @causal_mask_positions(%S: index, %Y: index) attributes {grid = [4 : i64]} {
    %pid = ktdp.get_compute_tile_id : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %context = arith.constant 40 : index
    %ninf = arith.constant 0xfc00 : f16
    %row0 = arith.muli %pid, %c8 : index
    %qbase = arith.muli %pid, %c2 : index
    %Sv = ktdp.construct_memory_view %S, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 31) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
    scf.for %j = %c0 to %c2 step %c1 {
      %col0 = arith.muli %j, %c32 : index
      %St = ktdp.construct_access_tile %Sv[%row0, %col0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<32x64xf16> -> !ktdp.access_tile<8x32xindex>
      %Yt = ktdp.construct_access_tile %Yv[%row0, %col0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 7) >= 0, d1 >= 0, ((d1 * -1) + 31) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<32x64xf16> -> !ktdp.access_tile<8x32xindex>
      %s = ktdp.load %St : <8x32xindex> -> tensor<8x32xf16>
      %empty = tensor.empty() : tensor<8x32xf16>
      %j_x32 = arith.muli %j, %c32 : index
      %masked = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x32xf16>) outs(%empty : tensor<8x32xf16>) {
      ^bb0(%v: f16, %out: f16):
        %0 = arith.index_cast %j_x32 : index to i64
        %1 = arith.uitofp %0 : i64 to f32
        %2 = arith.constant 4.000000e+01 : f32
        %3 = arith.index_cast %qbase : index to i64
        %4 = arith.uitofp %3 : i64 to f32
        %5 = arith.constant 4.000000e+00 : f32
        %row = linalg.index 0 : index
        %6 = arith.index_cast %row : index to i64
        %7 = arith.uitofp %6 : i64 to f32
        %col = linalg.index 1 : index
        %8 = arith.index_cast %col : index to i64
        %9 = arith.uitofp %8 : i64 to f32
        %10 = arith.divf %7, %5 : f32
        %11 = math.floor %10 : f32
        %12 = arith.addf %4, %11 : f32
        %13 = arith.addf %2, %12 : f32
        %14 = arith.addf %1, %9 : f32
        %visible = arith.cmpf ole, %14, %13 : f32
        %r = arith.select %visible, %v, %ninf : f16
        linalg.yield %r : f16
      } -> tensor<8x32xf16>
      ktdp.store %masked, %Yt : tensor<8x32xf16>, <8x32xindex>
    }
    func.return
  }
}
