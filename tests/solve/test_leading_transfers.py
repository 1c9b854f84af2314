"""A hoisted load's latency runs beside the longest of the transfers its unit issues
next before it waits for anything (`cost.leading_transfer_work`), not only beside the
first. The quick sharded RMSNorm's read-back program (random schedule, seed 7) loads W
(device memory's ~330-cycle latency), then each row tile reads the other shards' sums
over the ring (~10 cycles) and then its row of X from device memory: the DMA unit issues
all three back to back, so W's latency hides behind X's. Counted behind the ring read
alone, W's latency was paid in full: predicted 2,645 cycles for 2,078 emulated (+27%);
now 2,013 for 2,006 (+0.3%; the nested row-tile stage after the ring read holds its copy
only until it has read it: tests/solve/test_nested_hold.py)."""

from __future__ import annotations

from pathlib import Path

import spyre_sched
from spyre_sched.solve import cost
from spyre_sched.solve.problem import Transfer

KERNEL = Path(__file__).parents[2] / "bench" / "kernels" / "quick" / "sharded_rmsnorm.mlir"


def test_a_hoisted_load_hides_behind_the_longest_leading_transfer():
    schedule = spyre_sched.compile(str(KERNEL), strategy="random", seed=7)
    problem = schedule.solution.problem
    (pipe,) = problem.programs[1].pipelines
    hoisted, rest = pipe.stages
    assert all(isinstance(w, Transfer) for w in hoisted.work)
    lead = cost.leading_transfer_work(rest)
    assert lead.latency >= 300  # X's row from device memory, not the ring read before it
    w_landing = max(w.latency for w in hoisted.work)
    assert cost.overlapped_latency(pipe)[0] == min(w_landing, lead.latency)
    result = spyre_sched.run(schedule)
    assert result.matches
    # W's latency paid in full would be +16%
    assert abs(result.predicted_cycles - result.cycles) <= 0.05 * result.cycles, (
        result.predicted_cycles, result.cycles)
