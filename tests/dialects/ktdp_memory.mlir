// ktdp memory views, tile ids and run-time arguments, in their custom syntax.
// tests/dialects/test_ktdp.py parses this file with spyre_sched.frontend.parse_kernel,
// prints it with xDSL's printer and runs `filecheck` on the output against the CHECK
// lines (the equivalent of `xdsl-opt %s | filecheck %s`). Aliases are inlined on print.

#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 95 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#small = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>

// CHECK-LABEL: func.func @views(%A: index, %B: index, %n: index, %s: index, %rt: !ktdp.runtime_arg<index, granularity = 64, upperbound = 4096>) attributes {grid = [4 : i64, 2 : i64]} {
func.func @views(%A: index, %B: index, %n: index, %s: index,
                 %rt: !ktdp.runtime_arg<index, granularity = 64, upperbound = 4096>) attributes {grid = [4, 2]} {
  // CHECK-NEXT: %x, %y = ktdp.get_compute_tile_id : index, index
  %x, %y = ktdp.get_compute_tile_id : index, index
  // CHECK-NEXT: %lin = ktdp.get_compute_tile_id : index
  %lin = ktdp.get_compute_tile_id : index
  // CHECK-NEXT: %g = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 95) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<96x64xf16>
  %g = ktdp.construct_memory_view %A, sizes: [96, 64], strides: [64, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global> } : memref<96x64xf16>
  // Dynamic sizes and strides; the set's symbols bind to the dynamic sizes.
  // CHECK-NEXT: %dyn = ktdp.construct_memory_view %B, sizes: [%n, 64], strides: [%s, 1] {coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, (((d0 * -1) + s0) + -1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<?x64xf16>
  %dyn = ktdp.construct_memory_view %B, sizes: [%n, 64], strides: [%s, 1] {
      coordinate_set = affine_set<(d0, d1)[s0] : (d0 >= 0, -d0 + s0 - 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global> } : memref<?x64xf16>
  // CHECK-NEXT: %own = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {{{.*}}memory_space = #ktdp.memory_space<ct_local>} : memref<3x64xf16>
  %own = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {
      coordinate_set = #small, memory_space = #ktdp.memory_space<ct_local> } : memref<3x64xf16>
  // CHECK-NEXT: %other = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {{{.*}}memory_space = #ktdp.memory_space<ct_local, ct_id = 3>} : memref<3x64xf16>
  %other = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {
      coordinate_set = #small, memory_space = #ktdp.memory_space<ct_local, ct_id = 3> } : memref<3x64xf16>
  // The older spelling is kept as written.
  // CHECK-NEXT: %hbm = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {{{.*}}memory_space = #ktdp.spyre_memory_space<HBM>} : memref<3x64xf16>
  %hbm = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {
      coordinate_set = #small, memory_space = #ktdp.spyre_memory_space<HBM> } : memref<3x64xf16>
  // CHECK-NEXT: %lx = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {{{.*}}memory_space = #ktdp.spyre_memory_space<LX, core = 2>} : memref<3x64xf16>
  %lx = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {
      coordinate_set = #small, memory_space = #ktdp.spyre_memory_space<LX, core = 2> } : memref<3x64xf16>
  // CHECK-NEXT: %lxown = ktdp.construct_memory_view %A, {{.*}}memory_space = #ktdp.spyre_memory_space<LX>} : memref<3x64xf16>
  %lxown = ktdp.construct_memory_view %A, sizes: [3, 64], strides: [64, 1] {
      coordinate_set = #small, memory_space = #ktdp.spyre_memory_space<LX> } : memref<3x64xf16>
  // CHECK-NEXT: %dist = ktdp.construct_distributed_memory_view (%own, %other : memref<3x64xf16>, memref<3x64xf16>) : memref<6x64xf16>
  %dist = ktdp.construct_distributed_memory_view (%own, %other : memref<3x64xf16>, memref<3x64xf16>) : memref<6x64xf16>
  // CHECK-NEXT: %v = ktdp.runtime_arg_extract value from %rt : <index, granularity = 64, upperbound = 4096> -> index
  %v = ktdp.runtime_arg_extract value from %rt : !ktdp.runtime_arg<index, granularity = 64, upperbound = 4096> -> index
  // CHECK-NEXT: %gr = ktdp.runtime_arg_extract granularity from %rt : <index, granularity = 64, upperbound = 4096> -> index
  %gr = ktdp.runtime_arg_extract granularity from %rt : !ktdp.runtime_arg<index, granularity = 64, upperbound = 4096> -> index
  // CHECK-NEXT: %ub = ktdp.runtime_arg_extract upperbound from %rt : <index, granularity = 64, upperbound = 4096> {note = "bound"} -> index
  %ub = ktdp.runtime_arg_extract upperbound from %rt {note = "bound"} : !ktdp.runtime_arg<index, granularity = 64, upperbound = 4096> -> index
  // CHECK-NEXT: func.return
  return
}
