// Every DataflowIR op (dataflow, agen, vectorchain, uniform, symbol) in its custom syntax.
// tests/dialects/test_dataflowir.py parses this file, prints it, runs `filecheck` on the
// output against these CHECK lines, and checks that the printout parses back to itself.
// CHECK: builtin.module @local_schedule_0 attributes {dataflow.device = "spyre", dataflow.kernel = "k"} {
// CHECK-NEXT: func.func @local_schedule_0(%A: index) {
// CHECK-NEXT: %c2 = arith.constant 2 : index
// CHECK-NEXT: %a = arith.muli %A, %c2 : index
// CHECK-NEXT: symbol.create_id %a {symbol_id = 0 : i64}
// CHECK-NEXT: func.call @local_schedule_0_body() : () -> ()
// CHECK: func.func @local_schedule_0_body() {
// CHECK-NEXT: %s0 = symbol.create_symbol {SymbolId = 0 : i64} : index
// CHECK-NEXT: %m = uniform.def_immutable_mapping(%s0, %s0) {keys = array<i64: 0, 1>} : !uniform.map
// CHECK-NEXT: dataflow.fifo @x "lx_load" -> "sfu" {depth = 8 : i64} : vector<64xf16>
// CHECK-NEXT: dataflow.fifo @y "sfu" -> "lx_store" {depth = 16 : i64} : vector<64xf16>
// CHECK-NEXT: dataflow.sync @full "dma_load" -> "lx_load" {initial = 0 : i64}
// CHECK-NEXT: dataflow.sync @free "lx_load" -> "dma_load" {initial = 2 : i64}
// CHECK-NEXT: dataflow.program_unit @p0_dma_load attributes {engine = "dma_load", units = ["core0.dma_load", "core1.dma_load"]} {
// CHECK-NEXT: %c0 = arith.constant 0 : index
// CHECK-NEXT: %core = dataflow.instance_index "core" : index
// CHECK-NEXT: %src = uniform.query_map %m[%core] : index
// CHECK-NEXT: dataflow.sync_recv @free peer %c0
// CHECK-NEXT: agen.composite_load_and_store "ddr"[%src] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> to "lx"[%c0] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, order = affine_map<(d0, d1) -> (d1, d0)>, strides = [1, 2]> : f16
// CHECK-NEXT: agen.composite_load_and_store "ddr"[%src] {{.*}} clip(%core, %c0) {clip = affine_set<(d0, d1)[s0, s1] : ({{.*}}99{{.*}} >= 0)>, clip_side = "source"} : f16
// CHECK-NEXT: agen.indirect_load_and_store "ddr"[%src] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [0, 1]> to "lx"[%c0] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> indices(%c0) {indirect = "source", index_memory = "lx", index_accesses = [#agen.access<set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [1, 0]>], index_elements = [i32], view_strides = array<i64: 64>, bounds = array<i64: 0, 15>} : f16
// CHECK-NEXT: dataflow.sync_send @full peer %c0
// CHECK-NEXT: }
// CHECK-NEXT: dataflow.program_unit @p0_lx_load attributes {engine = "lx_load", units = ["core0.corelet0.lx_load"]} {
// CHECK-NEXT: %c0_1 = arith.constant 0 : index
// CHECK-NEXT: dataflow.sync_recv @full
// CHECK-NEXT: %v = agen.vector_load "lx"[%c0_1] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : vector<2x64xf16>
// CHECK-NEXT: dataflow.send %v to @x : vector<2x64xf16>
// CHECK-NEXT: dataflow.sync_send @free
// CHECK-NEXT: }
// CHECK-NEXT: dataflow.program_unit @p0_sfu attributes {engine = "sfu", units = ["core0.corelet0.sfu"]} {
// CHECK-NEXT: %x = dataflow.receive @x : vector<2x64xf16>
// CHECK-NEXT: %one = vectorchain.constant_bitstream "3c00" : vector<1xf16>
// CHECK-NEXT: %bits = vectorchain.splat_bits %s0 : vector<1xf16>
// CHECK-NEXT: %ones = vectorchain.shuffle %one {pattern = array<i64: 0>} : vector<1xf16> -> vector<2x64xf16>
// CHECK-NEXT: %s = vectorchain.add %x, %ones : vector<2x64xf16>
// CHECK-NEXT: %d = vectorchain.sub %s, %x : vector<2x64xf16>
// CHECK-NEXT: %p = vectorchain.mul %d, %s : vector<2x64xf16>
// CHECK-NEXT: %q = vectorchain.div %p, %s : vector<2x64xf16>
// CHECK-NEXT: %hi = vectorchain.max %q, %x : vector<2x64xf16>
// CHECK-NEXT: %lo = vectorchain.min %hi, %x : vector<2x64xf16>
// CHECK-NEXT: %g = vectorchain.apply "spyreop.softplus"(%lo) {beta = 1.000000e+00 : f32, threshold = 2.000000e+01 : f32} : (vector<2x64xf16>) -> vector<2x64xf16>
// CHECK-NEXT: %w = vectorchain.apply "arith.extf"(%g) : (vector<2x64xf16>) -> vector<2x64xf32>
// CHECK-NEXT: %r = vectorchain.reduce "add" %w : vector<2x64xf32> -> vector<2x1xf32>
// CHECK-NEXT: %rf = vectorchain.reduce "add" %w : vector<2x64xf32> -> vector<2xf32>
// CHECK-NEXT: %n = vectorchain.apply "arith.truncf"(%r) : (vector<2x1xf32>) -> vector<2x1xf16>
// CHECK-NEXT: %bt = vectorchain.shuffle %one {pattern = array<i64: 0>} : vector<1xf16> -> vector<64x2xf16>
// CHECK-NEXT: %acc = vectorchain.shuffle %r {pattern = array<i64: 0, 0, 1, 1>} : vector<2x1xf32> -> vector<2x2xf32>
// CHECK-NEXT: %mm = vectorchain.matmul "f16" %x, %bt, %acc : vector<2x64xf16>, vector<64x2xf16>, vector<2x2xf32> -> vector<2x2xf32>
// CHECK-NEXT: %b = vectorchain.shuffle %n {pattern = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>} : vector<2x1xf16> -> vector<2x64xf16>
// CHECK-NEXT: dataflow.send %b to @y : vector<2x64xf16>
// CHECK-NEXT: }
// CHECK-NEXT: dataflow.program_unit @p0_lx_store attributes {engine = "lx_store", units = ["core0.corelet0.lx_store"]} {
// CHECK-NEXT: %c256 = arith.constant 256 : index
// CHECK-NEXT: %c1 = arith.constant 1 : index
// CHECK-NEXT: %c0_2 = arith.constant 0 : index
// CHECK-NEXT: %last = scf.for %i = %c0_2 to %c1 step %c1 iter_args(%slot = %c0_2) -> (index) {
// CHECK-NEXT: %y = dataflow.receive @y : vector<2x64xf16>
// CHECK-NEXT: %at = arith.addi %c256, %slot : index
// CHECK-NEXT: agen.vector_store %y to "lx"[%at] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, ((d0 * -1) + 1) >= 0, d1 >= 0, ((d1 * -1) + 63) >= 0, (d0 + (d1 * -1)) <= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : vector<2x64xf16>
// CHECK-NEXT: %k = dataflow.instance_index "corelet" : index
// CHECK-NEXT: scf.yield %slot : index
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }

