// three_level: a test device with three memory levels between device memory and the
// vector unit: DDR -> L2 (per core, the kernel's scratchpad) -> L1 (per corelet) ->
// FIFO -> sfu. It proves no schedule pass assumes two levels. All figures are made up
// for the test (assumptions).

#L2 = {kind = "L2", size = 1048576}
#L1 = {kind = "L1", size = 16384}
#DMA_LOAD = #ktdf_arch.feature.load<word_size = 64, access_granularity = 64>
#DMA_STORE = #ktdf_arch.feature.store<word_size = 64, access_granularity = 64>
#FIFO8 = #ktdf_arch.feature.queue<depth = 8, ordered>

ktdf_arch.device @three_level attributes {
  clock = #ktdf_arch.clock<1 GHz>,
  mem_space_mapping = #ktdf_arch.map<global = "DDR", ct_local = "L2">
} {
  %ddr = ktdf_arch.memory @ddr {kind = "DDR", size = 1073741824}

  %l2_all = ktdf_arch.group @core {kind = "core", count = 32} share(%ddr) {
    %l2 = ktdf_arch.memory @l2 #L2
    %dma_load = ktdf_arch.exec_unit @dma_load {kind = "dma", features = [#DMA_LOAD]}
    %dma_store = ktdf_arch.exec_unit @dma_store {kind = "dma", features = [#DMA_STORE]}
    ktdf_arch.datapath %ddr to %dma_load {transfer_granularity = 64, bandwidth = 64, latency = 200} : memory, exec_unit
    ktdf_arch.datapath %dma_load to %l2 {transfer_granularity = 64, bandwidth = 64} : exec_unit, memory
    ktdf_arch.datapath %l2 to %dma_store {transfer_granularity = 64, bandwidth = 64} : memory, exec_unit
    ktdf_arch.datapath %dma_store to %ddr {transfer_granularity = 64, bandwidth = 64, latency = 200} : exec_unit, memory

    ktdf_arch.group @corelet {kind = "corelet", count = 4} share(%l2) {
      %l1 = ktdf_arch.memory @l1 #L1
      %fill = ktdf_arch.exec_unit @fill {kind = "fill", features = [#DMA_LOAD]}
      %drain = ktdf_arch.exec_unit @drain {kind = "drain", features = [#DMA_STORE]}
      ktdf_arch.datapath %l2 to %fill {transfer_granularity = 64, bandwidth = 128, latency = 10} : memory, exec_unit
      ktdf_arch.datapath %fill to %l1 {transfer_granularity = 64, bandwidth = 128} : exec_unit, memory
      ktdf_arch.datapath %l1 to %drain {transfer_granularity = 64, bandwidth = 128} : memory, exec_unit
      ktdf_arch.datapath %drain to %l2 {transfer_granularity = 64, bandwidth = 128, latency = 10} : exec_unit, memory
      %ld = ktdf_arch.exec_unit @ld {kind = "load", features = [#ktdf_arch.feature.load<word_size = 64, access_granularity = 64>]}
      %st = ktdf_arch.exec_unit @st {kind = "store", features = [#ktdf_arch.feature.store<word_size = 64, access_granularity = 64>]}
      %sfu = ktdf_arch.exec_unit @sfu {kind = "sfu", features = [
               #ktdf_arch.feature.compute<class = "vector", register_file = 1024, latency = 2>,
               #ktdf_arch.feature.simd<lanes = {f16 = 32, f32 = 16}, splat, zero_pad>]}
      ktdf_arch.datapath %l1 to %ld {transfer_granularity = 64, bandwidth = 64, latency = 2} : memory, exec_unit
      ktdf_arch.datapath %ld to %sfu {bandwidth = 64, queue = #FIFO8} : exec_unit, exec_unit
      ktdf_arch.datapath %sfu to %st {bandwidth = 64, queue = #FIFO8} : exec_unit, exec_unit
      ktdf_arch.datapath %st to %l1 {transfer_granularity = 64, bandwidth = 64, latency = 2} : exec_unit, memory
    }
    ktdf_arch.yield %l2
  } -> memory
}
