// Upstream op families inside ktdp kernels: linalg named ops (including linalg.div and
// the short-form linalg.reduce, which spyre_sched.frontend.linalg_ktir adds to xDSL
// 0.75), linalg.generic with spyreop, tensor, scf.for/if, arith, math, affine.apply.
// See ktdp_memory.mlir for how this file is run.

#rows = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @elementwise(
func.func @elementwise(%A: index, %B: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [8, 8], strides: [8, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<8x8xf16>
  %id = ktdp.get_compute_tile_id : index
  %row = affine.apply affine_map<(d0) -> (d0 * 4)>(%id)
  %t = ktdp.construct_access_tile %Av[%row, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<8x8xf16> -> !ktdp.access_tile<4x8xindex>
  %a = ktdp.load %t : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %e = tensor.empty() : tensor<4x8xf16>
  // CHECK: %row = affine.apply affine_map<(d0) -> ((d0 * 4))> (%id)
  // CHECK: %add = linalg.add ins(%a, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  %add = linalg.add ins(%a, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK-NEXT: %sub = linalg.sub ins(
  %sub = linalg.sub ins(%add, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK-NEXT: %mul = linalg.mul ins(
  %mul = linalg.mul ins(%sub, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK-NEXT: %div = linalg.div ins(%mul, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  %div = linalg.div ins(%mul, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK-NEXT: %max = linalg.max ins(
  %max = linalg.max ins(%div, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK-NEXT: %min = linalg.min ins(
  %min = linalg.min ins(%max, %a : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK-NEXT: %exp = linalg.exp ins(%min : tensor<4x8xf16>)
  %exp = linalg.exp ins(%min : tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK-NEXT: %gen = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%exp : tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  // CHECK-NEXT: ^bb0(%in: f16, %out: f16):
  // CHECK-NEXT:   %m = math.sqrt %in : f16
  // CHECK-NEXT:   %g = spyreop.gelu %m : f16
  // CHECK-NEXT:   %s = arith.addf %g, %out : f16
  // CHECK-NEXT:   linalg.yield %s : f16
  // CHECK-NEXT: } -> tensor<4x8xf16>
  %gen = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%exp : tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) {
  ^bb0(%in: f16, %out: f16):
    %m = math.sqrt %in : f16
    %g = spyreop.gelu %m : f16
    %s = arith.addf %g, %out : f16
    linalg.yield %s : f16
  } -> tensor<4x8xf16>
  ktdp.store %gen, %t : tensor<4x8xf16>, !ktdp.access_tile<4x8xindex>
  return
}

// CHECK-LABEL: func.func @shapes(
func.func @shapes(%A: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.000000e+00 : f16
  %Av = ktdp.construct_memory_view %A, sizes: [4, 8], strides: [8, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global> } : memref<4x8xf16>
  %t = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<4x8xf16> -> !ktdp.access_tile<4x8xindex>
  %a = ktdp.load %t : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
  %e8 = tensor.empty() : tensor<8xf16>
  // CHECK: %init = linalg.fill ins(%zero : f16) outs(%e8 : tensor<8xf16>) -> tensor<8xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e8 : tensor<8xf16>) -> tensor<8xf16>
  // The short form reads as the long form.
  // CHECK-NEXT: %colsum = linalg.reduce ins(%a:tensor<4x8xf16>) outs(%init:tensor<8xf16>) dimensions = [0]
  // CHECK-NEXT: (%0: f16, %1: f16) {
  // CHECK-NEXT:   %2 = arith.addf %0, %1 : f16
  // CHECK-NEXT:   linalg.yield %2 : f16
  // CHECK-NEXT: }
  %colsum = linalg.reduce { arith.addf } ins(%a : tensor<4x8xf16>) outs(%init : tensor<8xf16>) dimensions = [0]
  // CHECK-NEXT: %colmax = linalg.reduce ins(%a:tensor<4x8xf16>) outs(%init:tensor<8xf16>) dimensions = [0]
  // CHECK-NEXT: (%in: f16, %acc: f16) {
  // CHECK-NEXT:   %mx = arith.maximumf %in, %acc : f16
  %colmax = linalg.reduce ins(%a : tensor<4x8xf16>) outs(%init : tensor<8xf16>) dimensions = [0]
    (%in: f16, %acc: f16) {
      %mx = arith.maximumf %in, %acc : f16
      linalg.yield %mx : f16
    }
  %e48 = tensor.empty() : tensor<4x8xf16>
  // CHECK: %bc = linalg.broadcast ins(%colsum:tensor<8xf16>) outs(%e48:tensor<4x8xf16>) dimensions = [0]
  %bc = linalg.broadcast ins(%colsum : tensor<8xf16>) outs(%e48 : tensor<4x8xf16>) dimensions = [0]
  %e84 = tensor.empty() : tensor<8x4xf16>
  // CHECK: %tr = linalg.transpose ins(%bc:tensor<4x8xf16>) outs(%e84:tensor<8x4xf16>) permutation = [1, 0]
  %tr = linalg.transpose ins(%bc : tensor<4x8xf16>) outs(%e84 : tensor<8x4xf16>) permutation = [1, 0]
  %e44 = tensor.empty() : tensor<4x4xf16>
  // CHECK: %e44 = tensor.empty() : tensor<4x4xf16>
  // CHECK-NEXT: %mm = linalg.matmul ins(%a, %tr : tensor<4x8xf16>, tensor<8x4xf16>) outs(%e44 : tensor<4x4xf16>) -> tensor<4x4xf16>
  %mm = linalg.matmul ins(%a, %tr : tensor<4x8xf16>, tensor<8x4xf16>) outs(%e44 : tensor<4x4xf16>) -> tensor<4x4xf16>
  // CHECK-NEXT: %half = tensor.extract_slice %a[0, 0] [2, 8] [1, 1] : tensor<4x8xf16> to tensor<2x8xf16>
  %half = tensor.extract_slice %a[0, 0] [2, 8] [1, 1] : tensor<4x8xf16> to tensor<2x8xf16>
  // CHECK-NEXT: %flat = tensor.collapse_shape %a {{\[}}[0 : i64, 1 : i64]] : tensor<4x8xf16> into tensor<32xf16>
  %flat = tensor.collapse_shape %a [[0, 1]] : tensor<4x8xf16> into tensor<32xf16>
  ktdp.store %bc, %t : tensor<4x8xf16>, !ktdp.access_tile<4x8xindex>
  return
}

// CHECK-LABEL: func.func @control(
func.func @control(%A: index, %rt: !ktdp.runtime_arg<index, granularity = 4, upperbound = 64>) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %n = ktdp.runtime_arg_extract value from %rt : !ktdp.runtime_arg<index, granularity = 4, upperbound = 64> -> index
  %Av = ktdp.construct_memory_view %A, sizes: [%n, 8], strides: [8, 1] {
      coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 7 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<?x8xf16>
  %steps = arith.divui %n, %c4 : index
  %e = tensor.empty() : tensor<4x8xf16>
  // CHECK: %acc = scf.for %i = %c0 to %steps step %c1 iter_args(%sum = %e) -> (tensor<4x8xf16>) {
  // CHECK-NEXT:   %r = arith.muli %i, %c4 : index
  // CHECK-NEXT:   %t = ktdp.construct_access_tile %Av[%r, %c0] {{.*}} : memref<?x8xf16> -> !ktdp.access_tile<4x8xindex>
  // CHECK-NEXT:   %x = ktdp.load %t : <4x8xindex> -> tensor<4x8xf16>
  // CHECK-NEXT:   %next = linalg.add ins(%sum, %x : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
  // CHECK-NEXT:   scf.yield %next : tensor<4x8xf16>
  // CHECK-NEXT: }
  %acc = scf.for %i = %c0 to %steps step %c1 iter_args(%sum = %e) -> (tensor<4x8xf16>) {
    %r = arith.muli %i, %c4 : index
    %t = ktdp.construct_access_tile %Av[%r, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<?x8xf16> -> !ktdp.access_tile<4x8xindex>
    %x = ktdp.load %t : !ktdp.access_tile<4x8xindex> -> tensor<4x8xf16>
    %next = linalg.add ins(%sum, %x : tensor<4x8xf16>, tensor<4x8xf16>) outs(%e : tensor<4x8xf16>) -> tensor<4x8xf16>
    scf.yield %next : tensor<4x8xf16>
  }
  %id = ktdp.get_compute_tile_id : index
  %first = arith.cmpi eq, %id, %c0 : index
  // CHECK: %out = scf.if %first -> (tensor<4x8xf16>) {
  // CHECK-NEXT:   scf.yield %acc : tensor<4x8xf16>
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %e : tensor<4x8xf16>
  // CHECK-NEXT: }
  %out = scf.if %first -> (tensor<4x8xf16>) {
    scf.yield %acc : tensor<4x8xf16>
  } else {
    scf.yield %e : tensor<4x8xf16>
  }
  %t0 = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = #rows, access_tile_order = #id2} : memref<?x8xf16> -> !ktdp.access_tile<4x8xindex>
  ktdp.store %out, %t0 : tensor<4x8xf16>, !ktdp.access_tile<4x8xindex>
  return
}
