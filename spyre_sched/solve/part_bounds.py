"""Each program part's least cycles, found alone: cuts that make the kernel model's bound
tight, and the parts' own best choices as CP-SAT's hint.

A part's cycles are stated with products of variables (`varmodel.py`), whose relaxation
is weak: CP-SAT sees little of a sum of many parts' least cycles, and proving the
optimum of a 16-program chain took it 34,000 branches. Solving each part alone (its own
decisions; the scratchpad it shares with the other parts of its program left out) gives
a lower bound of its cycles that holds in the whole kernel too, since the kernel only
adds constraints. Stated as `cycles_part >= least_part`, the bound of the sum closes as
soon as the solution is found (chain16: 161 branches). The choices each part makes alone,
put together, are a schedule that usually fits: the hint.

Parts that are the same up to names (`signature.py`) are solved once. Each solve has a
deterministic budget and reports CP-SAT's proven bound, so a cut is always valid and the
same input gives the same cuts.

A distinct program's problem alone and its parts' cuts are kept: when the programs'
least cycles prove the kernel's optimum (`solver._programs_optimal`), its model built
again with its cycles held at their least gives the program's least scratchpad
(`fewest_bytes`), the kernel's tie-break program by program.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from spyre_sched.solve.model import build, components, program_scope
from spyre_sched.solve.problem import LINK_KINDS, Problem, Program, program_decision_names
from spyre_sched.solve.signature import part_signature

BUDGET = 0.5
"""CP-SAT's deterministic time per distinct part."""


@dataclass
class PartBound:
    program: int
    part: int
    """The part's place in `model.components` of its program (its `StatedPart` order)."""
    links: dict[str, int]
    """The link decisions (`problem.LINK_KINDS`) the part reads, fixed for this bound:
    parts that share a keep choice are bounded per value of it, so that their bounds add
    up under one value, as the kernel must choose."""
    least: int
    choice: dict[str, int]
    """The part's best choice alone under `links`, over its own decisions."""


def alone(problem: Problem, part: Program) -> Problem:
    """The problem with only `part` (as its one program) and the decisions it reads."""
    names = set(program_decision_names(part))
    names |= {problem.decision(d).within for d in names if problem.decision(d).within}
    return replace(problem, programs=(part,),
                   decisions=tuple(d for d in problem.decisions if d.name in names))


def part_bounds(problem: Problem, seed: int, relative_gap: float,
                solved: dict[tuple, tuple] | None = None) -> list[PartBound]:
    """Per part of every program and per value of the link decisions it reads, a lower
    bound of its cycles and its best choice alone (empty when only one part has
    decisions: the kernel's own model is that part's)."""
    parts = [(prog.index, n, part) for prog in problem.programs
             for n, part in enumerate(components(problem, prog))
             if program_scope(problem, part)]  # (a part no decision changes is a constant)
    if len(parts) < 2:
        return []
    solved = {} if solved is None else solved  # (signature -> scope, rows; shareable)
    out: list[PartBound] = []
    for index, n, part in parts:
        scope = program_scope(problem, part)
        key = part_signature(problem, part, scope)
        if key not in solved:
            sub = alone(problem, part)
            links = [d for d in scope if problem.decision(d).kind in LINK_KINDS]
            rows = []
            for values in itertools.product(*(range(len(problem.decision(d).candidates))
                                              for d in links)):
                found = _least(sub, dict(zip(links, values)), seed, relative_gap)
                if found is not None:
                    rows.append((dict(zip(links, values)), *found))
            solved[key] = (scope, rows)
        first_scope, rows = solved[key]
        rename = dict(zip(first_scope, scope))
        for links, least, choice in rows:
            out.append(PartBound(index, n, {rename[d]: v for d, v in links.items()}, least,
                                 {rename[d]: v for d, v in choice.items() if d in rename}))
    return out


