"""Parts that are the same up to names have one signature (`solve/signature.py`): their
least cycles alone (`solve/part_bounds.py`) are solved once per structure, and every
part still gets exactly the bound and choice its own solve would give."""

from __future__ import annotations

import dataclasses

from handmade import elementwise_program

from spyre_sched.solve import cost, model, part_bounds
from spyre_sched.solve.problem import Problem
from spyre_sched.solve.signature import part_signature
from spyre_sched.solve.solver import solve


def _problem(shapes: list[tuple[int, int]], bandwidths: list[int] | None = None) -> Problem:
    decisions, programs = [], []
    for i, (rows, vecs) in enumerate(shapes):
        ds, prog = elementwise_program(i, rows, vecs)
        if bandwidths is not None:
            prog = _with_dma_bandwidth(prog, bandwidths[i])
        decisions += ds
        programs.append(prog)
    return Problem("handmade", "spyre", 2 * 1024 * 1024, tuple(decisions), tuple(programs),
                   corelets=2)


def _with_dma_bandwidth(prog, bandwidth: int):
    outer = prog.pipelines[0]
    first = outer.stages[0]
    moved = dataclasses.replace(first.work[0], bandwidth=bandwidth)
    stages = (dataclasses.replace(first, work=(moved,)), *outer.stages[1:])
    return dataclasses.replace(prog, pipelines=(dataclasses.replace(outer, stages=stages),))


def _signatures(problem: Problem) -> list[tuple]:
    out = []
    for prog in problem.programs:
        for part in model.components(problem, prog):
            out.append(part_signature(problem, part, model.program_scope(problem, part)))
    return out


def test_programs_that_differ_only_in_names_have_one_signature():
    sigs = _signatures(_problem([(3, 4), (3, 4), (2, 4)]))
    assert sigs[0] == sigs[1]  # p0 and p1: the same but for their names
    assert sigs[2] != sigs[0]  # p2 has other tile candidates and iteration counts


def test_a_different_figure_gives_a_different_signature():
    sigs = _signatures(_problem([(3, 4), (3, 4)], bandwidths=[128, 64]))
    assert sigs[0] != sigs[1]


def test_parts_alike_are_bounded_once_and_each_gets_its_own_bound(monkeypatch):
    problem = _problem([(3, 4), (3, 4), (2, 4), (3, 4)])
    solved = []
    original = part_bounds._least

    def counted(sub, links, seed, gap):
        solved.append(sub.programs[0].index)
        return original(sub, links, seed, gap)

    monkeypatch.setattr(part_bounds, "_least", counted)
    bounds = part_bounds.part_bounds(problem, 0, 0.0)
    assert sorted(set(solved)) == [0, 2]  # programs 1 and 3 reuse program 0's bound
    for b in bounds:
        alone = original(part_bounds.alone(problem, model.components(
            problem, problem.programs[b.program])[b.part]), b.links, 0, 0.0)
        assert (b.least, b.choice) == alone
        assert all(d.startswith(f"p{b.program}.") for d in b.choice)
    monkeypatch.undo()
    shared = solve(problem)
    assert shared.stats.phases[-1].status == "OPTIMAL"
    for index in (1, 3):  # the same program costs what program 0 costs (ties may differ)
        assert cost.program_cycles(problem, problem.programs[index], shared.choice) == \
            cost.program_cycles(problem, problem.programs[0], shared.choice)
