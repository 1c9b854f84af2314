// The online softmax's running state over 4 column blocks of a row tile, as a flash
// attention loop carries it: m_new = max(m, rowmax(x_k)), l = l * exp(m - m_new) +
// rowsum(exp(x_k - m_new)), starting from m = -inf (its bits, as Triton prints it). The
// rescale reads the old maximum after the new one is computed: the loop runs iteration by
// iteration with m and l in scratchpad slots, and the new maximum must not overwrite the
// old one before the rescale has read it.
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#v = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#t1 = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
#o1 = affine_map<(d0) -> (d0)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @online_softmax_sum(%X: index, %L: index) attributes {grid = [2]} {
  %pid = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %ninf_bits = arith.constant 0xFF800000 : i32
  %ninf = arith.bitcast %ninf_bits : i32 to f32
  %zero = arith.constant 0.0 : f32
  %row0 = arith.muli %pid, %c8 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 256], strides: [256, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global> } : memref<16x256xf32>
  %Lv = ktdp.construct_memory_view %L, sizes: [16], strides: [1] {
      coordinate_set = #v, memory_space = #ktdp.memory_space<global> } : memref<16xf32>
  %m0 = tensor.splat %ninf : tensor<8xf32>
  %l0 = tensor.splat %zero : tensor<8xf32>
  %m_end, %l_end = scf.for %k = %c0 to %c4 step %c1 iter_args(%m = %m0, %l = %l0)
      -> (tensor<8xf32>, tensor<8xf32>) {
    %col = arith.muli %k, %c64 : index
    %Xt = ktdp.construct_access_tile %Xv[%row0, %col] {access_tile_set = #blk, access_tile_order = #o2}
        : memref<16x256xf32> -> !ktdp.access_tile<8x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<8x64xindex> -> tensor<8x64xf32>
    %mi = tensor.splat %ninf : tensor<8xf32>
    %bm = linalg.reduce ins(%x : tensor<8x64xf32>) outs(%mi : tensor<8xf32>) dimensions = [1]
      (%a : f32, %b : f32) {
        %r = arith.maximumf %a, %b : f32
        linalg.yield %r : f32
      }
    %e1 = tensor.empty() : tensor<8xf32>
    %m_new = linalg.generic {indexing_maps = [#o1, #o1, #o1], iterator_types = ["parallel"]}
        ins(%m, %bm : tensor<8xf32>, tensor<8xf32>) outs(%e1 : tensor<8xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %r = arith.maximumf %a, %b : f32
        linalg.yield %r : f32
    } -> tensor<8xf32>
    %e2 = tensor.empty() : tensor<8x64xf32>
    %p = linalg.generic {indexing_maps = [#o2, #row, #o2], iterator_types = ["parallel", "parallel"]}
        ins(%x, %m_new : tensor<8x64xf32>, tensor<8xf32>) outs(%e2 : tensor<8x64xf32>) {
      ^bb0(%a: f32, %b: f32, %o: f32):
        %d = arith.subf %a, %b : f32
        %e = math.exp %d : f32
        linalg.yield %e : f32
    } -> tensor<8x64xf32>
    %s0 = tensor.splat %zero : tensor<8xf32>
    %s = linalg.reduce ins(%p : tensor<8x64xf32>) outs(%s0 : tensor<8xf32>) dimensions = [1]
      (%a : f32, %b : f32) {
        %r = arith.addf %a, %b : f32
        linalg.yield %r : f32
      }
    %e3 = tensor.empty() : tensor<8xf32>
    %l_new = linalg.generic {indexing_maps = [#o1, #o1, #o1, #o1, #o1], iterator_types = ["parallel"]}
        ins(%l, %m, %m_new, %s : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
        outs(%e3 : tensor<8xf32>) {
      ^bb0(%lo: f32, %mo: f32, %mn: f32, %sk: f32, %o: f32):
        %d = arith.subf %mo, %mn : f32
        %alpha = math.exp %d : f32
        %scaled = arith.mulf %lo, %alpha : f32
        %r = arith.addf %scaled, %sk : f32
        linalg.yield %r : f32
    } -> tensor<8xf32>
    scf.yield %m_new, %l_new : tensor<8xf32>, tensor<8xf32>
  }
  %Lt = ktdp.construct_access_tile %Lv[%row0] {access_tile_set = #t1, access_tile_order = #o1}
      : memref<16xf32> -> !ktdp.access_tile<8xindex>
  ktdp.store %l_end, %Lt : tensor<8xf32>, !ktdp.access_tile<8xindex>
  return
}
