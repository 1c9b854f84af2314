// Y = X * 2 on 32x64 f16 over 4 tiles, each walking its 8 rows two at a time with
// counters in i32 (Triton's spelling: the tile id cast to i32, an i32 loop, i32
// arithmetic, the row cast back to index for the access): scalars are the same numbers
// in any integer type, so the lowering reads i32 arithmetic as it reads index
// arithmetic, and a program the orchestrator passes an i32 counter casts it once.
#pair = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @i32_counters(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c2_i32 = arith.constant 2 : i32
  %c4_i32 = arith.constant 4 : i32
  %c8_i32 = arith.constant 8 : i32
  %two = arith.constant dense<2.0> : tensor<2x64xf16>
  %t = ktdp.get_compute_tile_id : index
  %t32 = arith.index_cast %t : index to i32
  %first = arith.muli %t32, %c8_i32 : i32
  %Xv = ktdp.construct_memory_view %X, sizes: [32, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  scf.for %i = %c0_i32 to %c4_i32 step %c1_i32 : i32 {
    %step = arith.muli %i, %c2_i32 : i32
    %row32 = arith.addi %first, %step : i32
    %row = arith.index_cast %row32 : i32 to index
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #pair, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<2x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {access_tile_set = #pair, access_tile_order = #id2} : memref<32x64xf16> -> !ktdp.access_tile<2x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x64xindex> -> tensor<2x64xf16>
    %y = arith.mulf %x, %two : tensor<2x64xf16>
    ktdp.store %y, %Yt : tensor<2x64xf16>, !ktdp.access_tile<2x64xindex>
  }
  return
}
