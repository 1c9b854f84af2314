"""Exhaustive search over every candidate combination with the same cost model: the
optimality check for CP-SAT on small kernels (tests), never the production path."""

from __future__ import annotations

from spyre_sched.solve import cost
from spyre_sched.solve.problem import Problem, SolveError


def combinations(problem: Problem) -> int:
    n = 1
    for d in problem.decisions:
        n *= len(d.candidates)
    return n


def brute_force(problem: Problem, objective: str = "latency",
                limit: int = 1_000_000) -> tuple[dict[str, int], tuple[int, ...]] | None:
    """(the first optimal choice in enumeration order, its objective key), or None when
    nothing is feasible."""
    if combinations(problem) > limit:
        raise SolveError(f"{combinations(problem)} combinations: too many to enumerate")
    best: tuple[dict[str, int], tuple[int, ...]] | None = None
    for choice in problem.choices():
        if not cost.feasible(problem, choice):
            continue
        key = cost.objective_key(problem, choice, objective)
        if best is None or key < best[1]:
            best = (choice, key)
    return best
