"""Each program's least cycles, found alone: cuts that make a many-program model's bound
tight.

The programs of a kernel run one after another and share no decision unless a keep
choice spans them, so the kernel's least cycles are usually the sum of each program's
own least. CP-SAT does not see that through the products a program's cycles are stated
with (`varmodel.py`): its relaxation of a sum of 64 such programs is weak, and proving
the optimum of a 16-program chain took it 34,000 branches. Solving each program alone
(its own decisions, its own constraints) gives a lower bound of its cycles that holds
in the whole kernel too (the whole kernel only adds constraints); stated as
`cycles_p >= least_p`, the bound of the sum closes as soon as the solution is found.

Programs that are the same up to names (`signature.py`) are solved once. Each solve has
a deterministic budget and reports CP-SAT's own proven bound, so a cut is always valid,
and the same input gives the same cuts.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ortools.sat.python import cp_model

from spyre_sched.solve.model import build, program_scope
from spyre_sched.solve.problem import Problem, Program, program_decision_names
from spyre_sched.solve.signature import part_signature

BUDGET = 0.5
"""CP-SAT's deterministic time per distinct program."""


def alone(problem: Problem, program: Program) -> Problem:
    """The problem with only `program` and the decisions it reads."""
    names = set(program_decision_names(program))
    names |= {problem.decision(d).within for d in names if problem.decision(d).within}
    return replace(problem, programs=(program,),
                   decisions=tuple(d for d in problem.decisions if d.name in names))


def program_bounds(problem: Problem, seed: int, relative_gap: float) -> dict[int, int]:
    """Program index -> a lower bound of its cycles (no entry: no useful bound)."""
    out: dict[int, int] = {}
    if len(problem.programs) < 2:
        return out  # (the kernel's own model is that program's)
    found: dict[tuple, int | None] = {}
    for prog in problem.programs:
        key = part_signature(problem, prog, program_scope(problem, prog))
        if key not in found:
            found[key] = _least_cycles(alone(problem, prog), seed, relative_gap)
        if found[key]:
            out[prog.index] = found[key]
    return out


def _least_cycles(sub: Problem, seed: int, relative_gap: float) -> int | None:
    built = build(sub)
    built.model.minimize(built.cycles)
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers, p.random_seed = 1, seed
    p.cp_model_probing_level = 0
    p.symmetry_level = 0
    p.relative_gap_limit = relative_gap
    p.max_deterministic_time = BUDGET
    status = solver.solve(built.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None  # infeasible alone: the kernel's solve says why in words
    bound = solver.best_objective_bound
    return math.ceil(bound - 1e-6) if bound > 0 else None
