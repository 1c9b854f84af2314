"""The CP-SAT model's bounds before every decision is fixed: a part's cycles must be
bounded below while its modulo (or FIFO chunk) is still open. Stated only through
equalities under the modulo's literals, they were not (CP-SAT's root bound was 0, or the
fill alone), and the wide softmax's proof took minutes of search instead of seconds.
Checked with CP-SAT's root propagation alone (no presolve, no search): deterministic, no
clock, no budget."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from ortools.sat.python import cp_model

from spyre_sched.api import load_schedule_input
from spyre_sched.solve import cost
from spyre_sched.solve.extract import extract
from spyre_sched.solve.model import build, components, program_scope
from spyre_sched.solve.solver import solve

KERNEL = Path(__file__).resolve().parent / "kernels" / "wide_softmax.mlir"


@functools.cache
def _problem_and_optimum():
    module, _, _ = load_schedule_input(str(KERNEL), "spyre")
    problem = extract(module).problem
    return problem, solve(problem).choice


def _root_bound(problem, part: int, fixed: dict[str, int]) -> float:
    """CP-SAT's lower bound on one part's cycles after root propagation, with the
    decisions of `fixed` set and the others open."""
    built = build(problem)
    for name, value in fixed.items():
        built.model.add(built.one_hot[name][value] == 1)
    built.model.minimize(built.parts_of[0][part].cycles)
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = 1
    p.cp_model_presolve = False
    p.cp_model_probing_level = 0
    p.max_number_of_conflicts = 0
    solver.solve(built.model)
    return solver.best_objective_bound


@pytest.mark.parametrize("open_decision", ["p0.c1.pipe.lx.modulo", "p0.c1.chunk",
                                           "p0.c3.pipe.lx.modulo"])
def test_part_cycles_bounded_with_the_modulo_open(open_decision):
    problem, best = _problem_and_optimum()
    fixed = {d: v for d, v in best.items() if d != open_decision}
    parts = components(problem, problem.programs[0])
    k = next(k for k, part in enumerate(parts) if open_decision in program_scope(problem, part))
    # the part's least exact cycles over the open decision's candidates
    least = min(cost.program_parts(problem, parts[k], {**fixed, open_decision: i})[0]
                for i in range(len(problem.decision(open_decision).candidates)))
    assert least > 0
    assert _root_bound(problem, k, fixed) >= 0.9 * least  # (0 or 8% of it before)
