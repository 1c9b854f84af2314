"""The cost model against what it models, on one fixed assignment: CP-SAT's per-program
cycles against the exact cost model's, and the exact model's against the emulator's."""

from __future__ import annotations

from pathlib import Path

from ortools.sat.python import cp_model

import spyre_sched
from spyre_sched import api
from spyre_sched.lower.bundle import write_bundle
from spyre_sched.solve import cost, solve_pass
from spyre_sched.solve.heuristic import v1_choice
from spyre_sched.solve.solution import Solution


def v1_with(problem, values: dict[str, int]) -> dict[str, int]:
    """V1's assignment with the named decisions set to the given candidate values."""
    choice = v1_choice(problem)
    for d in problem.decisions:
        if d.name in values:
            choice[d.name] = [c.value for c in d.candidates].index(values[d.name])
    return choice


def emulate_choice(kernel: Path, values: dict[str, int], tmp_path: Path, monkeypatch):
    """(predicted, emulated) cycles per program of `v1_with(values)`, compiled, emulated and
    checked against the reference."""
    def chosen(problem, seed, objective="latency"):
        choice = v1_with(problem, values)
        assert cost.feasible(problem, choice)
        return Solution(problem, choice, objective, "random")

    monkeypatch.setattr(solve_pass, "random_schedule", chosen)
    schedule = api.compile(str(kernel), strategy="random")
    bundle = write_bundle(schedule, tmp_path / "bundle", kernel_path=str(kernel))
    result = spyre_sched.run(str(bundle), seed=0)
    assert result.matches, result.mismatches
    predicted = [p["cycles_per_call"] for p in schedule.summary["programs"]]
    return predicted, list(result.per_program.values())


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
