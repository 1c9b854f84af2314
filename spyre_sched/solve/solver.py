"""Solve a `Problem` with CP-SAT: objectives, determinism, time limit, statistics.

Deterministic by construction: one worker and a fixed seed by default (or a fixed worker
count with `interleave_search`), and decisions/combinations are created in a fixed order,
so the same problem gives the same choice byte for byte.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from spyre_sched.solve import cost
from spyre_sched.solve.model import BuiltModel, build
from spyre_sched.solve.problem import Candidate, Problem, SolveError

OBJECTIVES = ("latency", "memory")


class InfeasibleError(SolveError):
    """No assignment satisfies the constraints; `reasons` says which conflict, in words."""

    def __init__(self, message: str, reasons: list[str], conflicting: list[str]):
        super().__init__(message)
        self.reasons = reasons
        self.conflicting = conflicting


@dataclass
class PhaseStats:
    """One CP-SAT solve (the memory objective runs two: peak, then cycles)."""

    minimises: str
    status: str
    objective: float
    bound: float
    gap: float
    wall_time: float
    branches: int
    conflicts: int

    def as_data(self) -> dict[str, object]:
        """Plain data; figures CP-SAT did not reach are None (valid JSON)."""
        return {k: (None if isinstance(v, float) and math.isnan(v) else v)
                for k, v in self.__dict__.items()}


@dataclass
class SolverStats:
    variables: int
    constraints: int
    combinations: int
    """Candidate combinations enumerated (all programs)."""
    front: int
    """Non-dominated combinations kept in the model."""
    phases: list[PhaseStats]
    workers: int
    seed: int
    time_limit: float | None

    @property
    def status(self) -> str:
        names = [p.status for p in self.phases]
        return "OPTIMAL" if all(n == "OPTIMAL" for n in names) else names[-1]

    @property
    def gap(self) -> float:
        return max((p.gap for p in self.phases), default=0.0)

    @property
    def wall_time(self) -> float:
        return sum(p.wall_time for p in self.phases)

    def as_data(self) -> dict[str, object]:
        gap = None if math.isnan(self.gap) else self.gap
        return {
            "status": self.status, "gap": gap, "wall_time": self.wall_time,
            "variables": self.variables, "constraints": self.constraints,
            "combinations": self.combinations, "front": self.front, "workers": self.workers,
            "seed": self.seed, "time_limit": self.time_limit,
            "phases": [p.as_data() for p in self.phases],
        }


@dataclass
class Solution:
    problem: Problem
    choice: dict[str, int]
    """Decision name -> index of the chosen candidate."""
    objective: str
    strategy: str
    stats: SolverStats | None = None
    log: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def values(self) -> dict[str, Candidate]:
        return self.problem.values(self.choice)

    @property
    def cycles(self) -> int:
        return cost.kernel_cycles(self.problem, self.choice)

    @property
    def peak_scratchpad(self) -> int:
        return cost.peak_scratchpad(self.problem, self.choice)


def _gap(objective: float, bound: float) -> float:
    return abs(objective - bound) / max(1.0, abs(objective))


def _parameters(solver: cp_model.CpSolver, workers: int, seed: int,
                time_limit: float | None, log: list[str] | None) -> None:
    p = solver.parameters
    p.num_workers = workers
    p.random_seed = seed
    if workers > 1:
        p.interleave_search = True  # a fixed, reproducible schedule of the workers
    if time_limit is not None:
        p.max_time_in_seconds = float(time_limit)
    if log is not None:
        p.log_search_progress = True
        p.log_to_stdout = False
        solver.log_callback = log.append


def _run(built: BuiltModel, minimise, label: str, workers: int, seed: int,
         time_limit: float | None, log: list[str] | None,
         hint: dict[str, int] | None = None) -> tuple[cp_model.CpSolver, int, PhaseStats]:
    built.model.minimize(minimise)
    built.model.clear_hints()
    if hint is not None:
        for name, lits in built.one_hot.items():
            for i, lit in enumerate(lits):
                built.model.add_hint(lit, i == hint[name])
    solver = cp_model.CpSolver()
    _parameters(solver, workers, seed, time_limit, log)
    if log is not None:
        log.append(f"---- phase: minimise {label} ----")
    status = solver.solve(built.model)
    has = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    obj = solver.objective_value if has else float("nan")
    bound = solver.best_objective_bound if has else float("nan")
    stats = PhaseStats(label, solver.status_name(status), obj, bound,
                       _gap(obj, bound) if has else float("nan"), solver.wall_time,
                       solver.num_branches, solver.num_conflicts)
    return solver, status, stats


def solve(problem: Problem, objective: str = "latency", *, time_limit: float | None = None,
          workers: int = 1, seed: int = 0, log: bool = False) -> Solution:
    """The best schedule under `objective`, or `InfeasibleError` explained in words."""
    if objective not in OBJECTIVES:
        raise SolveError(f"unknown objective '{objective}'; expected one of "
                         f"{', '.join(OBJECTIVES)}")
    if workers < 1:
        raise SolveError(f"--workers must be at least 1, not {workers}")
    built = build(problem)
    lines: list[str] | None = [] if log else None
    phases: list[PhaseStats] = []
    notes: list[str] = []
    choice: dict[str, int] | None = None
    if objective == "memory":
        solver, status, stats = _run(built, built.peak, "peak scratchpad bytes", workers, seed,
                                     time_limit, lines)
        phases.append(stats)
        if status == cp_model.UNKNOWN:
            choice = _fallback(problem, time_limit, notes)
        else:
            _check_status(problem, status, time_limit)
            peak = int(round(solver.objective_value))
            first = built.choice(solver)
            built.model.add(built.peak <= peak)
            solver, status, stats = _run(built, built.cycles, "cycles", workers, seed,
                                         time_limit, lines, hint=first)
            phases.append(stats)
            if status == cp_model.UNKNOWN:
                choice = first
                notes.append("the time limit hit while minimising cycles at the smallest "
                             "peak: the first phase's schedule is used")
    else:
        solver, status, stats = _run(built, built.cycles, "cycles", workers, seed, time_limit,
                                     lines)
        phases.append(stats)
        if status == cp_model.UNKNOWN:
            choice = _fallback(problem, time_limit, notes)
    if choice is None:
        _check_status(problem, status, time_limit)
        choice = built.choice(solver)
    solver_stats = SolverStats(built.num_variables, built.num_constraints,
                               built.combinations, built.front, phases, workers, seed, time_limit)
    solution = Solution(problem, choice, objective, "solver", solver_stats,
                        "\n".join(lines) if lines is not None else "", notes)
    # The model is exact: its objective is the plain-Python cost of what it chose.
    last = phases[-1]
    if last.status in ("OPTIMAL", "FEASIBLE") and last.minimises == "cycles" and not notes:
        model_cycles = int(round(last.objective))
        if model_cycles != solution.cycles:  # pragma: no cover - a bug, not bad input
            raise AssertionError(f"CP-SAT objective {model_cycles} != cost model "
                                 f"{solution.cycles}")
    return solution


def _fallback(problem: Problem, time_limit: float | None, notes: list[str]) -> dict[str, int]:
    """The time limit hit before CP-SAT found any schedule: the V1 rules' schedule, if it
    fits (else the error says to raise the limit)."""
    from spyre_sched.solve import cost as cost_model
    from spyre_sched.solve.heuristic import v1_choice

    choice = v1_choice(problem)
    if not cost_model.feasible(problem, choice):
        raise SolveError(f"CP-SAT found no schedule for {problem.kernel} within the time "
                         f"limit of {time_limit} s and the V1 heuristic's does not fit; "
                         f"raise --time-limit")
    notes.append(f"the time limit ({time_limit} s) hit before CP-SAT found a schedule: the "
                 f"V1 heuristic's schedule is used (status UNKNOWN, gap unknown)")
    return choice


def _check_status(problem: Problem, status: int, time_limit: float | None) -> None:
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return
    if status == cp_model.INFEASIBLE:
        from spyre_sched.solve.explain import explain_infeasible

        raise explain_infeasible(problem)
    if status == cp_model.UNKNOWN:
        raise SolveError(f"CP-SAT found no schedule for {problem.kernel} within the time "
                         f"limit of {time_limit} s; raise --time-limit")
    raise SolveError(f"CP-SAT rejected the model for {problem.kernel} "
                     f"(status {cp_model.CpSolver().status_name(status)}); this is a bug")
