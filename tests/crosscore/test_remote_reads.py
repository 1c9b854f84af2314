"""Reads of another core's scratchpad: a transfer over the ring issued by the reading
core's DMA engine, routed by the device model, timed and contended in the emulator (each
ring link a shared resource) and priced in the cost model (the links leaving the owner's
stop shared by every reader)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spyre_sched
from ring_transfers import ring_transfers
from emulator.device.machine import EmulatedDevice
from spyre_sched.device import find_route, load_device
from spyre_sched.errors import ExecutionError

ROOT = Path(__file__).resolve().parents[2]
BROADCAST = ROOT / "examples" / "scratchpad_broadcast.mlir"


def test_emulator_path_holds_every_ring_link_it_crosses():
    emu = EmulatedDevice(load_device("spyre"))
    path = emu.path("core2.dma_load", "core0.lx", "core2.lx")
    assert path.hop.unit == "core2.dma_load"
    assert path.hop.latency == find_route(emu.device, "core0.lx", "core2.lx").latency
    assert [s for s in path.shared if s.startswith("ring")] == [
        "ring.stop0->ring.stop1", "ring.stop1->ring.stop2"]
    # the owner reading its own part is a copy in its scratchpad, over no link
    own = emu.path("core0.dma_load", "core0.lx", "core0.lx")
    assert not [s for s in own.shared if s.startswith("ring")]


def test_only_the_reading_cores_dma_issues_a_remote_read():
    emu = EmulatedDevice(load_device("spyre"))
    with pytest.raises(ExecutionError, match="cannot move data core0.lx -> core1.lx"):
        emu.path("core2.dma_load", "core0.lx", "core1.lx")


@pytest.fixture(scope="module")
def broadcast():
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, (128, 64)).astype(np.float16)
    return x, spyre_sched.run(str(BROADCAST), {"X": x})


def test_broadcast_from_a_scratchpad_matches_numpy(broadcast):
    x, result = broadcast
    assert result.verdict == "MATCH", result.mismatches
    expected = (np.tile(x[:32], (4, 1)).astype(np.float32) + x.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(result.outputs["Y"], expected)


def test_broadcast_bytes_cross_the_ring_links_on_the_way(broadcast):
    # S is 32x64 f16 = 4096 bytes in core 0's scratchpad; cores 1, 2 and 3 each read it
    # the short way round: all three over stop0 -> stop1, two over stop1 -> stop2, ...
    _, result = broadcast
    moved = result.datapath_bytes
    assert moved.get("ring.stop0->ring.stop1") == 3 * 4096
    assert moved.get("ring.stop1->ring.stop2") == 2 * 4096
    assert moved.get("ring.stop2->ring.stop3") == 4096
    assert "ring.stop0->ring.stop31" not in moved


def test_cost_model_prices_the_farthest_reader_and_the_owners_links():
    ring = ring_transfers(BROADCAST)
    assert len(ring) == 1
    t = ring[0]
    device = load_device("spyre")
    # core 3 is the reader farthest from core 0 (three links); every other tile reads the
    # same bytes out of core 0's stop, whose two outgoing links they share
    assert (t.source, t.target) == ("core0.lx", "core3.lx")
    assert t.latency == find_route(device, "core0.lx", "core3.lx").latency
    assert (t.shared_memory, t.shared_bandwidth, t.sharers) == ("ring.stop0 links", 256, 3)


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_tiles_reading_other_cores_blocks_at_per_tile_places(strategy):
    """A 128x64 tensor in 32-row blocks in cores 0..3's scratchpads; tile t < 3 reads rows
    32t + 16 .. 32t + 47 (half of its own block, half of the next core's), tile 3 rows
    96..127: cut at the blocks' edge, each half read through a view whose core is given
    per tile (`ktdf.owner_by_tile`), at a per-tile place in that block."""
    import emulator.reference as reference

    kernel = ROOT / "tests" / "polyhedral" / "kernels" / "distributed_128x64.mlir"
    made = reference.make_inputs(reference.as_kernel(kernel), 0)
    x = np.concatenate([made[f"ct_local(core {k})@0x0"].reshape(32, 64) for k in range(4)])
    result = spyre_sched.run(str(kernel), {}, strategy=strategy)
    assert result.verdict == "MATCH", result.mismatches
    rows = [16, 48, 80, 96]
    want = np.concatenate([x[r:r + 32] for r in rows])
    np.testing.assert_array_equal(result.outputs["O"], want)
