"""Bulk advancement (docs/emulator.md, "Bulk advancement"): a loop that only receives and
computes, in a unit that reads no memory, runs the iterations whose entries are in its
FIFOs together, one numpy call per op. It must give the run the per-op code gives
(`emulator.device.codegen.BULK` off): the same outputs, cycles and per-unit figures; and
each stacked op must give, row by row, what the per-op calls give."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import spyre_sched
from emulator.device import bulk, codegen, sim
from emulator.numerics.reductions import few_f32_sums
from spyre_sched.emulate import compile_bundle

from emu_figures import launch_figures

ROOT = Path(__file__).parents[3]


def _figures(result) -> dict:
    return launch_figures(result)


@pytest.mark.parametrize("kernel, strategy", [("softmax_rows", "heuristic"),
                                              ("softmax_rows", "solver")])
def test_bulk_gives_the_per_op_run(kernel, strategy, tmp_path, monkeypatch):
    """softmax_rows: a row's maximum and a row's sum; under the solver through FIFOs that
    share their datapath's queue."""
    bundle = tmp_path / "bundle"
    compile_bundle(ROOT / "examples" / f"{kernel}.mlir", bundle, "spyre", "latency", strategy)
    taken = []
    take = sim.Simulator.bulk_take

    queued = []

    def counted(self, fifo, n, times):
        taken.append(len(times))
        queued.append(fifo.queue is not None)
        return take(self, fifo, n, times)

    monkeypatch.setattr(sim.Simulator, "bulk_take", counted)

    def check(on: bool) -> None:
        if on:  # (the loops these kernels sum or take the maximum in)
            assert sum(taken) > len(taken) >= 1
            assert any(queued) or strategy != "solver"
        else:
            assert not taken
        taken.clear()

    _bulk_gives_the_per_op_run(bundle, monkeypatch, check)


def _bulk_gives_the_per_op_run(bundle, monkeypatch, check) -> None:
    """Launch `bundle` with BULK on, then off: both match, `check(on)` after each, and
    the two give the same outputs, cycles and per-unit figures."""
    runs = {}
    for on in (True, False):
        monkeypatch.setattr(codegen, "BULK", on)
        result = spyre_sched.run(bundle, seed=7, reference=runs[True].reference_run if runs else None)
        runs[on] = result
        assert result.matches
        check(on)
    want, got = _figures(runs[False]), _figures(runs[True])
    for key in want:
        assert got[key] == want[key], f"{key} differs between the bulk and the per-op run"


def _plan(kind: str, fn, dtype, shape=(1,)):
    return SimpleNamespace(batch_kind=(kind, fn, np.dtype(dtype)), shape=shape)


def _awkward(dtype, k: int, shape: tuple) -> np.ndarray:
    """Values with infinities, NaNs, signed zeros and large magnitudes among ordinary ones."""
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1e3, (k, *shape)).astype(dtype)
    flat = x.reshape(-1)
    flat[::7] = np.array(-0.0, dtype)
    flat[3::11] = np.array(np.inf, dtype)
    flat[5::13] = np.array(-np.inf, dtype)
    flat[9::17] = np.array(np.nan, dtype)
    flat[2::5] = np.finfo(dtype).max
    return x


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("carried_first", [True, False])
def test_carried_update_is_the_per_op_calls_in_order(dtype, carried_first):
    x = _awkward(dtype, 40, (4,))
    start = np.array([1.5, -0.0, 3e4, -2.0], dtype)
    want = start
    with np.errstate(all="ignore"):
        for row in x:
            want = np.add(want, row) if carried_first else np.add(row, want)
        got = bulk.carried_op(_plan("native", np.add, dtype), carried_first)(len(x), start, x)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_f32_row_sums_in_groups_are_the_per_row_sums():
    # 70 iterations of 32 terms: more than one call of few_f32_sums (1024 terms each).
    rng = np.random.default_rng(5)
    x = (rng.normal(0, 1, (70, 1, 32)) * 10.0 ** rng.integers(-8, 8, (70, 1, 32))).astype(np.float32)
    got = bulk.batch_op(_plan("f32_sums", None, np.float32), (True,))(70, x)
    want = np.stack([few_f32_sums(row).reshape(1) for row in x])
    assert got.shape == (70, 1) and got.tobytes() == want.tobytes()
    x[40, 0, 3] = np.inf  # (the per-op code takes `reduce`'s way for this row)
    with pytest.raises(bulk.Unbatched):
        bulk.batch_op(_plan("f32_sums", None, np.float32), (True,))(70, x)


def test_chunks_of_another_dtype_are_not_stacked():
    fifo = SimpleNamespace(chunks=[[0, np.zeros((1, 4), np.float16), 1],
                                   [0, np.zeros((1, 4), np.float32), 1]])
    with pytest.raises(bulk.Unbatched):
        bulk.stacked(fifo, 2, (1, 4))
    fifo.chunks[1][1] = np.ones((1, 4), np.float16)
    assert bulk.stacked(fifo, 2, (1, 4)).tolist() == [[[0.0] * 4], [[1.0] * 4]]


