"""A receive or a token wait issued ahead of the simulation's time that finds nothing by
the unit's own time waits from that time on, with no event for the attempt
(docs/emulator.md, "Sixth pass"). Only in an untraced launch: the untraced run must give
the traced run's outputs, cycles, per-program and per-unit figures and bytes per
datapath, and the shortcut must have fired (for a FIFO receive and for a token) in the
untraced run and never in the traced one."""

from __future__ import annotations

from pathlib import Path

import pytest

from emulator.device import sim
from spyre_sched.emulate import compile_bundle

from emu_figures import assert_untraced_equals_traced

ROOT = Path(__file__).parents[3]


@pytest.mark.parametrize("kernel, strategy", [("add_96x64", "heuristic"),
                                              ("softmax_rows", "solver")])
def test_waits_from_the_units_time_give_the_traced_figures(kernel, strategy, tmp_path,
                                                           monkeypatch):
    bundle = tmp_path / "bundle"
    compile_bundle(ROOT / "examples" / f"{kernel}.mlir", bundle, "spyre", "latency", strategy)
    seen = {"receive": 0, "token": 0}
    step = sim.Simulator._step

    def counting_step(self, proc, value):
        step(self, proc, value)
        # Back from _step blocked on input at a time still ahead: it waits from its time.
        if proc.blocked_on is not None and proc.blocked_kind == "in" \
                and proc.blocked_since > self.now:
            seen["token" if proc.blocked_on[0] == sim._TOKEN else "receive"] += 1

    monkeypatch.setattr(sim.Simulator, "_step", counting_step)
    assert_untraced_equals_traced(bundle, tmp_path, seen)
    assert all(seen.values()), f"waits from the unit's own time: {seen}"


def test_deadlock_names_the_cycle_a_unit_waiting_ahead_would_have_blocked_in():
    """A unit that waits for a token from its own time and is never signalled: the
    deadlock is reported at that time, as if it had blocked there."""

    simulator = sim.Simulator()
    token = sim.Token("t", "a", "b")

    def gen_b():
        yield sim.delay(7)
        yield sim.sync_recv(token)

    def gen_a():
        yield sim.delay(2)

    simulator.spawn("a", gen_a())
    simulator.spawn("b", gen_b())
    with pytest.raises(sim.ExecutionError) as err:
        simulator.run()
    assert err.value.location == "cycle 7"
    assert "for sync token t from a" in str(err.value)
