"""The `solve` step: open ScheduleIR in, solved ScheduleIR out (an xDSL `ModulePass`
whose fields are its options), keeping the solution and its trace for the caller."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from spyre_sched.solve import loop_orders
from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import heuristic, v1_choice
from spyre_sched.solve.random_schedule import random_schedule
from spyre_sched.solve.solution import Solution
from spyre_sched.solve.solver import COMPARE_BUDGET, solve
from spyre_sched.solve.writeback import write_back

STRATEGIES = ("solver", "heuristic", "heuristic+keep", "random")
"""solver: CP-SAT; heuristic: V1's rules; heuristic+keep: V1 plus keeping inputs resident
when they fit; random: a random feasible schedule (seeded by `seed`)."""


@dataclass
class SolveResult:
    """What the last run of a `SolveDecisions` pass produced (the pass itself is frozen)."""

    solution: Solution | None = None


@dataclass(frozen=True)
class SolveDecisions(ModulePass):
    name = "solve"

    objective: str = "latency"
    strategy: str = "solver"
    time_limit: float | None = None
    workers: int = 1
    seed: int = 0
    log: bool = False
    pinned: tuple[str, ...] = ()
    """Decision kinds the solver leaves at the V1 heuristic's values."""
    interchanged: ModuleOp | None = field(default=None, compare=False, hash=False)
    """The same kernel scheduled with its offered tile nests interchanged
    (interchange-tile-loops): the solver chooses each such program's order in the same
    model (`loop_orders`), and a program whose interchanged form wins is moved from it
    into the module solved."""
    result: SolveResult = field(default_factory=SolveResult, compare=False, hash=False)

    @property
    def step_name(self) -> str:
        return "solve"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from spyre_sched.solve.problem import DECISION_KINDS, SolveError

        if self.strategy not in STRATEGIES:
            raise SolveError(f"unknown strategy '{self.strategy}'; expected one of "
                             f"{', '.join(STRATEGIES)}")
        unknown = [k for k in self.pinned if k not in DECISION_KINDS]
        if unknown:
            raise SolveError(f"cannot pin decisions of kind {', '.join(unknown)}; the kinds "
                             f"are {', '.join(DECISION_KINDS)}")
        if self.pinned and self.strategy != "solver":
            raise SolveError(f"pinning decision kinds needs the solver strategy, not "
                             f"'{self.strategy}'")
        extraction = extract(op)
        problem = extraction.problem
        forms = other = None
        if self.interchanged is not None and self.strategy == "solver":
            other = extract(self.interchanged)
            forms = loop_orders.merge(problem, other.problem,
                                      loop_orders.offered(op, self.interchanged))
            if forms is not None:
                problem = forms.problem
        if self.strategy in ("heuristic", "heuristic+keep"):
            solution = heuristic(problem, self.objective, keep=self.strategy == "heuristic+keep")
        elif self.strategy == "random":
            solution = random_schedule(problem, self.seed, self.objective)
        else:
            fixed = None
            if self.pinned:
                v1 = v1_choice(problem)
                fixed = {d.name: v1[d.name] for d in problem.decisions
                         if d.kind in self.pinned}
            solution = solve(problem, self.objective, time_limit=self.time_limit,
                             workers=self.workers, seed=self.seed, log=self.log, fixed=fixed)
        if forms is not None:
            assert other is not None
            merged = forms.problem

            def again(fixed: dict[str, int]) -> Solution:
                return solve(merged, self.objective, workers=self.workers, seed=self.seed,
                             fixed=fixed, search_budget=COMPARE_BUDGET)

            solution = loop_orders.apply(forms, solution, extraction, other, again)
        else:
            write_back(extraction, solution)
        self.result.solution = solution
