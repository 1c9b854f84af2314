"""Level-by-level enumeration of nested parts (solve/levels.py) and the `within` rule, on
the three-level test device: the same Pareto front and optimum as full enumeration, far
fewer evaluations, and the guard still a clear error."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import pytest

from spyre_sched import api
from spyre_sched.solve import cost, levels, model
from spyre_sched.solve.extract import extract
from spyre_sched.solve.solver import solve

ROOT = Path(__file__).resolve().parents[2]
THREE = str(ROOT / "tests" / "schedule" / "devices" / "three_level.mlir")


@functools.cache
def _problem(kernel: str):
    module, _, _ = api.load_schedule_input(str(ROOT / kernel), THREE)
    return extract(module).problem


def _largest_part(problem):
    parts = [part for prog in problem.programs for part in model.components(problem, prog)]
    return max(parts, key=lambda part: len(model.program_scope(problem, part)))


def _rows(table: model.ProgramTable) -> set[tuple]:
    return {(c, b, *map(tuple, (s, o, f, r))) for c, b, s, o, f, r in zip(
        table.cycles, table.buffer_bytes, table.shared_busy, table.other_bytes, table.fifos,
        table.registers)}


def test_level_by_level_front_equals_full_enumeration(monkeypatch) -> None:
    problem = _problem("examples/add_96x64.mlir")  # 36,864 combinations in its nested part
    part = _largest_part(problem)
    assert levels.split(part, model.program_scope(problem, part)) is not None
    monkeypatch.setattr(levels, "ELIMINATE_ABOVE", 10**12)
    full = model.program_table(problem, part)
    monkeypatch.setattr(levels, "ELIMINATE_ABOVE", 0)
    pruned = model.program_table(problem, part)
    assert _rows(pruned) == _rows(full)
    assert pruned.enumerated < full.enumerated / 5


def test_same_optimum_as_full_enumeration(monkeypatch) -> None:
    problem = _problem("examples/add_96x64.mlir")
    monkeypatch.setattr(levels, "ELIMINATE_ABOVE", 10**12)
    full = solve(problem)
    monkeypatch.setattr(levels, "ELIMINATE_ABOVE", 0)
    pruned = solve(problem)
    assert pruned.cycles == full.cycles
    assert pruned.stats.combinations < full.stats.combinations


@pytest.mark.parametrize("kernel", ["examples/bias_add.mlir", "examples/rmsnorm.mlir",
                                    "examples/softmax_rows.mlir", "examples/fused_gelu.mlir"])
def test_nested_examples_solve_optimal_under_the_guard(kernel: str) -> None:
    problem = _problem(kernel)
    raw = max(math.prod(len(problem.decision(d).candidates)
                        for d in model.program_scope(problem, part))
              for prog in problem.programs for part in model.components(problem, prog))
    assert raw > model.COMBINATION_LIMIT  # the guard stopped these before
    solution = solve(problem)
    assert solution.stats.phases[0].status == "OPTIMAL"
    assert solution.stats.combinations < model.COMBINATION_LIMIT
    assert not cost.violations(problem, solution.choice)


def test_above_the_limit_a_part_is_stated_with_variables(monkeypatch) -> None:
    """The combination limit no longer refuses a part: above it the part is stated with
    CP-SAT variables (solve/varmodel.py), which find the tables' optimum."""
    problem = _problem("examples/add_96x64.mlir")
    tables = solve(problem)
    monkeypatch.setattr(model, "COMBINATION_LIMIT", 500)
    assert model.build(problem).stated
    stated = solve(problem)
    assert stated.stats.status == "OPTIMAL"
    assert stated.cycles == tables.cycles == stated.stats.model_objective
    assert not cost.violations(problem, stated.choice)


def test_an_inner_tile_never_exceeds_its_outer_tile() -> None:
    problem = _problem("examples/add_96x64.mlir")
    pairs = problem.within_pairs()
    assert pairs and all(outer.replace(".l2.", ".l1.") == inner for inner, outer in pairs)
    choice = dict(solve(problem).choice)
    assert not cost.violations(problem, choice)
    inner, outer = pairs[0]
    choice[inner] = len(problem.decision(inner).candidates) - 1
    choice[outer] = 0
    found = [v for v in cost.violations(problem, choice) if v.kind == "within"]
    assert found and f"tile {inner} inside tile {outer}" in str(found[0])
