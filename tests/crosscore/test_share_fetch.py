"""Fetching an input every tile reads whole once and sharing it over the ring
(`share-fetch`, `apply-share`): the choice as the cost model prices it (the direct read
against the owners' fills and the ring reads, the slices' region in both programs'
scratchpad), V1 never taking it, and the shared schedule on the emulator (B crosses the
device-memory port once, same outputs as the reference)."""

from __future__ import annotations

from pathlib import Path

from xdsl.parser import Parser

import spyre_sched
from spyre_sched import api
from spyre_sched.dialects.registry import make_context
from spyre_sched.solve import cost
from spyre_sched.solve.extract import extract
from spyre_sched.solve.heuristic import v1_choice
from spyre_sched.solve.solver import solve

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "tests/crosscore/kernels/shared_weights_matmul.mlir"
TILES = 4
B_BYTES = 256 * 128 * 2
SLICE = B_BYTES // TILES  # 64 rows of B per owner


def _problem():
    module, _, _ = api.load_schedule_input(str(KERNEL), "spyre")
    text = api.print_ir(module)
    return extract(Parser(make_context(), text).parse_module()).problem


def _transfers(problem, program: int):
    def walk(pipe):
        for stage in pipe.stages:
            for w in stage.work:
                if hasattr(w, "stages"):
                    yield from walk(w)
                elif hasattr(w, "bandwidth"):
                    yield w
    return [t for p in problem.programs if p.index == program for pipe in p.pipelines
            for t in walk(pipe)]


def test_the_choice_trades_device_memory_for_ring_reads() -> None:
    problem = _problem()
    share = problem.decision("p0.share.B")
    assert share.kind == "share" and share.program == 0
    assert "one slice per core of 4 in program 1" in share.source
    # the slices' region counts in the fetch program and the reader, only when shared
    for index in (0, 1):
        (region,) = [b for p in problem.programs if p.index == index for b in p.buffers
                     if b.name == "p0.share.B.region"]
        assert region.bytes.table == {(0,): 0, (1,): SLICE}
    moved = {}
    for t in _transfers(problem, 0) + _transfers(problem, 1):
        if "p0.share.B" not in t.bytes.scope:
            continue
        k = t.bytes.scope.index("p0.share.B")
        by_value = {}
        for key, v in t.bytes.table.items():
            by_value[key[k]] = v
        moved.setdefault((t.source, by_value[0] > 0), []).append(by_value)
    # program 0's direct read moves all of B from device memory when not shared, nothing
    # when shared; each ring read (one per owner, from its scratchpad) and each owner's
    # fill moves one slice when shared, nothing when not
    direct = [v for (src, when_off), vs in moved.items() if when_off for v in vs]
    assert direct == [{0: B_BYTES, 1: 0}]
    shared = [v for (src, when_off), vs in moved.items() if not when_off for v in vs]
    assert sorted(map(str, shared)) == sorted(map(str, [{0: 0, 1: SLICE}] * (TILES + 1)))
    ring_sources = {src for (src, when_off) in moved if not when_off}
    assert {f"core{p}.lx" for p in range(TILES)} <= ring_sources


def test_solver_shares_when_it_is_cheaper_and_v1_never_does() -> None:
    problem = _problem()
    solution = solve(problem)
    assert solution.choice["p0.share.B"] == 1
    direct = dict(solution.choice, **{"p0.share.B": 0})
    # B over the device-memory port four times costs more than once plus the ring reads
    assert cost.kernel_cycles(problem, direct) > solution.cycles
    v1 = v1_choice(problem)
    assert problem.decision("p0.share.B").candidates[v1["p0.share.B"]].value == 0


def test_shared_schedule_reads_b_once_and_matches() -> None:
    schedule = spyre_sched.compile(str(KERNEL), device="spyre")
    assert schedule.decisions[0]["share"] == {"p0.share.B": 1}
    result = spyre_sched.run(schedule, seed=0)
    assert result.matches
    # device memory gives B once (a slice to each owner) and A once
    from_memory = sum(v for k, v in result.datapath_bytes.items() if k.startswith("ddr->"))
    assert from_memory == B_BYTES + 32 * 256 * 2
    # each owner's slice leaves its scratchpad once per other reader, over the ring
    for p in range(TILES):
        assert result.datapath_bytes[f"core{p}.lx->ring.stop{p}"] == (TILES - 1) * SLICE


def test_shared_schedule_beats_v1() -> None:
    shared = spyre_sched.run(spyre_sched.compile(str(KERNEL), device="spyre"), seed=0)
    heuristic = spyre_sched.run(spyre_sched.compile(str(KERNEL), strategy="heuristic"), seed=0)
    assert heuristic.matches
    assert shared.cycles < heuristic.cycles
