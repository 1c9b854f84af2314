"""Shortcuts of the emulator that must not change a run (docs/emulator.md, "Third pass"):

- an untraced launch runs a vector op's busy time without `Simulator.delay_now`: it must
  give the traced launch's outputs, cycles and per-unit figures;
- a SharedQueue keeps the entries of its FIFOs as one running total: it must equal their
  sum after every change, and a run with shared queues must match the reference;
- a DMA's `agen.composite_load_and_store` checks both sides against the buffer it found
  last time: a transfer whose target leaves its buffer must still fault, at that op, on
  both execution paths.

- an untraced launch lets units go on ahead of the simulation's time where the traced
  one puts them back in the event queue: a token's signal that lands later waits on the
  token, a unit that reads no memory takes its FIFO entries and tokens at its own time
  (the FIFO keeps the slots until then), and a send into a full FIFO waits as its
  sender from the unit's own time: the figures must be the traced launch's.

(`tests/emulator/device/test_emu_in_place.py` compares the in-place path, where the sync
ops and the composite shortcut run, with the plain one.)"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import spyre_sched
from emulator.bundle_files import seal
from emulator.device import codegen, sim
from spyre_sched.emulate import compile_bundle

from emu_figures import assert_untraced_equals_traced, launch_figures
from spyre_sched.errors import ExecutionError

ROOT = Path(__file__).parents[3]


def _add_bundle():
    spec = importlib.util.spec_from_file_location("add_bundle", ROOT / "bench" / "add_bundle.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _figures(result) -> dict:
    return launch_figures(result)


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    """Bundles compiled once for the module: {(kernel, strategy): folder}; a kernel is an
    example's name or a path from the repository without `.mlir`."""
    made = {}

    def get(kernel: str, strategy: str) -> Path:
        if (kernel, strategy) not in made:
            folder = tmp_path_factory.mktemp(f"{Path(kernel).name}_{strategy}") / "bundle"
            source = ROOT / f"{kernel}.mlir" if "/" in kernel else \
                ROOT / "examples" / f"{kernel}.mlir"
            compile_bundle(source, folder, "spyre", "latency", strategy)
            made[(kernel, strategy)] = folder
        return made[(kernel, strategy)]

    return get


@pytest.mark.parametrize("kernel, strategy", [("row_sum", "solver"), ("softmax_rows", "heuristic")])
def test_untraced_run_same_figures_as_traced(kernel, strategy, bundles, tmp_path):
    bundle = bundles(kernel, strategy)
    traced = spyre_sched.run(bundle, seed=7, trace=tmp_path / "trace.json")
    plain = spyre_sched.run(bundle, seed=7, reference=traced.reference_run)
    assert traced.matches and plain.matches
    want, got = _figures(traced), _figures(plain)
    for key in want:
        assert got[key] == want[key], f"{key} differs between the traced and the untraced run"


def test_shared_queue_total_kept_with_its_fifos(bundles, monkeypatch):
    """softmax_rows' FIFOs of one datapath take its queue in turns (their depths add up to
    more than it holds): the queue's running total is checked against its FIFOs' entries
    every time entries leave one of them."""
    bundle = bundles("softmax_rows", "solver")
    checked = []
    freed = sim.Simulator._fifo_freed

    def checking(self, fifo):
        queue = fifo.queue
        if queue is not None:
            assert queue.held == sum(f.held for f in queue.fifos), queue.name
            assert fifo.room() == min(fifo.depth - fifo.held,
                                      queue.depth - sum(f.held for f in queue.fifos))
            checked.append(queue.name)
        freed(self, fifo)

    monkeypatch.setattr(sim.Simulator, "_fifo_freed", checking)
    result = spyre_sched.run(bundle, seed=7)
    assert result.matches
    assert checked, "no FIFO of this bundle shares its datapath's queue: the test checks nothing"


@pytest.mark.parametrize("in_place", [True, False])
def test_dma_target_leaving_its_buffer_faults_after_transfers_inside(in_place, tmp_path,
                                                                      monkeypatch):
    """The DMA load's first tile lands inside A's scratchpad buffer, its second does not
    (A keeps one of its two slots): the transfer faults at the DMA op on both paths."""
    monkeypatch.setattr(codegen, "IN_PLACE", in_place)
    bundle = Path(_add_bundle().write(tmp_path / "add", 256, 1024, tile_rows=2, chunk=8))
    schedule = json.loads((bundle / "schedule.json").read_text())
    a = next(b for b in schedule["buffers"] if b["name"] == "A")
    a["bytes"] = a["slot_bytes"]
    (bundle / "schedule.json").write_text(json.dumps(schedule))
    seal(bundle)  # a deliberate edit
    with pytest.raises(ExecutionError, match="not inside one allocated buffer") as err:
        spyre_sched.run(bundle, seed=7)
    assert "agen.composite_load_and_store" in str(err.value) and "dma_load" in str(err.value)


@pytest.mark.parametrize("kernel, strategy, expected", [
    ("softmax_rows", "solver", {"token kept", "taken ahead, shared queue"}),
    ("splitk_matmul", "heuristic", {"token kept", "taken ahead"}),
    ("tests/lower/kernels/row_sum_16", "heuristic", {"sender waits from its own time"}),
])
def test_units_ahead_give_the_traced_figures(kernel, strategy, expected, bundles, tmp_path,
                                             monkeypatch):
    """Small chunks through FIFOs of a few entries and a token per tile: each shortcut
    for units ahead of the simulation's time fires in one of these (receives in FIFOs
    with a queue of their own and in FIFOs that share their datapath's queue), and the
    untraced run keeps the traced run's figures."""
    # (Loops run in bulk take their entries without `recv_ahead`: off here, where the
    # per-op receives are what is checked.)
    monkeypatch.setattr(codegen, "BULK", False)
    bundle = bundles(kernel, strategy)
    seen = {"token kept": 0, "taken ahead": 0, "taken ahead, shared queue": 0,
            "sender waits from its own time": 0}
    deliver, recv_ahead, wake = (sim.Simulator._deliver, sim.Simulator.recv_ahead,
                                 sim.Simulator._wake_on_free)

    def counting_deliver(self, token, time):
        if token.waiter is None and self.trace is None:
            seen["token kept"] += 1
        deliver(self, token, time)

    def counting_recv_ahead(self, proc, fifo, n):
        value = recv_ahead(self, proc, fifo, n)
        if value is not None:
            seen["taken ahead" if fifo.queue is None else "taken ahead, shared queue"] += 1
        return value

    def counting_wake(self, fifo):
        if fifo.putter is not None and fifo.putter[0].blocked_since > self.now:
            seen["sender waits from its own time"] += 1
        wake(self, fifo)

    monkeypatch.setattr(sim.Simulator, "_deliver", counting_deliver)
    monkeypatch.setattr(sim.Simulator, "recv_ahead", counting_recv_ahead)
    monkeypatch.setattr(sim.Simulator, "_wake_on_free", counting_wake)
    assert_untraced_equals_traced(bundle, tmp_path, seen)
    assert expected <= {k for k, v in seen.items() if v}, f"shortcuts that ran: {seen}"
