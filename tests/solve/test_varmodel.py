"""Parts stated with CP-SAT variables (`solve/varmodel.py`): forced on problems small
enough to enumerate, the optimum is brute force's exact optimum, and the model's figure
for the chosen schedule is the exact cost model's."""

from __future__ import annotations

import pytest
from handmade import elementwise_problem

from spyre_sched.solve import cost, model, varmodel
from spyre_sched.solve.brute_force import brute_force
from spyre_sched.solve.solver import solve


@pytest.fixture
def variables_only(monkeypatch):
    """Every part above one combination is stated with variables."""
    monkeypatch.setattr(model, "COMBINATION_LIMIT", 1)


@pytest.mark.parametrize("rows,vecs,objective,capacity", [
    (3, 4, "latency", 2 << 20),
    (4, 2, "latency", 4096),        # capacity binds
    (2, 3, "memory", 3000),
    (5, 1, "latency", 3 * 128 * 3),
])
def test_variables_reach_brute_force_optimum(variables_only, rows, vecs, objective, capacity):
    problem = elementwise_problem(rows, vecs, capacity=capacity)
    part = model.components(problem, problem.programs[0])[0]
    assert varmodel.unsupported(problem, part) is None
    best = brute_force(problem, objective)
    s = solve(problem, objective)
    assert any(isinstance(t, varmodel.StatedPart) for t in model.build(problem).tables)
    assert s.stats.status == "OPTIMAL"
    assert cost.objective_key(problem, s.choice, objective) == best[1]
    assert cost.feasible(problem, s.choice)
    if objective == "latency":
        assert s.stats.model_objective == s.cycles


def test_variables_and_tables_agree_with_fifo_registers_and_two_programs(variables_only):
    problem = elementwise_problem(4, 2, programs=2, accumulator=True, fifo_entries=6,
                                  pinned=1024, capacity=8192)
    s = solve(problem)
    best = brute_force(problem)
    assert (s.cycles,) == best[1] and s.stats.model_objective == s.cycles
