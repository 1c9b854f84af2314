"""A load after a compute in a pipeline whose count the tile decisions set hides behind
the earlier stages when the choice runs the pipeline once (`cost.prefetch_chain`,
`cost.prefetch_slack`): the DMA unit issues it at the start, while the compute waits
for the first load. Such pipelines used to have no chain at all, whatever the choice:
copy_and_double (a tile loaded, doubled and stored, then a second load and store) was
predicted 750 cycles for 415 emulated (+81%), sum_onto_loaded (S = B + the row sums of
X, B loaded after the sums' compute) 940 for 606 (+55%). Where the choice runs the
pipeline twice the stages repeat and the steady state covers them: no slack."""

from __future__ import annotations

from pathlib import Path

import pytest

import spyre_sched
from spyre_sched.solve import cost
from spyre_sched.solve.heuristic import v1_choice

ROOT = Path(__file__).parents[2]


@pytest.mark.parametrize("kernel", ["tests/schedule/kernels/copy_and_double.mlir",
                                    "tests/normalize/kernels/sum_onto_loaded.mlir"])
@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_a_later_load_hides_behind_the_compute_when_the_pipeline_runs_once(kernel, strategy):
    schedule = spyre_sched.compile(str(ROOT / kernel), strategy=strategy)
    result = spyre_sched.run(schedule)
    assert result.matches
    assert abs(result.predicted_cycles - result.cycles) <= 0.05 * result.cycles, (
        result.predicted_cycles, result.cycles)


def test_the_slack_counts_only_where_the_choice_runs_the_pipeline_once():
    schedule = spyre_sched.compile(str(ROOT / "tests/schedule/kernels/copy_and_double.mlir"))
    problem = schedule.solution.problem
    (outer,) = problem.programs[0].pipelines
    (tiles,) = outer.stages[0].work
    assert cost.runs_vary(tiles)
    chains = cost.prefetch_chain(tiles)
    later = [k for k, chain in enumerate(chains) if chain]
    assert later  # the second load, after the compute and the first store
    once = v1_choice(problem)
    rows = problem.decision("p0.tile.lx.d0")
    once["p0.tile.lx.d0"] = [c.value for c in rows.candidates].index(2)
    twice = dict(once, **{"p0.tile.lx.d0": [c.value for c in rows.candidates].index(1)})
    assert cost.pipeline_iterations(tiles, once) == 1
    assert cost.pipeline_iterations(tiles, twice) == 2
    assert all(cost.prefetch_slack(problem, tiles, once)[k] > 0 for k in later)
    assert cost.prefetch_slack(problem, tiles, twice) == [0] * len(tiles.stages)
