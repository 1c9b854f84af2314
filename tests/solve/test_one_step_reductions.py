"""A reduction done in one step per iteration (a row that fits one vector) sends its
result every iteration, so the vector unit waits each time for the whole chain the
lowering issues (reduce, combine with the accumulator): the cost model prices it
as it prices an elementwise body (`extract.vector_period`). Before, such a reduction cost
its lanes' throughput alone: on short_row_max the solver's schedule was predicted at 393
cycles against 1,066 emulated."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spyre_sched

KERNEL = Path(__file__).parent / "kernels" / "short_row_max.mlir"


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_a_one_step_row_reduction_is_priced_as_the_unit_runs_it(strategy):
    x = np.random.default_rng(3).uniform(-4, 4, (64, 32)).astype(np.float16)
    schedule = spyre_sched.compile(str(KERNEL), strategy=strategy)
    result = spyre_sched.run(schedule, {"X": x})
    assert result.verdict == "MATCH", result.mismatches
    np.testing.assert_array_equal(result.outputs["Y"], x.max(axis=1))
    assert abs(schedule.predicted_cycles / result.cycles - 1) <= 0.05, (
        schedule.predicted_cycles, result.cycles)