builtin.module @local_schedule_0 attributes {dataflow.device = "spyre", dataflow.kernel = "k"} {
  func.func @local_schedule_0(%A: index) {
    %c2 = arith.constant 2 : index
    %a = arith.muli %A, %c2 : index
    symbol.create_id %a {symbol_id = 0 : i64}
    func.call @local_schedule_0_body() : () -> ()
    func.return
  }
  func.func @local_schedule_0_body() {
    %s0 = symbol.create_symbol {SymbolId = 0 : i64} : index
    %m = uniform.def_immutable_mapping (%s0, %s0) {keys = array<i64: 0, 1>} : !uniform.map
    dataflow.fifo @x "lx_load" -> "sfu" {depth = 8 : i64} : vector<64xf16>
    dataflow.fifo @y "sfu" -> "lx_store" {depth = 16 : i64} : vector<64xf16>
    dataflow.sync @full "dma_load" -> "lx_load" {initial = 0 : i64}
    dataflow.sync @free "lx_load" -> "dma_load" {initial = 2 : i64}
    dataflow.program_unit @p0_dma_load attributes {engine = "dma_load", units = ["core0.dma_load", "core1.dma_load"]} {
      %c0 = arith.constant 0 : index
      %core = dataflow.instance_index "core" : index
      %src = uniform.query_map %m[%core] : index
      dataflow.sync_recv @free peer %c0
      agen.composite_load_and_store "ddr"[%src] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> to "lx"[%c0] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d1, d0)>, strides = [1, 2]> : f16
      agen.composite_load_and_store "ddr"[%src] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> to "lx"[%c0] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> clip(%core, %c0) {clip = affine_set<(d0, d1)[s0, s1] : (-d1 - s0 + 99 >= 0)>, clip_side = "source"} : f16
      agen.indirect_load_and_store "ddr"[%src] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [0, 1]> to "lx"[%c0] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> indices(%c0) {indirect = "source", index_memory = "lx", index_accesses = [#agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [1, 0]>], index_elements = [i32], view_strides = array<i64: 64>, bounds = array<i64: 0, 15>} : f16
      dataflow.sync_send @full peer %c0
    }
    dataflow.program_unit @p0_lx_load attributes {engine = "lx_load", units = ["core0.corelet0.lx_load"]} {
      %c0 = arith.constant 0 : index
      dataflow.sync_recv @full
      %v = agen.vector_load "lx"[%c0] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : vector<2x64xf16>
      dataflow.send %v to @x : vector<2x64xf16>
      dataflow.sync_send @free
    }
    dataflow.program_unit @p0_sfu attributes {engine = "sfu", units = ["core0.corelet0.sfu"]} {
      %x = dataflow.receive @x : vector<2x64xf16>
      %one = vectorchain.constant_bitstream "3c00" : vector<1xf16>
      %bits = vectorchain.splat_bits %s0 : vector<1xf16>
      %ones = vectorchain.shuffle %one {pattern = array<i64: 0>} : vector<1xf16> -> vector<2x64xf16>
      %s = vectorchain.add %x, %ones : vector<2x64xf16>
      %d = vectorchain.sub %s, %x : vector<2x64xf16>
      %p = vectorchain.mul %d, %s : vector<2x64xf16>
      %q = vectorchain.div %p, %s : vector<2x64xf16>
      %hi = vectorchain.max %q, %x : vector<2x64xf16>
      %lo = vectorchain.min %hi, %x : vector<2x64xf16>
      %g = vectorchain.apply "spyreop.softplus"(%lo) {beta = 1.0 : f32, threshold = 20.0 : f32} : (vector<2x64xf16>) -> vector<2x64xf16>
      %w = vectorchain.apply "arith.extf"(%g) : (vector<2x64xf16>) -> vector<2x64xf32>
      %r = vectorchain.reduce "add" %w : vector<2x64xf32> -> vector<2x1xf32>
      %rf = vectorchain.reduce "add" %w : vector<2x64xf32> -> vector<2xf32>
      %n = vectorchain.apply "arith.truncf"(%r) : (vector<2x1xf32>) -> vector<2x1xf16>
      %bt = vectorchain.shuffle %one {pattern = array<i64: 0>} : vector<1xf16> -> vector<64x2xf16>
      %acc = vectorchain.shuffle %r {pattern = array<i64: 0, 0, 1, 1>} : vector<2x1xf32> -> vector<2x2xf32>
      %mm = vectorchain.matmul "f16" %x, %bt, %acc : vector<2x64xf16>, vector<64x2xf16>, vector<2x2xf32> -> vector<2x2xf32>
      %b = vectorchain.shuffle %n {pattern = array<i64: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1>} : vector<2x1xf16> -> vector<2x64xf16>
      dataflow.send %b to @y : vector<2x64xf16>
    }
    dataflow.program_unit @p0_lx_store attributes {engine = "lx_store", units = ["core0.corelet0.lx_store"]} {
      %c256 = arith.constant 256 : index
      %c1 = arith.constant 1 : index
      %c0 = arith.constant 0 : index
      %last = scf.for %i = %c0 to %c1 step %c1 iter_args(%slot = %c0) -> (index) {
        %y = dataflow.receive @y : vector<2x64xf16>
        %at = arith.addi %c256, %slot : index
        agen.vector_store %y to "lx"[%at] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 63 >= 0, d0 - d1 <= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : vector<2x64xf16>
        %k = dataflow.instance_index "corelet" : index
        scf.yield %slot : index
      }
    }
    func.return
  }
}
