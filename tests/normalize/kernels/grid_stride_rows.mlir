// A grid-stride loop as Triton's persistent kernels write it: tile t handles rows t, t + 4,
// t + 8, ... of a 10-row tensor (tiles 0 and 1 three rows, tiles 2 and 3 two), each row
// scaled by its maximum's reciprocal.
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 9 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @grid_stride_rows(%X: index, %Y: index) attributes {grid = [4, 1]} {
  %t = ktdp.get_compute_tile_id : index
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = arith.constant 10 : index
  %xv = ktdp.construct_memory_view %X, sizes: [10, 64], strides: [64, 1] {
    coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<10x64xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [10, 64], strides: [64, 1] {
    coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<10x64xf16>
  scf.for %r = %t to %n step %c4 {
    %xt = ktdp.construct_access_tile %xv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<10x64xf16> -> !ktdp.access_tile<1x64xindex>
    %yt = ktdp.construct_access_tile %yv[%r, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<10x64xf16> -> !ktdp.access_tile<1x64xindex>
    %x = ktdp.load %xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
    %ninf = arith.constant 0xFC00 : f16
    %init = tensor.splat %ninf : tensor<1xf16>
    %m = linalg.reduce { arith.maximumf } ins(%x : tensor<1x64xf16>) outs(%init : tensor<1xf16>) dimensions = [1]
    %ms = tensor.extract %m[%c0] : tensor<1xf16>
    %mt = tensor.splat %ms : tensor<1x64xf16>
    %y = arith.divf %x, %mt : tensor<1x64xf16>
    ktdp.store %y, %yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  }
  return
}
