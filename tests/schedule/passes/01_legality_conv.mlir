// PASS: legality-check
// ERROR: not supported yet: linalg.conv_2d_nchw_fchw
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @mm(%A: index, %C: index) attributes {grid = [1]} {
    %c0 = arith.constant 0 : index
    %Av = ktdp.construct_memory_view %A, sizes: [8, 8], strides: [8, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
    %Cv = ktdp.construct_memory_view %C, sizes: [8, 8], strides: [8, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<8x8xf16>
    %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
    %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x8xf16> -> !ktdp.access_tile<8x8xindex>
    %a = ktdp.load %At : !ktdp.access_tile<8x8xindex> -> tensor<8x8xf16>
    %i = tensor.empty() : tensor<1x1x10x10xf16>
    %f = tensor.empty() : tensor<1x1x3x3xf16>
    %o = tensor.empty() : tensor<1x1x8x8xf16>
    %v = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%i, %f : tensor<1x1x10x10xf16>, tensor<1x1x3x3xf16>) outs(%o : tensor<1x1x8x8xf16>) -> tensor<1x1x8x8xf16>
    %c = tensor.collapse_shape %v [[0, 1, 2], [3]] : tensor<1x1x8x8xf16> into tensor<8x8xf16>
    ktdp.store %c, %Ct : tensor<8x8xf16>, !ktdp.access_tile<8x8xindex>
    func.return
  }
}
