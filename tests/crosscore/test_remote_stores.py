"""Stores into another core's scratchpad: the result lands in the storing core's own
scratchpad, then crosses the ring, a transfer issued by the storing core's DMA engine that
reads its scratchpad (`interconnect_pusher`), routed by the device model, timed and
contended in the emulator and priced in the cost model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spyre_sched
from ring_transfers import ring_transfers
from emulator.device.machine import EmulatedDevice
from spyre_sched import api
from spyre_sched.device import find_route, load_device
from spyre_sched.device.routing import interconnect_pusher
from spyre_sched.errors import ExecutionError

ROOT = Path(__file__).resolve().parents[2]
NEIGHBOURS = ROOT / "tests" / "crosscore" / "kernels" / "neighbour_stores.mlir"
SWAPPED = ROOT / "tests" / "crosscore" / "kernels" / "swapped_stores.mlir"
TWO_SCRATCHPADS = ROOT / "tests" / "emulator" / "kernels" / "distributed_two_scratchpads.mlir"


def test_the_storing_cores_engine_that_reads_its_scratchpad_pushes():
    device = load_device("spyre")
    assert interconnect_pusher(device, 2) == "core2.dma_store"
    emu = EmulatedDevice(device)
    path = emu.path("core1.dma_store", "core1.lx", "core0.lx")
    assert path.hop.unit == "core1.dma_store"
    assert path.hop.latency == find_route(device, "core1.lx", "core0.lx").latency
    assert [s for s in path.shared if s.startswith("ring")] == ["ring.stop1->ring.stop0"]
    # the owner storing into its own part is a copy in its scratchpad, over no link
    own = emu.path("core0.dma_store", "core0.lx", "core0.lx")
    assert not [s for s in own.shared if s.startswith("ring")]
    # a third core's engine moves neither's data
    with pytest.raises(ExecutionError, match="cannot move data core0.lx -> core1.lx"):
        emu.path("core2.dma_store", "core0.lx", "core1.lx")


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_tiles_store_into_the_next_cores_part_and_read_it_back(strategy):
    """Tile t squares its rows into core t+1's part (tile 3 into core 0's), reads them
    back from there and adds its rows: a wrong place for either move changes Y."""
    x = np.random.default_rng(5).uniform(-2, 2, (128, 64)).astype(np.float16)
    result = spyre_sched.run(str(NEIGHBOURS), {"X": x}, strategy=strategy)
    assert result.verdict == "MATCH", result.mismatches
    np.testing.assert_array_equal(result.outputs["Y"], x * x + x)
    # what each part holds after the kernel is an output too: core k's, tile k-1's squares
    for k in range(4):
        rows = x[32 * ((k - 1) % 4):][:32]
        np.testing.assert_array_equal(result.outputs[f"ct_local(core {k})@0x0"],
                                      (rows * rows).reshape(-1))
    moved = result.datapath_bytes
    # 32 x 64 f16 = 4096 bytes each way per tile: tile 0 pushes to core 1 and tile 3 reads
    # core 0 back over stop0 -> stop1 (core 3 is three stops from core 0, the short way)
    assert moved.get("ring.stop0->ring.stop1") == 2 * 4096
    assert moved.get("ring.stop1->ring.stop0") == 2 * 4096
    assert "ring.stop0->ring.stop31" not in moved


def test_a_plain_copy_into_the_next_cores_part(tmp_path):
    """The same with X's rows copied as they are (no compute): the copy pipeline's route
    ends with the push, the destination's core given per tile."""
    text = NEIGHBOURS.read_text().replace(
        "ktdp.store %sq, %Sn", "ktdp.store %x, %Sn")
    kernel = tmp_path / "neighbour_copy.mlir"
    kernel.write_text(text)
    x = np.random.default_rng(11).uniform(-2, 2, (128, 64)).astype(np.float16)
    result = spyre_sched.run(str(kernel), {"X": x})
    assert result.verdict == "MATCH", result.mismatches
    np.testing.assert_array_equal(result.outputs["Y"], x + x)
    for k in range(4):
        np.testing.assert_array_equal(result.outputs[f"ct_local(core {k})@0x0"],
                                      x[32 * ((k - 1) % 4):][:32].reshape(-1))


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_tiles_choose_their_partner_by_a_select_on_the_tile_id(strategy):
    """The partner (0, 2, 1, 3)[t] is an `arith.select` chain on the tile id, folded per
    core by the lowering; tiles 0 and 3 store into their own part through the same view
    (a copy within the scratchpad), tiles 1 and 2 over the ring."""
    x = np.random.default_rng(10).uniform(-2, 2, (128, 64)).astype(np.float16)
    result = spyre_sched.run(str(SWAPPED), {"X": x}, strategy=strategy)
    assert result.verdict == "MATCH", result.mismatches
    np.testing.assert_array_equal(result.outputs["Y"], x * x + x)
    for k, tile in enumerate((0, 2, 1, 3)):
        rows = x[32 * tile:][:32]
        np.testing.assert_array_equal(result.outputs[f"ct_local(core {k})@0x0"],
                                      (rows * rows).reshape(-1))


