"""Routing over the datapath graph, on the shipped devices and on a new one."""

from __future__ import annotations

import pytest

from spyre_sched.device import find_route, load_device
from spyre_sched.device.model import transfer_cycles
from spyre_sched.errors import DeviceError

from ktdf_arch_testutil import TINY


def test_sample_ddr_to_compute():
    route = find_route(load_device("sample_device"), "ddr", "core0.corelet1.sfu")
    assert route.nodes == ("ddr", "core0.dma_load", "core0.l1",
                           "core0.corelet1.l1_load", "core0.corelet1.sfu")
    assert [(h.unit, h.lands_in) for h in route.hops] == [
        ("core0.dma_load", "core0.l1"), ("core0.corelet1.l1_load", "core0.corelet1.sfu")]
    first, second = route.hops
    assert first.bandwidth == 256 and first.latency == 100 and first.transfer_granularity == 64
    assert first.queue_depth is None
    assert second.queue_depth == 16          # lands in the FIFO in front of the SFU
    assert route.transfer_cycles(4096) == (16 + 100) + (32 + 4)


def test_sample_scratchpad_to_compute_skips_dma():
    route = find_route(load_device("sample_device"), "core0.l1", "core0.corelet0.sfu")
    assert route.units == ("core0.corelet0.l1_load",)
    assert all("dma" not in n for n in route.nodes)


def test_sample_compute_to_scratchpad_and_back_to_ddr():
    dev = load_device("sample_device")
    assert find_route(dev, "core0.corelet0.sfu", "core0.l1").units == (
        "core0.corelet0.sfu", "core0.corelet0.l1_store")
    assert find_route(dev, "core0.corelet0.sfu", "ddr").units == (
        "core0.corelet0.sfu", "core0.corelet0.l1_store", "core0.dma_store")


def test_routes_never_pass_through_a_compute_unit():
    dev = load_device("sample_device")
    # corelet0's SFU output can reach corelet1 only via L1, not via another SFU.
    route = find_route(dev, "core0.corelet0.sfu", "core0.corelet1.sfu")
    inner = route.nodes[1:-1]
    assert not any(dev.units[n].is_compute for n in inner if n in dev.units)
    assert "core0.l1" in inner


def test_spyre_ddr_to_compute_and_scratchpad_to_compute():
    dev = load_device("spyre")
    assert find_route(dev, "ddr", "core3.corelet1.sfu").units == (
        "core3.dma_load", "core3.corelet1.lx_load")
    assert find_route(dev, "core3.lx", "core3.corelet1.sfu").units == ("core3.corelet1.lx_load",)
    # The shared DDR's read latency counts on the hop that reads it.
    assert find_route(dev, "ddr", "core0.lx").hops[0].latency == 300 + 20


def test_spyre_cross_core_route_uses_ring():
    dev = load_device("spyre")
    route = find_route(dev, "core3.lx", "core5.corelet0.sfu")
    assert route.nodes == ("core3.lx", "ring.stop3", "ring.stop4", "ring.stop5", "core5.lx",
                           "core5.corelet0.lx_load", "core5.corelet0.sfu")
    assert route.hops[-2].lands_in == "core5.lx"


def test_spyre_ring_goes_the_short_way_round():
    dev = load_device("spyre")
    assert find_route(dev, "core1.lx", "core30.lx").nodes[1:-1] == (
        "ring.stop1", "ring.stop0", "ring.stop31", "ring.stop30")
    # Far cores, small transfer: the ring (17 store-and-forward stops of 1 + 2 cycles)
    # beats a round trip through DDR (300-cycle reads).
    far = find_route(dev, "core0.lx", "core16.lx", nbytes=64)
    assert "ddr" not in far.nodes and len(far.nodes) == 19


def test_route_minimises_the_reported_time_for_the_transfer_size():
    dev = load_device("spyre")
    # 4 KiB: every ring stop stores and forwards 32 cycles, so 17 stops (17 * 34 cycles)
    # lose to DDR (two DMA hops), and the router says so in the figure it reports.
    big = find_route(dev, "core0.lx", "core16.lx", nbytes=4096)
    ring = find_route(dev, "core0.lx", "core16.lx", nbytes=64)
    assert "ddr" in big.nodes
    assert big.transfer_cycles(4096) < ring.transfer_cycles(4096)
    assert ring.transfer_cycles(64) < big.transfer_cycles(64)


def test_routes_are_deterministic():
    dev = load_device("spyre")
    assert find_route(dev, "core0.lx", "core16.lx") == find_route(dev, "core0.lx", "core16.lx")
    # Equal either way round: ties go to the smaller name sequence.
    assert find_route(dev, "core0.lx", "core16.lx", nbytes=64).nodes[2] == "ring.stop1"


