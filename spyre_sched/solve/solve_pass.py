"""The `solve` step: open ScheduleIR in, solved ScheduleIR out (an xDSL `ModulePass`
whose fields are its options), keeping the solution and its trace for the caller."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import heuristic
from spyre_sched.solve.solver import Solution, solve
from spyre_sched.solve.writeback import write_back

STRATEGIES = ("solver", "heuristic")


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
    result: SolveResult = field(default_factory=SolveResult, compare=False, hash=False)

    @property
    def step_name(self) -> str:
        return "solve"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        from spyre_sched.solve.problem import SolveError

        if self.strategy not in STRATEGIES:
            raise SolveError(f"unknown strategy '{self.strategy}'; expected one of "
                             f"{', '.join(STRATEGIES)}")
        extraction = extract(op)
        if self.strategy == "heuristic":
            solution = heuristic(extraction.problem, self.objective)
        else:
            solution = solve(extraction.problem, self.objective, time_limit=self.time_limit,
                             workers=self.workers, seed=self.seed, log=self.log)
        write_back(extraction, solution)
        self.result.solution = solution
