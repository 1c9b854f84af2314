"""A stage that runs a nested pipeline with two copies or more keeps the inner pipeline's
own pace across outer iterations (`cost.nested_pace`): the outer copies do not add inner
ones, so an inner load waiting for a copy behind device memory's latency waits as long
in the next outer iteration. V1's schedule of the sharded RMSNorm reads 2 x 32 tiles of
X, double-buffered, 8 per row tile, 64 row tiles: each tile's load waits ~350 cycles for
a copy to come free, ~176 per tile in all, which the model used to halve (the outer copies
were taken to overlap two row tiles' inner runs): predicted 73,406 cycles for an emulated
107,176 (-31.5%)."""

from __future__ import annotations

from pathlib import Path

import spyre_sched

KERNEL = Path(__file__).parents[2] / "bench" / "kernels" / "sharded_rmsnorm.mlir"


def test_a_latency_bound_inner_pipeline_keeps_its_pace_across_outer_copies():
    result = spyre_sched.run(str(KERNEL), strategy="heuristic")
    assert result.matches
    assert abs(result.predicted_cycles - result.cycles) <= 0.05 * result.cycles, (
        result.predicted_cycles, result.cycles)