def test_a_route_is_searched_once_per_device_and_question(monkeypatch):
    # The emulator asks for every unit's paths at every launch and the cost model for
    # every transfer's: one Dijkstra over the whole device per question, not per ask.
    import spyre_sched.device.routing as routing

    dev = load_device("spyre")
    searches = []
    search = routing._search
    monkeypatch.setattr(routing, "_search", lambda *a: searches.append(a) or search(*a))
    first = find_route(dev, "core3.lx", "core9.lx", nbytes=777)
    assert find_route(dev, "core3.lx", "core9.lx", nbytes=777) is first
    assert len(searches) == 1
    assert find_route(dev, "core3.lx", "core9.lx", nbytes=778) == first  # its own question
    assert len(searches) == 2
    # a question with no answer is refused the same way every time, searched once
    for _ in range(2):
        with pytest.raises(DeviceError, match="no route from ddr to core3.lx"):
            find_route(dev, "ddr", "core3.lx", nbytes=777, switches_only=True)
    assert len(searches) == 3


def _dma(name: str, latency: int) -> str:
    return (f'    %{name} = ktdf_arch.exec_unit @{name} {{kind = "dma", latency = {latency}, '
            'features = [#ktdf_arch.feature.load<word_size = 64, access_granularity = 64>]}\n'
            f"    ktdf_arch.datapath %ddr to %{name} {{bandwidth = 64}} : memory, exec_unit\n"
            f"    ktdf_arch.datapath %{name} to %l1 {{bandwidth = 64}} : exec_unit, memory\n")


def test_route_counts_unit_latency(write_device):
    # Equal datapaths; the DMA units differ only in their own latency (100, 5, 50). The
    # slow one sorts first by name, so only the latency can make the router avoid it.
    text = TINY.replace(
        '    %vu = ', _dma("a_slow", 100) + _dma("b_fast", 5) + '    %vu = ').replace(
        '%dma = ktdf_arch.exec_unit @dma {kind = "dma",',
        '%dma = ktdf_arch.exec_unit @dma {kind = "dma", latency = 50,')
    dev = load_device(write_device(text))
    route = find_route(dev, "ddr", "core0.l1")
    assert route.units == ("core0.b_fast",)
    assert route.transfer_cycles(4096) == 4096 // 64 + 5
    assert route.hops[0].latency == 5


