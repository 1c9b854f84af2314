"""`--strategy heuristic`: the published V1 rules, the baseline every benchmark compares
with. No search: each decision is set by a local rule.

- modulo 2 wherever it is legal (a candidate, and the program still fits), else 1;
- instances = the number of corelets, on the outermost parallel loop whose trip count
  they divide, else on the outermost loop at least that long;
- every tile extent 2 where 2 divides the loop's trip count, else 1.
"""

from __future__ import annotations

from spyre_sched.solve import cost
from spyre_sched.solve.problem import Decision, Problem
from spyre_sched.solve.solver import Solution


def _closest(d: Decision, want: int) -> int:
    """Index of `want`, else of the largest candidate below it, else the smallest."""
    values = [c.value for c in d.candidates]
    if want in values:
        return values.index(want)
    below = [v for v in values if v < want]
    return values.index(max(below) if below else min(values))


def _tile(d: Decision) -> int:
    """Two units (rows, or vectors along the stick dim) where 2 divides the loop's trip
    count, else one."""
    trips = -(-d.extent // d.step) if d.extent is not None else 1
    return _closest(d, (2 if trips % 2 == 0 else 1) * d.step)


def _distribute(d: Decision, corelets: int) -> int:
    """Instances = corelets, on the outermost loop of a candidate list of (loop, n)."""
    full = [i for i, c in enumerate(d.candidates) if c.value == corelets]
    for i in full:  # candidates list the loops outermost first
        trip = d.candidates[i].trip
        if trip is not None and trip % corelets == 0:
            return i
    for i in full:
        trip = d.candidates[i].trip
        if trip is None or trip >= corelets:
            return i
    return _closest(d, corelets)


def _trip(problem: Problem, d: Decision, choice: dict[str, int]) -> int | None:
    if isinstance(d.trip, str):
        tile = problem.decision(d.trip)
        return -(-tile.candidates[choice[d.trip]].value // tile.step)
    return d.trip


def _distribute_group(problem: Problem, group: list[Decision], choice: dict[str, int]) -> None:
    """One decision per nested loop (outermost first): the first loop whose trip count
    the corelets divide gets them, else the first loop at least that long; others 1."""
    corelets = problem.corelets
    trips = [_trip(problem, d, choice) for d in group]
    pick = next((k for k, t in enumerate(trips) if t is not None and t % corelets == 0), None)
    if pick is None:
        pick = next((k for k, t in enumerate(trips) if t is None or t >= corelets), None)
    for k, d in enumerate(group):
        choice[d.name] = _closest(d, corelets if k == pick else 1)


def v1_choice(problem: Problem) -> dict[str, int]:
    choice: dict[str, int] = {}
    for d in problem.decisions:
        if d.kind == "tile":
            choice[d.name] = _tile(d)
        elif d.kind == "modulo":
            choice[d.name] = _closest(d, 2)
        elif d.kind == "keep":
            choice[d.name] = _closest(d, 0)  # V1 keeps nothing: every compute re-reads
        elif any(c.loop for c in d.candidates):
            choice[d.name] = _distribute(d, problem.corelets)
    # Distributed loops written as one decision per loop, grouped by instance group.
    grouped: set[str] = set()
    for p in problem.programs:
        for lim in p.instance_limits:
            _distribute_group(problem, [problem.decision(n) for n in lim.decisions], choice)
            grouped.update(lim.decisions)
    for d in problem.decisions:
        if d.kind == "distribute" and d.name not in choice:
            _distribute_group(problem, [d], choice)
    # "Where it is legal": a program whose double buffers do not fit is single-buffered.
    for v in cost.violations(problem, choice):
        if v.kind != "capacity":
            continue
        for d in problem.program_decisions(v.program):
            if d.kind == "modulo":
                choice[d.name] = _closest(d, 1)
    return choice


def heuristic(problem: Problem, objective: str = "latency") -> Solution:
    choice = v1_choice(problem)
    if not cost.feasible(problem, choice):
        from spyre_sched.solve.explain import explain_infeasible

        raise explain_infeasible(problem, heuristic_choice=choice)
    return Solution(problem, choice, objective, "heuristic")
