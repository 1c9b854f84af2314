"""Without --time-limit a search phase stops at CP-SAT's deterministic budget
(`solver.SEARCH_BUDGET`): the best schedule found is used, the trace says it was not
proven and gives its gap, and the same input gives the same schedule (deterministic time,
not seconds). A 70B model's FFN block found its schedule within a minute and then searched
for a bound it never proved; the suite proves its optima far inside the budget. Here the
budget is made small enough to stop the suite's matmul early."""

from __future__ import annotations

from pathlib import Path

import spyre_sched
from spyre_sched.solve import solver

KERNEL = str(Path(__file__).parents[2] / "bench" / "kernels" / "matmul.mlir")


def test_a_search_stopped_at_its_budget_says_so_and_repeats(monkeypatch) -> None:
    monkeypatch.setattr(solver, "SEARCH_BUDGET", 0.01)
    first = spyre_sched.compile(KERNEL)
    (phase,) = first.solution.stats.phases
    assert phase.status == "FEASIBLE" and phase.gap > 0
    assert any("deterministic budget (0.01)" in n and "not proven optimal" in n
               and "gap" in n for n in first.solution.notes), first.solution.notes
    again = spyre_sched.compile(KERNEL)
    assert again.values == first.values
    # a time limit given replaces the budget: searched to the optimum
    limited = spyre_sched.compile(KERNEL, time_limit=600)
    assert all(p.status == "OPTIMAL" for p in limited.solution.stats.phases)
    assert not any("deterministic budget" in n for n in limited.solution.notes)
    assert limited.summary["predicted_cycles"] <= first.summary["predicted_cycles"]
