// PASS: program-split
// Three groups: A copied into the scratchpad view S; x loaded from S with z = x + C and
// u = 2C (one group: they share C's load; its last store, of u, comes last); B copied
// over S between x's load and z. By last stores the copy of B would run before the group
// loading x, which would then read B. Programs run their loads when called, so the group
// loading x is called before the copy over S, and programs are numbered in call order.
// CHECK: func.call @local_schedule_0
// CHECK-NEXT: func.call @local_schedule_1
// CHECK-NEXT: func.call @local_schedule_2
// CHECK-LABEL: builtin.module @program_0
// CHECK: ktdp.store %a, %St
// CHECK-LABEL: builtin.module @program_1
// CHECK: %x = ktdp.load %St
// CHECK: ktdp.store %u, %Ut
// CHECK-LABEL: builtin.module @program_2
// CHECK: ktdp.store %b, %St
builtin.module attributes {ktdf.device = "spyre"} {
  func.func @war_group_later(%A: index, %B: index, %C: index, %Z: index, %U: index) attributes {grid = [1 : i64]} {
    %c0 = arith.constant 0 : index
    %two = arith.constant 2.000000e+00 : f32
    %Av = ktdp.construct_memory_view %A, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Bv = ktdp.construct_memory_view %B, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Zv = ktdp.construct_memory_view %Z, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Sv = ktdp.construct_memory_view %c0, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<ct_local>} : memref<4x64xf32>
    %At = ktdp.construct_access_tile %Av[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %Zt = ktdp.construct_access_tile %Zv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %St = ktdp.construct_access_tile %Sv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %Cv = ktdp.construct_memory_view %C, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Uv = ktdp.construct_memory_view %U, sizes: [4, 64], strides: [64, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<4x64xf32>
    %Ct = ktdp.construct_access_tile %Cv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %Ut = ktdp.construct_access_tile %Uv[%c0, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 3) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<4x64xf32> -> !ktdp.access_tile<4x64xindex>
    %c = ktdp.load %Ct : <4x64xindex> -> tensor<4x64xf32>
    %a = ktdp.load %At : <4x64xindex> -> tensor<4x64xf32>
    ktdp.store %a, %St : tensor<4x64xf32>, <4x64xindex>
    %x = ktdp.load %St : <4x64xindex> -> tensor<4x64xf32>
    %b = ktdp.load %Bt : <4x64xindex> -> tensor<4x64xf32>
    ktdp.store %b, %St : tensor<4x64xf32>, <4x64xindex>
    %z_e = tensor.empty() : tensor<4x64xf32>
    %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %c : tensor<4x64xf32>, tensor<4x64xf32>) outs(%z_e : tensor<4x64xf32>) {
    ^bb0(%v: f32, %w: f32, %o: f32):
      %r = arith.addf %v, %w : f32
      linalg.yield %r : f32
    } -> tensor<4x64xf32>
    ktdp.store %z, %Zt : tensor<4x64xf32>, <4x64xindex>
    %u_e = tensor.empty() : tensor<4x64xf32>
    %u = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<4x64xf32>) outs(%u_e : tensor<4x64xf32>) {
    ^bb0(%v_1: f32, %o_1: f32):
      %r_1 = arith.mulf %v_1, %two : f32
      linalg.yield %r_1 : f32
    } -> tensor<4x64xf32>
    ktdp.store %u, %Ut : tensor<4x64xf32>, <4x64xindex>
    func.return
  }
}
