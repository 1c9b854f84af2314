"""CP-SAT's per-program cycles against the exact cost model on one fixed assignment."""

from __future__ import annotations

from ortools.sat.python import cp_model

from spyre_sched.solve import cost


def assert_model_equals_exact(problem, built, choice: dict, label=None) -> None:
    """Fix `choice` (decision -> candidate index) by assumptions, solve, and compare each
    program's cycles in the CP-SAT model with `cost.program_cycles`."""
    built.model.clear_assumptions()
    built.model.add_assumptions([built.one_hot[d][i] for d, i in choice.items()])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(built.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    for p in problem.programs:
        assert solver.value(built.program_cycles[p.index]) == \
            cost.program_cycles(problem, p, choice), (label, p.index, choice)
