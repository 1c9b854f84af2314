"""The cost model caches a nested pipeline's sub-results by the values of the decisions
they depend on (docs/solver.md, "Phases overlap"): a prefetch link's values over its
stage's candidate combinations (`cost.link_values`) share one cache across the rows, and
every other evaluation has one of its own. The cache must change no figure, and must keep
a row from re-costing the nested pipelines it has already costed."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from xdsl.parser import Parser

from spyre_sched import api
from spyre_sched.dialects.registry import make_context
from spyre_sched.solve import cost
from spyre_sched.solve.extract import extract
from spyre_sched.solve.problem import stage_scope

ROOT = Path(__file__).resolve().parents[2]
TWO_WEIGHTS = ROOT / "tests/crosscore/kernels/shared_two_weights_matmul.mlir"
KERNELS = [TWO_WEIGHTS, ROOT / "examples/ffn_swiglu.mlir", ROOT / "bench/kernels/quick/layernorm.mlir"]


def _problem(path: Path):
    module, _, _ = api.load_schedule_input(str(path), "spyre")
    return extract(Parser(make_context(), api.print_ir(module)).parse_module()).problem


def _links(problem):
    """Every (link, engine) of the prefetch chains of the programs' own pipelines."""
    for program in problem.programs:
        for p in program.pipelines:
            for st, chain in zip(p.stages, cost.prefetch_chain(p)):
                engine = cost.load_prefix_engine(st)
                if engine is not None:
                    yield from ((link, engine) for link in chain)


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.stem)
def test_link_values_equal_each_row_costed_alone(path: Path) -> None:
    """Each row of the shared-cache table equals `link_cycles` for that choice with a
    cache of its own (every 97th row and the last: the table of the two-weight matmul
    has 28,672)."""
    problem = _problem(path)
    links = list(_links(problem))
    assert links, "the kernel has no prefetch chain: the test checks nothing"
    for link, engine in links:
        scope = stage_scope(link[0])
        values = cost.link_values(problem, link, engine)
        keys = list(itertools.product(*(range(len(problem.decision(d).candidates))
                                        for d in scope)))
        assert sorted(values) == keys
        for key in [*keys[::97], keys[-1]]:
            assert values[key] == cost.link_cycles(problem, link, engine,
                                                   dict(zip(scope, key))), (link[0].name, key)
        assert cost.link_least(problem, link, engine) == min(values.values())


def test_a_row_does_not_recost_what_earlier_rows_costed(monkeypatch) -> None:
    """The two-weight matmul's largest link (10 decisions, 28,672 rows over the B product
    with its hoisted fetch): with one cache for the table, a nested pipeline's profile is
    costed once per combination of its own decisions (1,856 in all), fewer than one per
    row; a cache per row costs 3 per row, none at all ~66."""
    problem = _problem(TWO_WEIGHTS)
    link, engine = max(_links(problem), key=lambda le: len(stage_scope(le[0][0])))
    rows = 1
    for d in stage_scope(link[0]):
        rows *= len(problem.decision(d).candidates)
    assert rows >= 10_000
    calls = 0
    original = cost._profile_of

    def counted(*args, **kwargs):
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(cost, "_profile_of", counted)
    cost.link_values(problem, link, engine)
    assert calls < rows, (calls, rows)