def _least(sub: Problem, links: dict[str, int], seed: int,
           relative_gap: float) -> tuple[int, dict[str, int]] | None:
    built = build(sub)
    for d, v in links.items():
        built.model.add(built.one_hot[d][v] == 1)
    # the part's own pipelines' cycles: its program's floor (a shared memory's busy
    # time) is the kernel's to take, over all the program's parts
    built.model.minimize(sum(t.cycles for t in built.parts))
    solver = _solver(seed, relative_gap)
    status = solver.solve(built.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None  # nothing fits even alone: the kernel's solve says why in words
    return max(0, math.ceil(solver.best_objective_bound - 1e-6)), built.choice(solver)


@dataclass
class _ProgramAlone:
    """One distinct program (up to names) solved alone, kept for the least-scratchpad
    solves at its least cycles (`fewest_bytes`)."""

    sub: Problem
    scope: tuple[str, ...]
    cuts: list[PartBound]
    least: int
    choice: dict[str, int]
    exact: bool
    """CP-SAT proved `choice` optimal outright (no gap left)."""
    at_links: dict[tuple[int, ...], tuple[int, dict[str, int]] | None] = \
        field(default_factory=dict)
    """Per value of its link decisions (by place in `scope`): its least cycles and the
    choice of the least scratchpad at them, or None when those cycles are not proven
    exactly or are above `least`."""


@dataclass
class ProgramBound:
    program: int
    least: int
    choice: dict[str, int]
    """The program's best choice alone, over its own decisions (it fits the program's
    constraints: the programs' choices together are a schedule, unless a keep choice
    spans programs)."""
    scope: tuple[str, ...] = ()
    """The program's decisions, in the problem's order."""
    alone: _ProgramAlone | None = None


def _program_model(found: _ProgramAlone, links: dict[str, int]):
    """The program's model alone with its parts' cuts, `links` (names of its first
    solve's scope) fixed."""
    built = build(found.sub)
    for b in found.cuts:
        built.model.add(built.parts_of[b.program][b.part].cycles >= b.least) \
            .only_enforce_if([built.one_hot[d][v] for d, v in b.links.items()])
    for d, v in links.items():
        built.model.add(built.one_hot[d][v] == 1)
    built.model.minimize(built.cycles)
    return built


def _exact(solver: cp_model.CpSolver, status: int) -> bool:
    return status == cp_model.OPTIMAL and \
        solver.objective_value <= solver.best_objective_bound + 1e-6


def program_bounds(problem: Problem, seed: int, relative_gap: float,
                   parts_solved: dict[tuple, tuple] | None = None) -> list[ProgramBound]:
    """Per program of a kernel of several, its least cycles alone (with its parts' cuts)
    and the choice that reaches them. Programs the same up to names are solved once, and
    so are parts (`parts_solved`, shareable with the kernel's own `part_bounds`)."""
    if len(problem.programs) < 2:
        return []
    solved: dict[tuple, _ProgramAlone | None] = {}
    parts_solved = {} if parts_solved is None else parts_solved
    out: list[ProgramBound] = []
    for prog in problem.programs:
        reads = set(program_decision_names(prog))  # (its FIFO depths too)
        scope = tuple(d.name for d in problem.decisions if d.name in reads)
        if not scope:
            continue
        key = _program_key(problem, prog, scope)
        if key not in solved:
            sub = alone(problem, prog)
            found = _ProgramAlone(sub, scope, part_bounds(sub, seed, relative_gap,
                                                          parts_solved), 0, {}, False)
            built = _program_model(found, {})
            solver = _solver(seed, relative_gap)
            status = solver.solve(built.model)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                found.least = max(0, math.ceil(solver.best_objective_bound - 1e-6))
                found.choice = built.choice(solver)
                found.exact = _exact(solver, status)
                solved[key] = found
            else:
                solved[key] = None
        found = solved[key]
        if found is None:
            continue
        out.append(ProgramBound(prog.index, found.least,
                                {d: found.choice[f] for d, f in zip(scope, found.scope)},
                                scope, found))
    return out


def fewest_bytes(bounds: list[ProgramBound], links: dict[str, int], seed: int,
                 relative_gap: float, budget: float) -> tuple[int, dict[str, int]] | None:
    """With the link decisions at `links`: each program's least cycles and, among the
    choices of those cycles, one of the least scratchpad and then the most vectors per
    instruction (`BuiltModel.tie_break`; its model alone, cycles held
    at that least, CP-SAT within `budget` of deterministic time); their cycles added up
    and the choices over all the programs' decisions. None when a program's least is
    not proven exactly, is above its least over every value of the links (the kernel's
    optimum is then out of reach at these), or nothing fits. Programs the same up to
    names (and link values) are solved once. When the programs share no decision but
    links, each must run at its own least cycles for the kernel to reach the sum of
    them, so this is the kernel's tie-break at these link values, program by program."""
    total, out = 0, {}
    for b in bounds:
        found = b.alone
        if found is None:
            return None
        place = {d: k for k, d in enumerate(b.scope)}
        values = tuple(sorted((place[d], v) for d, v in links.items() if d in place))
        if values not in found.at_links:
            found.at_links[values] = None
            fixed = {found.scope[k]: v for k, v in values}
            built = _program_model(found, fixed)
            if found.exact and all(found.choice[d] == v for d, v in fixed.items()):
                least, first = found.least, found.choice  # (the first solve's, at these links)
            else:
                solver = _solver(seed, relative_gap)
                status = solver.solve(built.model)
                least, first = (round(solver.objective_value), built.choice(solver)) \
                    if _exact(solver, status) else (None, None)
            if least is not None and least <= b.least:
                built.model.add(built.cycles <= least)
                built.model.minimize(built.tie_break)
                built.add_hint(first)
                # (at gap 0: the vectors are the last few units of a sum scaled by bytes)
                solver = _solver(seed, 0.0)
                solver.parameters.max_deterministic_time = budget
                status = solver.solve(built.model)
                found.at_links[values] = (least, built.choice(solver) if status in (
                    cp_model.OPTIMAL, cp_model.FEASIBLE) else first)
        if found.at_links[values] is None:
            return None  # (or more than its least: these links cannot reach the optimum)
        least, choice = found.at_links[values]
        total += least
        out.update({d: choice[f] for d, f in zip(b.scope, found.scope)})
    return total, out


def _program_key(problem: Problem, prog: Program, scope: tuple[str, ...]) -> tuple:
    """A program's structure up to names: its calls, its parts' signatures, which of its
    decisions each part reads (by place in the program's scope) and its FIFO splits.
    (The program's own signature would also number names the parts do not share.)"""
    place = {d: k for k, d in enumerate(scope)}
    parts = components(problem, prog)
    splits = tuple((tuple(place[d] for d in split.decisions), place.get(split.chunk),
                    split.depth, split.in_send_order) for split in prog.fifo_splits)
    return (prog.calls, splits, tuple(
        (part_signature(problem, part, program_scope(problem, part)),
         tuple(place[d] for d in program_scope(problem, part))) for part in parts))


def _solver(seed: int, relative_gap: float) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers, p.random_seed = 1, seed
    p.cp_model_probing_level = 0
    p.symmetry_level = 0
    p.relative_gap_limit = relative_gap
    p.max_deterministic_time = BUDGET
    return solver