def test_one_transfer_formula_for_datapath_hop_and_route():
    dev = load_device("sample_device")
    route = find_route(dev, "ddr", "core0.corelet1.sfu")
    dp = dev.datapath("ddr", "core0.dma_load")
    for n in (0, 1, 255, 256, 257, 4096):
        assert dp.transfer_cycles(n) == transfer_cycles(n, dp.bandwidth, dp.latency)
        assert dp.occupancy(n) == -(-n // dp.bandwidth)
        for hop in route.hops:
            assert hop.transfer_cycles(n) == hop.occupancy(n) + hop.latency
        assert route.transfer_cycles(n) == sum(route.occupancy(n)) + route.latency


def test_unknown_endpoint_suggests_names():
    with pytest.raises(DeviceError, match="no unit or memory named 'sfu'; did you mean"):
        find_route(load_device("spyre"), "ddr", "sfu")


def test_no_route(write_device):
    # In the tiny device the vector unit is a sink: nothing leaves it.
    with pytest.raises(DeviceError, match="no route from core0.vu to ddr"):
        find_route(load_device(write_device(TINY)), "core0.vu", "ddr")


THREE_LEVELS = """\
// DDR -> L2 (shared by two cores) -> L1 per core; nothing here is known to the code.
ktdf_arch.device @three_level attributes {clock = #ktdf_arch.clock<2 GHz>,
    mem_space_mapping = #ktdf_arch.map<global = "DDR", ct_local = "L1">} {
  %ddr = ktdf_arch.memory @ddr {kind = "DDR", size = 1073741824}
  %l2 = ktdf_arch.memory @l2 {kind = "L2", size = 8388608}
  %fill = ktdf_arch.exec_unit @l2_fill {kind = "dma", features = [#ktdf_arch.feature.load<word_size = 64, access_granularity = 64>]}
  ktdf_arch.datapath %ddr to %fill {bandwidth = 64, latency = 200} : memory, exec_unit
  ktdf_arch.datapath %fill to %l2 {bandwidth = 64} : exec_unit, memory
  %cores = ktdf_arch.group @cpu {kind = "core", count = 2} share(%l2) {
    %l1 = ktdf_arch.memory @l1 {kind = "L1", size = 65536}
    %dma = ktdf_arch.exec_unit @l1_fill {kind = "dma", features = [#ktdf_arch.feature.load<word_size = 32, access_granularity = 32>]}
    %ld = ktdf_arch.exec_unit @ld {kind = "load", features = [#ktdf_arch.feature.load<word_size = 32, access_granularity = 32>]}
    %alu = ktdf_arch.exec_unit @alu {kind = "alu", features = [#ktdf_arch.feature.compute<class = "vector">, #ktdf_arch.feature.simd<lanes = {f32 = 8, f16 = 16}>]}
    ktdf_arch.datapath %l2 to %dma {bandwidth = 32, latency = 20} : memory, exec_unit
    ktdf_arch.datapath %dma to %l1 {bandwidth = 32} : exec_unit, memory
    ktdf_arch.datapath %l1 to %ld {bandwidth = 32, latency = 2} : memory, exec_unit
    ktdf_arch.datapath %ld to %alu {bandwidth = 32, queue = #ktdf_arch.feature.queue<depth = 4>} : exec_unit, exec_unit
    ktdf_arch.yield %l1
  } -> memory
}
"""


def test_three_memory_levels_route_without_code_change(write_device):
    dev = load_device(write_device(THREE_LEVELS))
    assert dev.num_cores == 2 and dev.simd_lanes("f32") == 8
    route = find_route(dev, "ddr", "cpu1.alu")
    assert route.nodes == ("ddr", "l2_fill", "l2", "cpu1.l1_fill", "cpu1.l1", "cpu1.ld", "cpu1.alu")
    assert [h.lands_in for h in route.hops] == ["l2", "cpu1.l1", "cpu1.alu"]
    assert route.hops[-1].queue_depth == 4
    assert dev.scratchpad_bytes == 65536


def test_imported_device_keeps_body_and_overrides_attributes(write_device):
    write_device(THREE_LEVELS, "base.mlir")
    path = write_device(
        'ktdf_arch.device @renamed import("base.mlir") attributes '
        "{clock = #ktdf_arch.clock<750 MHz>}\n", "wrapper.mlir")
    dev = load_device(path)
    assert dev.name == "renamed" and dev.clock_hz == 750 * 10**6
    assert dev.mem_space_mapping == {"global": "DDR", "ct_local": "L1"}
    assert find_route(dev, "ddr", "cpu0.alu").units == ("l2_fill", "cpu0.l1_fill", "cpu0.ld")


def test_interconnect_hop_is_one_hop_by_the_reading_dma():
    """A read of core 3's scratchpad by core 0: issued by core 0's DMA engine, one hop
    holding the ring links between them (the short way round of spyre's 32 stops: 3, 2,
    1, 0), at
    the slowest link's bandwidth and every link's latency."""
    from spyre_sched.device.routing import interconnect_hop, interconnect_issuer

    dev = load_device("spyre")
    issuer = interconnect_issuer(dev, 0)
    assert issuer == "core0.dma_load"
    hop = interconnect_hop(dev, "core3.lx", "core0.lx", issuer)
    route = find_route(dev, "core3.lx", "core0.lx")
    assert hop.unit == issuer and (hop.source, hop.lands_in) == ("core3.lx", "core0.lx")
    assert hop.datapaths == tuple(dp for h in route.hops for dp in h.datapaths)
    assert [(dp.source, dp.target) for dp in hop.datapaths][1:4] == [
        ("ring.stop3", "ring.stop2"), ("ring.stop2", "ring.stop1"), ("ring.stop1", "ring.stop0")]
    assert hop.latency == route.latency and hop.bandwidth == 128
    # the owner reading its own part: a copy through its DMA's datapath into the scratchpad
    own = interconnect_hop(dev, "core0.lx", "core0.lx", issuer)
    assert [(dp.source, dp.target) for dp in own.datapaths] == [("core0.dma_load", "core0.lx")]


def test_farthest_reader_is_the_most_links_away():
    from spyre_sched.device.routing import farthest_reader

    dev = load_device("spyre")
    assert farthest_reader(dev, 0, range(4)) == 3     # three links away of 32 stops
    assert farthest_reader(dev, 1, range(4)) == 3     # two links; core 0 is one
    assert farthest_reader(dev, 0, range(1)) == 0     # the owner alone reads its own part


def test_a_per_core_memory_name_resolves_to_each_cores_owner():
    from spyre_sched.device.routing import per_core_memory, resolve_per_core

    spyre = load_device("spyre")
    name = per_core_memory([1, 2, 0], "lx")
    assert name == "cores[1,2,0].lx"
    assert [resolve_per_core(spyre, name, c) for c in range(3)] == \
        ["core1.lx", "core2.lx", "core0.lx"]
    assert resolve_per_core(spyre, "lx", 5) == "lx"  # any other name unchanged
    with pytest.raises(DeviceError, match="lists owners for 3 cores; core 3 runs it"):
        resolve_per_core(spyre, name, 3)
    with pytest.raises(DeviceError, match="core 40 is not a core"):
        resolve_per_core(spyre, "cores[40].lx", 0)
    with pytest.raises(DeviceError, match="expected cores"):
        resolve_per_core(spyre, "cores[x].lx", 0)
