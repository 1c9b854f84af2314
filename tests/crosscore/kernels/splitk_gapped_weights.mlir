// C = sum over the 4 K slices s of A[:, 64s .. 64s+63] @ B[128s .. 128s+63, :]: the quick
// split-K matmul (bench/kernels/quick/splitk_matmul.mlir) with B 512 rows, of which K slice
// s reads the 64 rows at 128s: the 8 tiles of a slice read one box, the four boxes with gaps
// between them, so their union is not one box (each group gathers its own).
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#mA = affine_map<(m, n, k) -> (m, k)>
#mB = affine_map<(m, n, k) -> (k, n)>
#mC = affine_map<(m, n, k) -> (m, n)>
// group g: the 4 shards of row block g, tile ids 4g..4g+3
#shards = affine_set<(i)[g] : (i - 4 * g >= 0, -i + 4 * g + 3 >= 0)>
#blocks = affine_set<(g) : (g >= 0, -g + 7 >= 0)>

func.func @splitk_matmul(%A: index, %B: index, %C: index) attributes {grid = [4, 8]} {
  %c0 = arith.constant 0 : index
  %crows = arith.constant 8 : index
  %cwidth = arith.constant 64 : index
  %shard, %block = ktdp.get_compute_tile_id : index, index
  %row = arith.muli %block, %crows : index
  %col = arith.muli %shard, %cwidth : index
  %cgap = arith.constant 128 : index
  %bcol = arith.muli %shard, %cgap : index
  %zero = arith.constant 0.0 : f32
  %Av = ktdp.construct_memory_view %A, sizes: [64, 256], strides: [256, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 255 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x256xf16>
  %At = ktdp.construct_access_tile %Av[%row, %col] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id2}
      : memref<64x256xf16> -> !ktdp.access_tile<8x64xindex>
  %Bv = ktdp.construct_memory_view %B, sizes: [512, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<512x64xf16>
  %Bt = ktdp.construct_access_tile %Bv[%bcol, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id2}
      : memref<512x64xf16> -> !ktdp.access_tile<64x64xindex>
  %Cv = ktdp.construct_memory_view %C, sizes: [64, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<64x64xf16>
  %Ct = ktdp.construct_access_tile %Cv[%row, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id2}
      : memref<64x64xf16> -> !ktdp.access_tile<8x64xindex>
  %a = ktdp.load %At : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<64x64xindex> -> tensor<64x64xf16>
  %part_acc0 = tensor.empty() : tensor<8x64xf32>
  %part_acc = linalg.fill ins(%zero : f32) outs(%part_acc0 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %part = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x64xf16>, tensor<64x64xf16>) outs(%part_acc : tensor<8x64xf32>) {
  ^bb0(%ae: f16, %be: f16, %acc: f32):
    %af = arith.extf %ae : f16 to f32
    %bf = arith.extf %be : f16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x64xf32>
  %sum_f = ktdp.inter_tile_produce producer_tiles_per_group = #shards
      : tensor<8x64xf32> -> !ktdp.tile_future<tensor<8x64xf32>, groups = #blocks> {
    ^bb0(%gid: index):
      ktdp.yield_partial %part : tensor<8x64xf32>
  }
  %sum_i0 = tensor.empty() : tensor<8x64xf32>
  %sum_id = linalg.fill ins(%zero : f32) outs(%sum_i0 : tensor<8x64xf32>) -> tensor<8x64xf32>
  %sum = ktdp.inter_tile_reduce(%sum_f) consumer_tiles_per_group = #shards, identity(%sum_id : tensor<8x64xf32>)
      : !ktdp.tile_future<tensor<8x64xf32>, groups = #blocks> -> tensor<8x64xf32> {
    ^bb0(%l: tensor<8x64xf32>, %r: tensor<8x64xf32>):
      %s0 = tensor.empty() : tensor<8x64xf32>
      %s = linalg.add ins(%l, %r : tensor<8x64xf32>, tensor<8x64xf32>) outs(%s0 : tensor<8x64xf32>) -> tensor<8x64xf32>
      ktdp.yield_reduced %s : tensor<8x64xf32>
  }
  %h0 = tensor.empty() : tensor<8x64xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<8x64xf32>) outs(%h0 : tensor<8x64xf16>) {
  ^bb0(%se: f32, %o: f16):
    %rr = arith.truncf %se : f32 to f16
    linalg.yield %rr : f16
  } -> tensor<8x64xf16>
  %first = arith.cmpi eq, %shard, %c0 : index
  scf.if %first {
    ktdp.store %h, %Ct : tensor<8x64xf16>, !ktdp.access_tile<8x64xindex>
  }
  return
}
