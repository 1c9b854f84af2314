"""What a solve returns: the chosen candidate of every decision, with the solver's
statistics (one `PhaseStats` per CP-SAT phase) and notes."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from spyre_sched.solve import cost
from spyre_sched.solve.problem import Candidate, Problem


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
    found_by: str = "CP-SAT"
    """Who found the schedule this phase returns: `CP-SAT`; `hint` when the time limit
    stopped CP-SAT before it had a solution of its own: the hint it was given (the V1
    heuristic's schedule, or the first phase's) is then the best schedule known, and
    `bound` is the better of CP-SAT's and the model's own lower bound; `programs` when
    each program's own solve found it and their least cycles add up to the kernel's
    lower bound, which proves it optimal without searching the kernel's model
    (`solver._programs_optimal`)."""
    cp_sat_status: str = ""
    """CP-SAT's own status when it differs from `status` (UNKNOWN: it found nothing)."""

    def as_data(self) -> dict[str, object]:
        """Plain data; figures CP-SAT did not reach are None (valid JSON)."""
        return {k: (None if isinstance(v, float) and math.isnan(v) else v)
                for k, v in self.__dict__.items()}


@dataclass
class SolverStats:
    variables: int
    constraints: int
    evaluations: int
    """Rows the exact cost model was evaluated on to state the model (each stage over its
    own scope, all programs)."""
    phases: list[PhaseStats]
    workers: int
    seed: int
    time_limit: float | None
    build_time: float = 0.0
    """Seconds spent building the model (Python: tables, variables, constraints)."""
    model_objective: int | None = None
    """The model's own figure for the chosen schedule's cycles (the exact cost is
    `Solution.cycles`; they agree wherever the model is exact)."""
    tie_breaks: list[PhaseStats] = field(default_factory=list)
    """The solves that chose among the schedules of the objective's optimum (least
    scratchpad, most vectors per instruction); not in `status`: they decide nothing the
    objective measures."""
    polished: bool = False
    """A tie-break stopped on its budget and its schedule was polished one decision at a
    time under the exact cost model (`solver.descend`)."""

    @property
    def status(self) -> str:
        names = [p.status for p in self.phases]
        return "OPTIMAL" if all(n == "OPTIMAL" for n in names) else names[-1]

    @property
    def gap(self) -> float:
        return max((p.gap for p in self.phases), default=0.0)

    @property
    def wall_time(self) -> float:
        """CP-SAT's wall time over every solve, the tie-breaks' too."""
        return sum(p.wall_time for p in [*self.phases, *self.tie_breaks])

    @property
    def found_by(self) -> str:
        return self.phases[-1].found_by if self.phases else "CP-SAT"

    def as_data(self) -> dict[str, object]:
        gap = None if math.isnan(self.gap) else self.gap
        return {
            "status": self.status, "gap": gap, "wall_time": self.wall_time,
            "variables": self.variables, "constraints": self.constraints,
            "evaluations": self.evaluations, "workers": self.workers,
            "found_by": self.found_by, "build_time": self.build_time,
            "model_objective": self.model_objective,
            "seed": self.seed, "time_limit": self.time_limit,
            "phases": [p.as_data() for p in self.phases],
            "tie_breaks": [p.as_data() for p in self.tie_breaks],
            "polished": self.polished,
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
    decision_rules: Callable[[], dict[str, str]] | None = field(default=None, compare=False,
                                                                  repr=False)
    """Decision name -> the `rule` the trace gives it, worked out when the trace is built
    (an order decision's comparison with the form not chosen: another search)."""

    @property
    def values(self) -> dict[str, Candidate]:
        return self.problem.values(self.choice)

    @property
    def cycles(self) -> int:
        return cost.kernel_cycles(self.problem, self.choice)

    @property
    def peak_scratchpad(self) -> int:
        return cost.peak_scratchpad(self.problem, self.choice)
