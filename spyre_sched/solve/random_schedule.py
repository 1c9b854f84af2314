"""`--strategy random`: a random feasible schedule, to measure the cost model on schedules
nobody optimised (the bench's model error on schedules the model was not fitted to).

A random walk from the V1 heuristic's schedule: the decisions in a random order, each
given a random candidate, kept when the schedule still fits (scratchpad, instances, FIFO
depth), else left as it was; two rounds. A FIFO pipeline's chunk states its FIFOs'
depths (`FifoSplit`), so drawing a chunk sets them too. Deterministic per seed."""

from __future__ import annotations

import random

from spyre_sched.solve import cost
from spyre_sched.solve.heuristic import v1_choice
from spyre_sched.solve.problem import Problem, SolveError
from spyre_sched.solve.solution import Solution

ROUNDS = 2


def random_choice(problem: Problem, seed: int) -> dict[str, int]:
    choice = v1_choice(problem)
    if not cost.feasible(problem, choice):
        raise SolveError(f"no random schedule for {problem.kernel}: the V1 schedule it "
                         "starts from does not fit")
    rng = random.Random(seed)
    for _ in range(ROUNDS):
        order = list(problem.decisions)
        rng.shuffle(order)
        for d in order:
            trial = {**choice, d.name: rng.randrange(len(d.candidates))}
            if d.kind == "chunk":
                trial.update(problem.chunk_depths(d.name, trial[d.name]))
            if cost.feasible(problem, trial):
                choice = trial
    return choice


def random_schedule(problem: Problem, seed: int, objective: str = "latency") -> Solution:
    return Solution(problem, random_choice(problem, seed), objective, "random")

