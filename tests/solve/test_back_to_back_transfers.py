"""A pipeline of one stage of transfers issues them back to back whatever its copies:
nothing of the pipeline reads what they write, so no token makes the unit wait for one to
land before the next (`cost.issues_back_to_back`). V1's schedule of the scratchpad
broadcast loads 16 tiles in such a pipeline, unbuffered: the model priced each as a whole
pass, device memory's latency included (16 x 322 = 5,152 cycles), where the emulated
program takes 401."""

from __future__ import annotations

from pathlib import Path

import spyre_sched

KERNEL = Path(__file__).parents[2] / "examples" / "scratchpad_broadcast.mlir"


def test_one_stage_of_transfers_pays_its_latency_once():
    schedule = spyre_sched.compile(str(KERNEL), device="spyre", strategy="heuristic")
    (loads,) = [p for p in schedule.summary["programs"] if p["name"] == "local_schedule_0"]
    (pipe,) = loads["pipelines"]
    assert pipe["iterations"] == 16 and len(pipe["stages"]) == 1
    result = spyre_sched.run(schedule, seed=0)
    assert result.matches
    emulated = {name.split("#")[0]: c for name, c in result.per_program.items()}
    assert abs(loads["cycles"] - emulated["local_schedule_0"]) <= 0.15 * emulated["local_schedule_0"]
    assert abs(result.predicted_cycles - result.cycles) <= 0.05 * result.cycles
