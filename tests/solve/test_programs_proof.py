"""A kernel of several programs solved by its programs' own solves (`solver._programs_optimal`):
when only link decisions span programs and the programs' least cycles add up to the
exact cost of their choices together, the kernel's model is not searched. The schedule
must then be what searching it gives, up to equal-cost ties: the same cycles and the same
total scratchpad (the tie-break's figure), and it falls back to the search when a
decision other than a link spans programs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from handmade import elementwise_problem

from spyre_sched import api
from spyre_sched.solve import cost, solver
from spyre_sched.solve.brute_force import brute_force
from spyre_sched.solve.extract import extract
from spyre_sched.solve.problem import Pipeline, Problem, Program, Quantity, Stage, Transfer

ROOT = Path(__file__).resolve().parents[2]


def total_bytes(problem: Problem, choice: dict[str, int]) -> int:
    return sum(cost.program_scratchpad(problem, p, choice) for p in problem.programs)


def searched(problem: Problem, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as m:
        m.setattr(solver, "_programs_optimal", lambda *a: None)
        return solver.solve(problem)


def softmax_problem() -> Problem:
    module, _, _ = api.load_schedule_input(str(ROOT / "examples/softmax_rows.mlir"), "spyre")
    return extract(module).problem


def with_a_fixed_program() -> Problem:
    """Two programs with decisions and, between them, one without any (its cycles a
    constant the programs' least cycles leave out)."""
    problem = elementwise_problem(4, 2, programs=2, capacity=8192)
    fixed = Program(2, "local_schedule_2", (Pipeline("p2.copy", Quantity.const(4), (
        Stage("dma", "dma_load", (Transfer("p2.load", Quantity.const(256), 128, 320),)),)),))
    return replace(problem, programs=(*problem.programs, fixed))


@pytest.mark.parametrize("make", [
    lambda: elementwise_problem(4, 2, programs=3, capacity=8192),
    with_a_fixed_program,
    softmax_problem,  # (X kept across its first two programs: a link decision)
], ids=["three-programs", "a-fixed-program", "softmax-keep-link"])
def test_programs_proof_gives_the_searched_optimum_and_tie_break(
        make, monkeypatch: pytest.MonkeyPatch) -> None:
    problem = make()
    s = solver.solve(problem)
    assert s.stats.found_by == "programs" and s.stats.status == "OPTIMAL"
    assert s.stats.gap == 0 and s.stats.model_objective == s.cycles
    assert cost.feasible(problem, s.choice)
    reference = searched(problem, monkeypatch)
    assert reference.stats.found_by == "CP-SAT"
    assert s.cycles == reference.cycles
    assert total_bytes(problem, s.choice) == total_bytes(problem, reference.choice)
    assert solver.solve(problem).choice == s.choice  # (deterministic)


def test_a_decision_shared_by_programs_is_searched() -> None:
    problem = elementwise_problem(2, 2, programs=2, capacity=8192, modulos=(1, 2))
    # program 1's buffers rotate with program 0's modulo: the programs are one problem
    p1 = problem.programs[1]
    shared = replace(p1, buffers=tuple(replace(b, modulo="p0.pipe.outer.modulo")
                                       for b in p1.buffers))
    problem = replace(problem, programs=(problem.programs[0], shared))
    s = solver.solve(problem)
    assert s.stats.found_by == "CP-SAT"
    assert (s.cycles,) == brute_force(problem)[1]
