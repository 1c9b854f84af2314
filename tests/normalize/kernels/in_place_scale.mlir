// X = 2 * X + 1 in place: 2 compute tiles of 4 rows each load their tile of X and store
// the result back to the same elements. The store writes what the load read, in a later
// stage of the same pipeline: each tile of the schedule's loop reads and writes its own
// box, so ordering the read before the write in every iteration is enough.
#rows4 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @in_place_scale(%X: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f16
  %one = arith.constant 1.0 : f16
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 256], strides: [256, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<8x256xf16>
  %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {access_tile_set = #rows4, access_tile_order = #id2}
      : memref<8x256xf16> -> !ktdp.access_tile<4x256xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x256xindex> -> tensor<4x256xf16>
  %twos = tensor.splat %two : tensor<4x256xf16>
  %ones = tensor.splat %one : tensor<4x256xf16>
  %d = arith.mulf %x, %twos : tensor<4x256xf16>
  %y = arith.addf %d, %ones : tensor<4x256xf16>
  ktdp.store %y, %Xt : tensor<4x256xf16>, !ktdp.access_tile<4x256xindex>
  return
}
