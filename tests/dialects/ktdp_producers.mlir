// Spellings the public KTIR producers write (issue 9, section 1), each parsed and printed
// back the way the upstream printer writes it: dialect prefixes of ktdp types elided
// where the op fixes the type, run-time bounds optional and in either order.
// See ktdp_memory.mlir for how this file is run.

// CHECK: ktdf_arch.device @sample_device import("devices/sample_device.mlir") attributes {mem_space_mapping = #ktdf_arch.map<global = "DDR", ct_local = "L1">}
ktdf_arch.device @sample_device attributes {mem_space_mapping = #ktdf_arch.map<#ktdp.memory_space<global> = "DDR", #ktdp.memory_space<ct_local> = "L1">} import("devices/sample_device.mlir")

#cols = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>
#row = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @spellings(
// CHECK-SAME: %any: !ktdp.runtime_arg<index>, %both: !ktdp.runtime_arg<index, granularity = 3, upperbound = 300>, %lanes: !ktdp.runtime_arg<i32, granularity = 4>, %scale: !ktdp.runtime_arg<f32>)
func.func @spellings(%P: index, %Q: index, %IDX: index,
    %any: !ktdp.runtime_arg<index>,
    %both: !ktdp.runtime_arg<index, upperbound = 300, granularity = 3>,
    %lanes: !ktdp.runtime_arg<i32, granularity = 4>,
    %scale: !ktdp.runtime_arg<f32>) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // CHECK: %n = ktdp.runtime_arg_extract value from %any : <index> -> index
  %n = ktdp.runtime_arg_extract value from %any : <index> -> index
  // CHECK-NEXT: %m = ktdp.runtime_arg_extract value from %both : <index, granularity = 3, upperbound = 300> -> index
  %m = ktdp.runtime_arg_extract value from %both : !ktdp.runtime_arg<index, granularity = 3, upperbound = 300> -> index
  // CHECK-NEXT: %ub = ktdp.runtime_arg_extract upperbound from %both : <index, granularity = 3, upperbound = 300> {origin = "triton"} -> index
  %ub = ktdp.runtime_arg_extract upperbound from %both : <index, granularity = 3, upperbound = 300> {origin = "triton"} -> index
  // CHECK-NEXT: %w = ktdp.runtime_arg_extract value from %lanes : <i32, granularity = 4> -> i32
  %w = ktdp.runtime_arg_extract value from %lanes : <i32, granularity = 4> -> i32
  // CHECK-NEXT: %s = ktdp.runtime_arg_extract value from %scale : <f32> -> f32
  %s = ktdp.runtime_arg_extract value from %scale : <f32> -> f32
  // CHECK: memory_space = #ktdp.spyre_memory_space<HBM>} : memref<16xf16>
  %Pv = ktdp.construct_memory_view %P, sizes: [16], strides: [1] {
    coordinate_set = #cols, memory_space = #ktdp.spyre_memory_space<HBM>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.spyre_memory_space<L0, core = 1>} : memref<16xf16>
  %Qv = ktdp.construct_memory_view %Q, sizes: [16], strides: [1] {
    coordinate_set = #cols, memory_space = #ktdp.spyre_memory_space<L0, core = 1>} : memref<16xf16>
  // CHECK: memory_space = #ktdp.spyre_memory_space<unspecified>} : memref<16xi32>
  %Iv = ktdp.construct_memory_view %IDX, sizes: [16], strides: [1] {
    coordinate_set = #cols, memory_space = #ktdp.spyre_memory_space<unspecified>} : memref<16xi32>
  %Pt = ktdp.construct_access_tile %Pv[%c0] {access_tile_set = #cols, access_tile_order = #row} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  %Qt = ktdp.construct_access_tile %Qv[%c0] {access_tile_set = #cols, access_tile_order = #row} : memref<16xf16> -> !ktdp.access_tile<16xindex>
  // CHECK: %G = ktdp.construct_indirect_access_tile intermediate_variables(%i) %Pv[ind(%Iv[%i])] symbols(%c4) {variables_space_set = affine_set<(d0)[s0] : {{.*}}} : memref<16xf16>, memref<16xi32> -> !ktdp.access_tile<?xindex>
  %G = ktdp.construct_indirect_access_tile intermediate_variables(%i) %Pv[ind(%Iv[%i])] symbols(%c4) {
    variables_space_set = affine_set<(d0)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0)>,
    variables_space_order = #row} : memref<16xf16>, memref<16xi32> -> !ktdp.access_tile<?xindex>
  // CHECK-NEXT: %p = ktdp.load %Pt : <16xindex> -> tensor<16xf16>
  %p = ktdp.load %Pt : <16xindex> -> tensor<16xf16>
  // CHECK-NEXT: %q = ktdp.load %Qt : <16xindex> -> tensor<16xf16>
  %q = ktdp.load %Qt : !ktdp.access_tile<16xindex> -> tensor<16xf16>
  // CHECK-NEXT: %pos = arith.cmpf ogt, %p, %q : tensor<16xf16>
  %pos = arith.cmpf ogt, %p, %q : tensor<16xf16>
  // CHECK-NEXT: %hi = arith.select %pos, %p, %q : tensor<16xi1>, tensor<16xf16>
  %hi = arith.select %pos, %p, %q : tensor<16xi1>, tensor<16xf16>
  // CHECK-NEXT: %same = arith.cmpi eq, %n, %m : index
  %same = arith.cmpi eq, %n, %m : index
  // CHECK-NEXT: %pick = arith.select %same, %n, %m : index
  %pick = arith.select %same, %n, %m : index
  // CHECK-NEXT: %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %hi) -> (tensor<16xf16>) {
  %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %hi) -> tensor<16xf16> {
    %b = arith.addf %a, %p : tensor<16xf16>
    scf.yield %b : tensor<16xf16>
  }
  // CHECK: = scf.for {{.*}} -> (tensor<16xf16>, tensor<16xf16>) {
  %two:2 = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %hi, %b = %p) -> (tensor<16xf16>, tensor<16xf16>) {
    scf.yield %b, %a : tensor<16xf16>, tensor<16xf16>
  }
  // CHECK: ktdp.store %acc, %Pt : tensor<16xf16>, <16xindex>
  ktdp.store %acc, %Pt : tensor<16xf16>, <16xindex>
  // CHECK-NEXT: ktdp.store %two, %Qt : tensor<16xf16>, <16xindex>
  ktdp.store %two#0, %Qt : tensor<16xf16>, !ktdp.access_tile<16xindex>
  return
}
