"""Parts that are the same up to names share one table (`solve/signature.py`): the cost
model runs once per part structure, and every part still gets exactly the rows its own
table would have."""

from __future__ import annotations

import dataclasses

from handmade import elementwise_program

from spyre_sched.solve import model
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


def test_the_cost_model_runs_once_per_structure_and_each_part_gets_its_own_rows(monkeypatch):
    problem = _problem([(3, 4), (3, 4), (2, 4), (3, 4)])
    evaluated = []
    original = model.program_table

    def counted(problem, part, whole=False):
        evaluated.append(part.index)
        return original(problem, part, whole)

    monkeypatch.setattr(model, "program_table", counted)
    built = model.build(problem)
    assert evaluated == [0, 2]  # programs 1 and 3 reuse program 0's rows
    for table in built.tables:
        alone = original(problem, table.program, whole=True)
        assert table.scope == alone.scope
        assert table.scope[0].startswith(f"p{table.program.index}.")
        assert (table.keys, table.cycles, table.buffer_bytes, table.fifos) == \
            (alone.keys, alone.cycles, alone.buffer_bytes, alone.fifos)
    monkeypatch.undo()
    shared = solve(problem)
    assert shared.stats.phases[-1].status == "OPTIMAL"
    for index in (1, 3):  # the same program gets the same choice as program 0
        assert [shared.choice[f"p{index}{n[2:]}"] for n in shared.choice if n.startswith("p0.")] \
            == [shared.choice[n] for n in shared.choice if n.startswith("p0.")]
