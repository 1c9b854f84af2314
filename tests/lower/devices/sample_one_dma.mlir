// sample_device with one DMA engine moving data both ways (a test device: a copy's fill
// and drain are stages of one engine, ordered by a token between them).
// sample_device: one core, 1 MiB L1, 1 GiB DDR, two corelets.
// Figures not fixed by the specification are assumptions and say so.

#L1 = {kind = "L1", size = 1048576}
#DMA_LOAD = #ktdf_arch.feature.load<word_size = 64, access_granularity = 64>
#DMA_STORE = #ktdf_arch.feature.store<word_size = 64, access_granularity = 64>
#FIFO16 = #ktdf_arch.feature.queue<depth = 16, ordered>

ktdf_arch.device @sample_one_dma attributes {
  clock = #ktdf_arch.clock<1 GHz>,                  // assumption
  mem_space_mapping = #ktdf_arch.map<global = "DDR", ct_local = "L1">
} {
  %ddr = ktdf_arch.memory @ddr {kind = "DDR", size = 1073741824}

  %l1_out = ktdf_arch.group @core0 {kind = "core"} share(%ddr) {
    %l1 = ktdf_arch.memory @l1 #L1
    %dma = ktdf_arch.exec_unit @dma {kind = "dma", features = [#DMA_LOAD, #DMA_STORE]}
    // DMA: 256 bytes/cycle read, 128 bytes/cycle write; latency 100 cycles is an assumption.
    ktdf_arch.datapath %ddr to %dma {transfer_granularity = 64, bandwidth = 256, latency = 100} : memory, exec_unit
    ktdf_arch.datapath %dma to %l1 {transfer_granularity = 64, bandwidth = 256} : exec_unit, memory
    ktdf_arch.datapath %l1 to %dma {transfer_granularity = 64, bandwidth = 128} : memory, exec_unit
    ktdf_arch.datapath %dma to %ddr {transfer_granularity = 64, bandwidth = 128, latency = 100} : exec_unit, memory

    // The two corelets are written out as sibling groups (spyre.mlir uses `count`).
    ktdf_arch.group @corelet0 {kind = "corelet"} share(%l1) {
      %ld = ktdf_arch.exec_unit @l1_load {kind = "load", features = [#ktdf_arch.feature.load<word_size = 128, access_granularity = 64>]}
      %st = ktdf_arch.exec_unit @l1_store {kind = "store", features = [#ktdf_arch.feature.store<word_size = 128, access_granularity = 64>]}
      %sfu = ktdf_arch.exec_unit @sfu {kind = "sfu", features = [
               #ktdf_arch.feature.compute<class = "vector", register_file = 2048, latency = 4>,
               #ktdf_arch.feature.simd<lanes = {f16 = 64, f32 = 32, df16 = 64}, splat, zero_pad>]}
      // L1 port 128 bytes/cycle and 4-cycle latency are assumptions.
      ktdf_arch.datapath %l1 to %ld {transfer_granularity = 64, bandwidth = 128, latency = 4} : memory, exec_unit
      ktdf_arch.datapath %ld to %sfu {bandwidth = 128, queue = #FIFO16} : exec_unit, exec_unit
      ktdf_arch.datapath %sfu to %st {bandwidth = 128, queue = #FIFO16} : exec_unit, exec_unit
      ktdf_arch.datapath %st to %l1 {transfer_granularity = 64, bandwidth = 128, latency = 4} : exec_unit, memory
    }
    ktdf_arch.group @corelet1 {kind = "corelet"} share(%l1) {
      %ld = ktdf_arch.exec_unit @l1_load {kind = "load", features = [#ktdf_arch.feature.load<word_size = 128, access_granularity = 64>]}
      %st = ktdf_arch.exec_unit @l1_store {kind = "store", features = [#ktdf_arch.feature.store<word_size = 128, access_granularity = 64>]}
      %sfu = ktdf_arch.exec_unit @sfu {kind = "sfu", features = [
               #ktdf_arch.feature.compute<class = "vector", register_file = 2048, latency = 4>,
               #ktdf_arch.feature.simd<lanes = {f16 = 64, f32 = 32, df16 = 64}, splat, zero_pad>]}
      ktdf_arch.datapath %l1 to %ld {transfer_granularity = 64, bandwidth = 128, latency = 4} : memory, exec_unit
      ktdf_arch.datapath %ld to %sfu {bandwidth = 128, queue = #FIFO16} : exec_unit, exec_unit
      ktdf_arch.datapath %sfu to %st {bandwidth = 128, queue = #FIFO16} : exec_unit, exec_unit
      ktdf_arch.datapath %st to %l1 {transfer_granularity = 64, bandwidth = 128, latency = 4} : exec_unit, memory
    }
    ktdf_arch.yield %l1
  } -> memory

  // The SFU has sigmoid and multiply but no SiLU instruction: silu(x) = x * sigmoid(x).
  // One pattern per float type arith can multiply; a df16 silu is left for the lowering.
  ktdf_arch.patterns ["pre_mapping"] {
    pdl.pattern @expand_silu_f16 : benefit(1) {
      %x = pdl.operand
      %t = pdl.type : f16
      %silu = pdl.operation "spyreop.silu" (%x : !pdl.value) -> (%t : !pdl.type)
      pdl.rewrite %silu {
        %sig = pdl.operation "spyreop.sigmoid" (%x : !pdl.value) -> (%t : !pdl.type)
        %s = pdl.result 0 of %sig
        %mul = pdl.operation "arith.mulf" (%x, %s : !pdl.value, !pdl.value) -> (%t : !pdl.type)
        pdl.replace %silu with %mul
      }
    }
    pdl.pattern @expand_silu_f32 : benefit(1) {
      %x = pdl.operand
      %t = pdl.type : f32
      %silu = pdl.operation "spyreop.silu" (%x : !pdl.value) -> (%t : !pdl.type)
      pdl.rewrite %silu {
        %sig = pdl.operation "spyreop.sigmoid" (%x : !pdl.value) -> (%t : !pdl.type)
        %s = pdl.result 0 of %sig
        %mul = pdl.operation "arith.mulf" (%x, %s : !pdl.value, !pdl.value) -> (%t : !pdl.type)
        pdl.replace %silu with %mul
      }
    }
  }
}