@pytest.mark.parametrize("kernel, strategy", [("ffn_swiglu", "solver"),
                                              ("splitk_strided_groups", "heuristic")])
def test_bulk_matrix_k_loops_give_the_per_op_run(kernel, strategy, tmp_path, monkeypatch):
    """A matrix unit's K loop (receive a slab of A and one of B, one matrix instruction on
    the carried accumulator) runs its iterations together when their slabs are in the
    FIFOs: the same outputs, cycles and per-unit figures as instruction by instruction."""
    bundle = tmp_path / "bundle"
    compile_bundle(ROOT / "examples" / f"{kernel}.mlir", bundle, "spyre", "latency", strategy)
    stacked = _count_stacked_matrix_calls(monkeypatch)

    def check(on: bool) -> None:
        assert (sum(stacked) > len(stacked) >= 1) if on else not stacked
        stacked.clear()

    _bulk_gives_the_per_op_run(bundle, monkeypatch, check)


def _count_stacked_matrix_calls(monkeypatch) -> list[int]:
    """How many instructions each stacked matrix call (`bulk.matmul_op`'s) takes, in order."""
    stacked: list[int] = []
    real = bulk.matmul_op

    def counted(plan):
        fn = real(plan)
        return None if fn is None else (lambda k, *args: stacked.append(k) or fn(k, *args))

    monkeypatch.setattr(bulk, "matmul_op", counted)
    return stacked


def _matmul_plan():
    from emulator.device.program import ComputePlan
    from xdsl.dialects.builtin import Float16Type, Float32Type, VectorType
    from xdsl.ir import Block

    from spyre_sched.dialects import vectorchain

    block = Block(arg_types=[VectorType(Float16Type(), [4, 16]),
                             VectorType(Float16Type(), [16, 8]),
                             VectorType(Float32Type(), [4, 8])])
    return ComputePlan(vectorchain.MatmulOp("f32", *block.args))


def test_stacked_matrix_instructions_are_the_per_op_calls_in_order():
    plan = _matmul_plan()
    rng = np.random.default_rng(11)
    lhs = (rng.normal(0, 1, (9, 4, 16)) * 2.0 ** rng.integers(-12, 12, (9, 4, 16))
           ).astype(np.float16)
    rhs = rng.normal(0, 4, (9, 16, 8)).astype(np.float16)
    start = rng.normal(0, 1, (4, 8)).astype(np.float32)
    want = start
    for a, b in zip(lhs, rhs):
        want = plan.run(a, b, want)
    got = bulk.matmul_op(plan)(9, start, lhs, rhs)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    # an exact zero sum (its sign from its terms) or a non-finite operand: the per-op way
    lhs[4, 1, :] = 0
    with pytest.raises(bulk.Unbatched):
        bulk.matmul_op(plan)(9, start, lhs, rhs)
    lhs[4, 1, :] = np.inf
    with pytest.raises(bulk.Unbatched):
        bulk.matmul_op(plan)(9, start, lhs, rhs)


@pytest.mark.parametrize("kernel, strategy, zero_rows", [("ffn_swiglu", "solver", False),
                                                         ("ffn_swiglu", "heuristic", True)])
def test_deferred_matrix_sums_give_the_per_instruction_run(kernel, strategy, zero_rows,
                                                           tmp_path, monkeypatch):
    """A K loop's matrix instructions leave their sums to the loop's end (or until
    `bulk.DEFERRED_LIMIT` have gathered: 3 here, so loops settle midway too), computed for
    all of them at once: the same outputs, cycles and per-unit figures as each instruction
    computing its own, with fewer, larger stacked calls. Rows of zeros make exact zero
    sums, which the stacked form leaves to the instructions one by one."""
    bundle = tmp_path / "bundle"
    compile_bundle(ROOT / "examples" / f"{kernel}.mlir", bundle, "spyre", "latency", strategy)
    inputs = None
    if zero_rows:
        rng = np.random.default_rng(5)
        x = rng.uniform(-2, 2, (64, 128)).astype(np.float16)
        x[3] = 0
        x[17, :64] = -0.0
        inputs = {"X": x}
    monkeypatch.setattr(bulk, "DEFERRED_LIMIT", 3)
    stacked = _count_stacked_matrix_calls(monkeypatch)
    runs, calls = {}, {}
    for defer in (True, False):
        monkeypatch.setattr(codegen, "DEFER_MATMUL", defer)
        result = spyre_sched.run(bundle, inputs, seed=7,
                                 reference=runs[True].reference_run if runs else None)
        assert result.matches
        runs[defer], calls[defer] = result, list(stacked)
        stacked.clear()
    want, got = _figures(runs[False]), _figures(runs[True])
    for key in want:
        assert got[key] == want[key], f"{key} differs between deferred and per-instruction sums"
    assert calls[True] and max(calls[True]) <= 3 + 8  # (a bulk step adds up to a FIFO's depth)
    assert sum(calls[True]) > sum(calls[False])  # the per-op instructions' sums stacked too
