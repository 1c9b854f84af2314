// Every spyreop op in its custom syntax. tests/dialects/test_spyreop.py parses this file,
// verifies it, prints it back with xDSL's printer and runs `filecheck` on the output
// against the CHECK lines below (the equivalent of `xdsl-opt %s | filecheck %s`).

// CHECK-LABEL: func.func @float_ops(%x: f16, %y: f16, %d: !spyreop.df16, %e: !spyreop.df16, %g: f32, %h: f32)
func.func @float_ops(%x: f16, %y: f16, %d: !spyreop.df16, %e: !spyreop.df16, %g: f32, %h: f32) {
  // CHECK-NEXT: %exp = spyreop.exp %x : f16
  %exp = spyreop.exp %x : f16
  // CHECK-NEXT: %gelu = spyreop.gelu %d : !spyreop.df16
  %gelu = spyreop.gelu %d : !spyreop.df16
  // CHECK-NEXT: %sigmoid = spyreop.sigmoid %g : f32
  %sigmoid = spyreop.sigmoid %g : f32
  // CHECK-NEXT: %silu = spyreop.silu %x : f16
  %silu = spyreop.silu %x : f16
  // CHECK-NEXT: %sqrt = spyreop.sqrt %g : f32
  %sqrt = spyreop.sqrt %g : f32
  // CHECK-NEXT: %rsqrt = spyreop.rsqrt %d : !spyreop.df16
  %rsqrt = spyreop.rsqrt %d : !spyreop.df16
  // CHECK-NEXT: %recip = spyreop.reciprocal %x : f16
  %recip = spyreop.reciprocal %x : f16
  // Floats come back in the style MLIR prints f32 attributes.
  // CHECK-NEXT: %sp = spyreop.softplus %x beta 2.000000e-01 threshold 1.000000e-01 : f16
  %sp = spyreop.softplus %x beta 0.2 threshold 1.000000e-01 : f16
  // CHECK-NEXT: %sp2 = spyreop.softplus %g beta -1.000000e+00 threshold 0x7F800000 : f32
  %sp2 = spyreop.softplus %g beta -1 threshold 0x7F800000 : f32
  // CHECK-NEXT: %div = spyreop.realdiv %g, %h : f32
  %div = spyreop.realdiv %g, %h : f32
  // CHECK-NEXT: %eq = spyreop.compare <equal> %x, %y : f16
  %eq = spyreop.compare <equal> %x, %y : f16
  // CHECK-NEXT: %le = spyreop.compare <lesserequal> %d, %e : !spyreop.df16
  %le = spyreop.compare <lesserequal> %d, %e : !spyreop.df16
  // CHECK-NEXT: %sel = spyreop.select %eq, %x, %y : f16
  %sel = spyreop.select %eq, %x, %y : f16
  func.return
}

// CHECK-LABEL: func.func @norm_ops(%x: f16, %w: f16, %b: f16, %g: f32)
func.func @norm_ops(%x: f16, %w: f16, %b: f16, %g: f32) {
  // CHECK-NEXT: %m, %sq = spyreop.exx2 %x : f16
  %m, %sq = spyreop.exx2 %x : f16
  // CHECK-NEXT: %s = spyreop.layernormscale %m squares %sq : f16
  %s = spyreop.layernormscale %m squares %sq : f16
  // CHECK-NEXT: %n = spyreop.layernormnorm %x squares %sq scale %s weight %w bias %b : f16
  %n = spyreop.layernormnorm %x squares %sq scale %s weight %w bias %b : f16
  // CHECK-NEXT: %p = spyreop.exx2_fused %g : f32 -> !spyreop.fp32_fused
  %p = spyreop.exx2_fused %g : f32 -> !spyreop.fp32_fused
  // CHECK-NEXT: %ps = spyreop.layernormscale_fused %p : !spyreop.fp32_fused -> f32
  %ps = spyreop.layernormscale_fused %p : !spyreop.fp32_fused -> f32
  func.return
}

// CHECK-LABEL: func.func @int_ops(%i: i32, %j: i32, %k: i64)
func.func @int_ops(%i: i32, %j: i32, %k: i64) {
  // CHECK-NEXT: %a = spyreop.addi32toi32 %i, %j
  %a = spyreop.addi32toi32 %i, %j
  // CHECK-NEXT: %a64 = spyreop.addi64toi64 %k, %k
  %a64 = spyreop.addi64toi64 %k, %k
  // CHECK-NEXT: %mul = spyreop.muli32toi32 %a, %j
  %mul = spyreop.muli32toi32 %a, %j
  // CHECK-NEXT: %addr = spyreop.idx32toaddr %i base %j stride %mul
  %addr = spyreop.idx32toaddr %i base %j stride %mul
  // CHECK-NEXT: %addr2 = spyreop.idx32toaddr %i base 0 stride 4
  %addr2 = spyreop.idx32toaddr %i base 0 stride 4
  func.return
}

// CHECK-LABEL: func.func @reductions(%t: tensor<64xf16>, %u: tensor<4x32xf32>)
func.func @reductions(%t: tensor<64xf16>, %u: tensor<4x32xf32>) {
  // CHECK-NEXT: %r = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  %r = spyreop.slice_reduction %t {reduction_kind = #spyreop.reduction_kind<add>, reduction_scope = #spyreop.reduction_scope<in_slice>} : tensor<64xf16> -> tensor<64xf16>
  // CHECK-NEXT: %q = spyreop.slice_reduction %u {reduction_kind = #spyreop.reduction_kind<abs_max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<4x32xf32> -> tensor<4x32xf32>
  %q = spyreop.slice_reduction %u {reduction_kind = #spyreop.reduction_kind<abs_max>, reduction_scope = #spyreop.reduction_scope<across_slice>} : tensor<4x32xf32> -> tensor<4x32xf32>
  func.return
}

// CHECK-LABEL: func.func @in_generic(%in: tensor<4x64xf16>) -> tensor<4x64xf16>
func.func @in_generic(%in: tensor<4x64xf16>) -> tensor<4x64xf16> {
  %empty = tensor.empty() : tensor<4x64xf16>
  // CHECK: linalg.generic
  %out = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%in : tensor<4x64xf16>) outs(%empty : tensor<4x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    // CHECK: %s = spyreop.sigmoid %a : f16
    %s = spyreop.sigmoid %a : f16
    // CHECK-NEXT: %v = spyreop.realdiv %a, %s : f16
    %v = spyreop.realdiv %a, %s : f16
    // CHECK-NEXT: linalg.yield %v : f16
    linalg.yield %v : f16
  } -> tensor<4x64xf16>
  func.return %out : tensor<4x64xf16>
}
