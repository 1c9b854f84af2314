"""A small valid device text for tests to mutate, and a line finder."""

from __future__ import annotations

TINY = """\
ktdf_arch.device @tiny attributes {clock = #ktdf_arch.clock<500 MHz>, mem_space_mapping = #ktdf_arch.map<global = "DDR", ct_local = "L1">} {
  %ddr = ktdf_arch.memory @ddr {kind = "DDR", size = 4096}
  %c = ktdf_arch.group @core0 {kind = "core"} share(%ddr) {
    %l1 = ktdf_arch.memory @l1 {kind = "L1", size = 1024}
    %dma = ktdf_arch.exec_unit @dma {kind = "dma", features = [#ktdf_arch.feature.load<word_size = 64, access_granularity = 64>]}
    %vu = ktdf_arch.exec_unit @vu {kind = "vu", features = [#ktdf_arch.feature.compute<class = "vector">, #ktdf_arch.feature.simd<lanes = {f16 = 8}>]}
    ktdf_arch.datapath %ddr to %dma {bandwidth = 64} : memory, exec_unit
    ktdf_arch.datapath %dma to %l1 {bandwidth = 64} : exec_unit, memory
    ktdf_arch.datapath %l1 to %vu {bandwidth = 64} : memory, exec_unit
    ktdf_arch.yield %l1
  } -> memory
}
"""


def line_of(text: str, snippet: str) -> int:
    """1-based number of the first line containing `snippet`."""
    for number, line in enumerate(text.splitlines(), 1):
        if snippet in line:
            return number
    raise AssertionError(f"{snippet!r} not in text")