def test_cost_model_prices_the_push_over_the_ring():
    pushes = [w for w in ring_transfers(NEIGHBOURS)
              if w.source.endswith(".lx") and w.target.endswith(".lx")]
    device = load_device("spyre")
    # the slowest tile's push: tile 3 into core 0, three links
    slowest = max(pushes, key=lambda t: t.latency)
    assert slowest.latency == find_route(device, "core3.lx", "core0.lx").latency
    assert {(t.source, t.target) for t in pushes} >= {("core3.lx", "core0.lx")}


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_every_tile_copies_into_both_scratchpads(strategy):
    """Both tiles copy X into a view split over the two cores' scratchpads (the same
    values: a redundant store), then read it back whole and a column-major middle."""
    x = np.random.default_rng(6).uniform(-2, 2, (8, 64)).astype(np.float16)
    result = spyre_sched.run(str(TWO_SCRATCHPADS), {"X": x}, strategy=strategy)
    assert result.verdict == "MATCH", result.mismatches
    np.testing.assert_array_equal(result.outputs["Y"], x)
    np.testing.assert_array_equal(result.outputs["Yt"], x[2:6].T)


def _after_normal_form(kernel: Path) -> str:
    module, _, _ = api.load_schedule_input(str(kernel), "spyre",
                                           stop_after="resolve-distributed-views")
    return api.print_ir(module)


def test_a_kernel_printed_after_the_normal_form_runs_again(tmp_path):
    """The printed kernel names each tile's core in `ktdf.owner_by_tile`: it is KTIR still
    (not ScheduleIR), the race check and the reference read the core per tile, and it
    compiles and matches as the kernel did."""
    text = _after_normal_form(NEIGHBOURS)
    assert "ktdf.owner_by_tile = array<i64: 1, 2, 3, 0>" in text
    assert not api._is_schedule_ir(text)
    x = np.random.default_rng(7).uniform(-2, 2, (128, 64)).astype(np.float16)
    printed = tmp_path / "after.mlir"
    printed.write_text(text)
    result = spyre_sched.run(str(printed), {"X": x})
    assert result.verdict == "MATCH", result.mismatches
    np.testing.assert_array_equal(result.outputs["Y"], x * x + x)


def test_owner_tables_that_send_two_tiles_to_one_core_race():
    from spyre_sched.frontend.kernel import parse_kernel
    from spyre_sched.polyhedral.checks import proven_races

    text = _after_normal_form(NEIGHBOURS)
    assert not proven_races(parse_kernel(text, "after.mlir").func)
    clash = text.replace("array<i64: 1, 2, 3, 0>", "array<i64: 1, 1, 3, 0>")
    races = proven_races(parse_kernel(clash, "clash.mlir").func)
    assert races and "tiles 0 and 1 both write" in races[0].message \
        and "ct_local(core 1)" in races[0].message

