// A SwiGLU gate as the public FFN kernels write it: gate = x W (an f16 matmul, summed in
// f16 in any order), then silu(gate) = gate / (1 + exp(-gate)) spelled out op by op.
// gate's bound makes exp(-gate)'s value +- bound reach below zero where gate < 0, so a
// symmetric bound puts 0 inside 1 + exp(-gate) and the division has no finite bound; the
// interval exp's hardware value lies in keeps it positive, and the run is checked.
#x = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#w = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#y = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @gate_silu(%X: index, %W: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #x, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [64, 128], strides: [128, 1] {
      coordinate_set = #w, memory_space = #ktdp.memory_space<global>} : memref<64x128xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 128], strides: [128, 1] {
      coordinate_set = #y, memory_space = #ktdp.memory_space<global>} : memref<4x128xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #x, access_tile_order = #id}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Wt = ktdp.construct_access_tile %Wv[%c0, %c0] {access_tile_set = #w, access_tile_order = #id}
      : memref<64x128xf16> -> !ktdp.access_tile<64x128xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #y, access_tile_order = #id}
      : memref<4x128xf16> -> !ktdp.access_tile<4x128xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %w = ktdp.load %Wt : !ktdp.access_tile<64x128xindex> -> tensor<64x128xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x128xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<4x128xf16>) -> tensor<4x128xf16>
  %gate = linalg.matmul ins(%x, %w : tensor<4x64xf16>, tensor<64x128xf16>)
                        outs(%acc : tensor<4x128xf16>) -> tensor<4x128xf16>
  %neg = arith.negf %gate : tensor<4x128xf16>
  %exp = math.exp %neg : tensor<4x128xf16>
  %one = arith.constant dense<1.0> : tensor<4x128xf16>
  %den = arith.addf %one, %exp : tensor<4x128xf16>
  %sig = arith.divf %one, %den : tensor<4x128xf16>
  %silu = arith.mulf %gate, %sig : tensor<4x128xf16>
  ktdp.store %silu, %Yt : tensor<4x128xf16>, !ktdp.access_tile<4x128xindex>
  return
}
