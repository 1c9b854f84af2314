// Four tiles each hold one 1x64 f32 row per round; in each of three rounds they all-reduce
// the round's rows (`ktdp.inter_tile_reduce` inside an `scf.for`) and add the sum to an
// accumulator the loop carries in `iter_args`; tile 0 stores the total. The carried value
// is not a reduction's accumulator over the loop's blocks, so the loop runs round by
// round, the accumulator in a slot of each tile's own scratchpad.
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#all = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#one = affine_set<(g) : (g == 0)>
func.func @allreduce_rounds(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %Xv = ktdp.construct_memory_view %X, sizes: [12, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<12x64xf32>
  %Yv = ktdp.construct_memory_view %Y, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf32>
  %e = tensor.empty() : tensor<1x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64xf32>) -> tensor<1x64xf32>
  %total = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (tensor<1x64xf32>) {
    %base = arith.muli %k, %c4 : index
    %r = arith.addi %base, %t : index
    %Xt = ktdp.construct_access_tile %Xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<12x64xf32> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf32>
    %fut = ktdp.inter_tile_produce producer_tiles_per_group = #all
        : tensor<1x64xf32> -> !ktdp.tile_future<tensor<1x64xf32>, groups = #one> {
      ^bb0(%gid: index):
        ktdp.yield_partial %x : tensor<1x64xf32>
    }
    %i0 = tensor.empty() : tensor<1x64xf32>
    %id = linalg.fill ins(%zero : f32) outs(%i0 : tensor<1x64xf32>) -> tensor<1x64xf32>
    %s = ktdp.inter_tile_reduce(%fut) consumer_tiles_per_group = #all, identity(%id : tensor<1x64xf32>)
        : !ktdp.tile_future<tensor<1x64xf32>, groups = #one> -> tensor<1x64xf32> {
      ^bb0(%l: tensor<1x64xf32>, %rr: tensor<1x64xf32>):
        %s0 = tensor.empty() : tensor<1x64xf32>
        %sum = linalg.add ins(%l, %rr : tensor<1x64xf32>, tensor<1x64xf32>) outs(%s0 : tensor<1x64xf32>) -> tensor<1x64xf32>
        ktdp.yield_reduced %sum : tensor<1x64xf32>
    }
    %next = arith.addf %acc, %s : tensor<1x64xf32>
    scf.yield %next : tensor<1x64xf32>
  }
  %first = arith.cmpi eq, %t, %c0 : index
  scf.if %first {
    %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<1x64xf32> -> !ktdp.access_tile<1x64xindex>
    ktdp.store %total, %Yt : tensor<1x64xf32>, !ktdp.access_tile<1x64xindex>
  }
  return
}
