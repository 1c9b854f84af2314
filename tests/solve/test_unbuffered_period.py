"""Iterations after the first of an unbuffered pipeline follow at the pace its buffers are
held, and a stage that runs a nested pipeline is busy at its busiest inner unit's pace
(docs/solver.md, "Unbuffered iterations", "A stage that runs a nested pipeline"): the
model's cycles for such schedules are within a few percent of the emulator's, and the
CP-SAT model states the same figures as the exact cost model."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from spyre_sched import api
from spyre_sched.solve import cost, model
from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import v1_choice

from model_agreement import assert_model_equals_exact, emulate_choice

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "bench" / "kernels" / "quick" / "add.mlir"
SOFTMAX = ROOT / "bench" / "kernels" / "quick" / "softmax.mlir"


def test_an_unbuffered_load_compute_store_pipeline_repeats_at_its_holds(tmp_path, monkeypatch):
    """The quick add, one copy, 1 x 64 tiles (8 iterations): each iteration's loads wait
    for the compute to have read the last ones, the compute's store for the DMA's store
    to have landed, and the second round of loads for every core's share of device
    memory. One whole pass per iteration said +18.9%."""
    (predicted,), (emulated,) = emulate_choice(ADD, {"p0.pipe.lx.modulo": 1, "p0.tile.lx.d0": 1,
                                               "p0.tile.lx.d1": 64}, tmp_path, monkeypatch)
    assert abs(predicted / emulated - 1) < 0.05, (predicted, emulated)


@pytest.mark.parametrize("copies", [1, 2])
def test_a_compute_store_pipeline_repeats_at_the_compute_pace(copies, tmp_path, monkeypatch):
    """The quick softmax's normalisation (its last program) on 1 x 32 tiles, 16
    iterations: with one copy its buffer is held from the lx_store's write to the DMA
    store's landing while the sfu runs on (one pass per iteration said +147%); with two
    copies the stage's units go on to the next tile, so it is busy at the sfu's pace, not
    a whole run of its pipeline per tile (that said +61%)."""
    predicted, emulated = emulate_choice(SOFTMAX, {"p2.pipe.lx.modulo": copies,
                                             "p2.tile.lx.d0": 1, "p2.tile.lx.d1": 32},
                                   tmp_path, monkeypatch)
    assert abs(predicted[2] / emulated[2] - 1) < 0.05, (predicted, emulated)


def test_the_model_states_the_unbuffered_figures_exactly():
    """Assignments with one copy (and random others) of the quick add and softmax: every
    program's CP-SAT cycles are the exact cost model's."""
    for kernel in (ADD, SOFTMAX):
        module, _, _ = api.load_schedule_input(str(kernel), "spyre")
        problem = extract(module).problem
        built = model.build(problem, with_assumptions=True)
        built.model.minimize(built.cycles)
        rng = random.Random(3)
        v1 = v1_choice(problem)
        checked = tries = 0
        while checked < 6:
            tries += 1
            assert tries < 200
            choice = {d.name: v1[d.name] if d.kind in ("fifo", "chunk")
                      else rng.randrange(len(d.candidates)) for d in problem.decisions}
            choice.update({d.name: 0 for d in problem.decisions if d.kind == "modulo"
                           and rng.random() < 0.7})
            if any(v.kind in ("within", "instances", "fifo")
                   for v in cost.violations(problem, choice)):
                continue
            assert_model_equals_exact(problem, built, choice, kernel.name)
            checked += 1
