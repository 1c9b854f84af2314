// spyre with a 128 KiB scratchpad per core (a test device: small kernels take the
// paths large ones take on spyre). 32 cores on a bidirectional ring, 128 KiB
// scratchpad (LX) per core, two corelets per core, 128-byte sticks (64 f16), device
// memory shared by all cores.
//
// Every figure marked "estimate" is ours, not a published number. The clock is assumed
// to be 1 GHz (estimate), so bytes per cycle read as GB/s.

#LX = {kind = "LX", size = 131072}                   // 128 KiB per core
#STICK_LOAD = #ktdf_arch.feature.load<word_size = 128, access_granularity = 128>
#STICK_STORE = #ktdf_arch.feature.store<word_size = 128, access_granularity = 128>
#FIFO = #ktdf_arch.feature.queue<depth = 16, ordered>   // depth: estimate

ktdf_arch.device @spyre attributes {
  clock = #ktdf_arch.clock<1 GHz>,                    // estimate
  mem_space_mapping = #ktdf_arch.map<global = "DDR", ct_local = "LX">
} {
  // 128 GiB of LPDDR5 (estimate). ~150 GB/s one way shared by all cores = 150 bytes per
  // cycle at 1 GHz (estimate); 300-cycle access latency (estimate).
  %ddr = ktdf_arch.memory @ddr {kind = "DDR", size = 137438953472, bandwidth = 150, latency = 300}

  %lx_all = ktdf_arch.group @core {kind = "core", count = 32} share(%ddr) {
    %lx = ktdf_arch.memory @lx #LX
    %dma_load = ktdf_arch.exec_unit @dma_load {kind = "dma", features = [#STICK_LOAD]}
    %dma_store = ktdf_arch.exec_unit @dma_store {kind = "dma", features = [#STICK_STORE]}
    // One core's DMA link: 128 bytes/cycle each way (estimate); the shared DDR caps the sum.
    ktdf_arch.datapath %ddr to %dma_load {transfer_granularity = 128, bandwidth = 128, latency = 20} : memory, exec_unit
    ktdf_arch.datapath %dma_load to %lx {transfer_granularity = 128, bandwidth = 128} : exec_unit, memory
    ktdf_arch.datapath %lx to %dma_store {transfer_granularity = 128, bandwidth = 128} : memory, exec_unit
    ktdf_arch.datapath %dma_store to %ddr {transfer_granularity = 128, bandwidth = 128, latency = 20} : exec_unit, memory

    ktdf_arch.group @corelet {kind = "corelet", count = 2} share(%lx) {
      %ld = ktdf_arch.exec_unit @lx_load {kind = "load", features = [#STICK_LOAD]}
      %st = ktdf_arch.exec_unit @lx_store {kind = "store", features = [#STICK_STORE]}
      // Vector unit: one 128-byte stick per instruction: 64 f16 / 64 df16 / 32 f32 lanes;
      // 4 KiB register file and 6-cycle latency are estimates.
      %sfu = ktdf_arch.exec_unit @sfu {kind = "sfu", features = [
               #ktdf_arch.feature.compute<class = "vector", register_file = 4096, latency = 6>,
               #ktdf_arch.feature.simd<lanes = {f16 = 64, df16 = 64, f32 = 32}, splat, zero_pad>]}
      // Systolic array for matrix work (the matrix unit): an 8x8 array of processing
      // elements (the array shape of IBM's AI-core papers; estimate for Spyre). Each
      // element does one f16 multiply-accumulate per cycle, 64 MACs per cycle per array
      // (estimate); f32 operands at a quarter of that rate (estimate). Partial sums are
      // kept in f32 at most (estimate: fp16 inputs, fp32 accumulation as in IBM's
      // published reduced-precision training work). Operands arrive from the scratchpad
      // through lx_load: A as rows of its K slab, B as K rows of the block's columns,
      // either may be stored transposed (the load unit reads strided boxes). Lanes per
      // stick as above; latency estimate.
      %pt = ktdf_arch.exec_unit @pt {kind = "systolic", features = [
              #ktdf_arch.feature.compute<class = "matrix", rows = 8, cols = 8, macs = {f16 = 64, f32 = 16}, accumulator = "f32", latency = 16>,
              #ktdf_arch.feature.simd<lanes = {f16 = 64, df16 = 64, f32 = 32}>]}
      // LX ports 128 bytes/cycle with 4-cycle latency (estimate).
      ktdf_arch.datapath %lx to %ld {transfer_granularity = 128, bandwidth = 128, latency = 4} : memory, exec_unit
      ktdf_arch.datapath %ld to %sfu {bandwidth = 128, queue = #FIFO} : exec_unit, exec_unit
      ktdf_arch.datapath %ld to %pt {bandwidth = 128, queue = #FIFO} : exec_unit, exec_unit
      ktdf_arch.datapath %pt to %sfu {bandwidth = 128, queue = #FIFO} : exec_unit, exec_unit
      // The array's results may also leave for the scratchpad directly (assumption).
      ktdf_arch.datapath %pt to %st {bandwidth = 128, queue = #FIFO} : exec_unit, exec_unit
      ktdf_arch.datapath %sfu to %st {bandwidth = 128, queue = #FIFO} : exec_unit, exec_unit
      ktdf_arch.datapath %st to %lx {transfer_granularity = 128, bandwidth = 128, latency = 4} : exec_unit, memory
    }
    ktdf_arch.yield %lx
  } -> memory

  // The ring joins the cores' scratchpads: 128 bytes/cycle each way per link;
  // 2 cycles per stop (estimate).
  ktdf_arch.switch @ring ports(%lx_all) {topology = "ring", bidirectional, bandwidth = 128, latency = 2, transfer_granularity = 128}

  // The vector unit has sigmoid and multiply but no SiLU instruction (assumption):
  // silu(x) = x * sigmoid(x). One pattern per float type arith can multiply; a df16
  // silu is left as it is.
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
