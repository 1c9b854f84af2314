// Hand-written DataflowIR for the emulator's own tests: C = A + B on the first N rows of
// two 3x64 f16 shares, cores 0 and 1 of spyre (corelet 0 of each). Symbols 0, 1, 2: byte
// addresses of A, B, C in device memory; symbol 3: N, a run-time row count (1..3).
builtin.module {
  func.func @local_schedule_0() {
    dataflow.fifo @to_sfu "lx_load" -> "sfu" {depth = 16 : i64} : vector<64xf16>
    dataflow.fifo @to_store "sfu" -> "lx_store" {depth = 16 : i64} : vector<64xf16>
    dataflow.sync @loaded "dma_load" -> "lx_load" {initial = 0 : i64}
    dataflow.sync @computed "lx_store" -> "dma_store" {initial = 0 : i64}
    %a = symbol.create_symbol {SymbolId = 0 : i64} : index
    %b = symbol.create_symbol {SymbolId = 1 : i64} : index
    %c = symbol.create_symbol {SymbolId = 2 : i64} : index
    %rows = symbol.create_symbol {SymbolId = 3 : i64} : index
    %share = arith.constant 384 : index
    %lx_a = arith.constant 0 : index
    %lx_b = arith.constant 384 : index
    %lx_c = arith.constant 768 : index
    dataflow.program_unit @dma_load attributes {engine = "dma_load", units = ["core0.dma_load", "core1.dma_load"]} {
      %core = dataflow.instance_index "core" : index
      %off = arith.muli %core, %share : index
      %pa = arith.addi %a, %off : index
      %pb = arith.addi %b, %off : index
      %k0 = arith.constant 0 : index
      agen.composite_load_and_store "ddr"[%pa] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> to "lx"[%lx_a] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : f16
      agen.composite_load_and_store "ddr"[%pb] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> to "lx"[%lx_b] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : f16
      dataflow.sync_send @loaded peer %k0
    }
    dataflow.program_unit @lx_load attributes {engine = "lx_load", units = ["core0.corelet0.lx_load", "core1.corelet0.lx_load"]} {
      %lb = arith.constant 0 : index
      %ub = arith.addi %rows, %lx_a : index
      %one = arith.constant 1 : index
      %row = arith.constant 128 : index
      dataflow.sync_recv @loaded
      scf.for %i = %lb to %ub step %one {
        %o = arith.muli %i, %row : index
        %pa = arith.addi %lx_a, %o : index
        %pb = arith.addi %lx_b, %o : index
        %va = agen.vector_load "lx"[%pa] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : vector<1x64xf16>
        dataflow.send %va to @to_sfu : vector<1x64xf16>
        %vb = agen.vector_load "lx"[%pb] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : vector<1x64xf16>
        dataflow.send %vb to @to_sfu : vector<1x64xf16>
      }
    }
    dataflow.program_unit @sfu attributes {engine = "sfu", units = ["core0.corelet0.sfu", "core1.corelet0.sfu"]} {
      %lb = arith.constant 0 : index
      %ub = arith.addi %rows, %lx_a : index
      %one = arith.constant 1 : index
      scf.for %i = %lb to %ub step %one {
        %x = dataflow.receive @to_sfu : vector<1x64xf16>
        %y = dataflow.receive @to_sfu : vector<1x64xf16>
        %z = vectorchain.add %x, %y : vector<1x64xf16>
        dataflow.send %z to @to_store : vector<1x64xf16>
      }
    }
    dataflow.program_unit @lx_store attributes {engine = "lx_store", units = ["core0.corelet0.lx_store", "core1.corelet0.lx_store"]} {
      %lb = arith.constant 0 : index
      %ub = arith.addi %rows, %lx_a : index
      %one = arith.constant 1 : index
      %row = arith.constant 128 : index
      scf.for %i = %lb to %ub step %one {
        %z = dataflow.receive @to_store : vector<1x64xf16>
        %o = arith.muli %i, %row : index
        %pc = arith.addi %lx_c, %o : index
        agen.vector_store %z to "lx"[%pc] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : vector<1x64xf16>
      }
      dataflow.sync_send @computed
    }
    dataflow.program_unit @dma_store attributes {engine = "dma_store", units = ["core0.dma_store", "core1.dma_store"]} {
      %core = dataflow.instance_index "core" : index
      %off = arith.muli %core, %share : index
      %pc = arith.addi %c, %off : index
      %k0 = arith.constant 0 : index
      dataflow.sync_recv @computed peer %k0
      agen.composite_load_and_store "lx"[%lx_c] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> to "ddr"[%pc] #agen.access<set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 63 >= 0)>, order = affine_map<(d0, d1) -> (d0, d1)>, strides = [64, 1]> : f16
    }
    func.return
  }
}
