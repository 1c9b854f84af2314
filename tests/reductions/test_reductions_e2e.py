"""Reductions end to end: chunked reductions (rows larger than a core's scratchpad) and
reductions over an outer dim (column sums), compiled, solved, lowered, emulated, and
compared three ways:

- with the reference interpreter, under the project's comparison rule (`spyre_sched.run`);
- with numpy's exact sum, under rule 3 of docs/numerics.md (the bound for a sum
  accumulated in f32 in any order, rounded once to f16);
- bit for bit with a numpy model of the order the schedule promises: each step's vector
  reduced exactly and rounded once to f32 (the device's reduction support), folded into
  the f32 accumulator one step after the other, chunk after chunk; one rounding to f16.

Rows of 16384 f16 (32 KiB) do not fit the 16 KiB scratchpad of `devices/small_lx.mlir`
(spyre with a smaller scratchpad) and run in a few seconds; rows that overflow spyre's and
sample_device's own scratchpads are `slow`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import reduction_kernels as kernels
from emulator.numerics import matches_hardware_order_sum

HERE = Path(__file__).resolve().parent
SMALL_LX = str(HERE / "devices" / "small_lx.mlir")
ROW_SUM_2M = HERE / "row_sum_2m.mlir"


def _compile(text: str, tmp_path: Path, device: str, strategy: str = "solver"):
    from spyre_sched.api import compile as compile_kernel

    path = tmp_path / "kernel.mlir"
    path.write_text(text)
    return compile_kernel(str(path), device=device, strategy=strategy)


def _f16(rng: np.random.Generator, shape) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float16)


def _hardware_order(x: np.ndarray, lanes: int, axis: int) -> np.ndarray:
    """Sum along `axis` as the schedule does: `lanes` elements per step along the row
    (exact, rounded once to f32) or one row per step down a column, into an f32
    accumulator; rounded to f16 at the end."""
    x = np.moveaxis(x.astype(np.float64), axis, -1)
    out = np.zeros(x.shape[:-1], dtype=np.float32)
    for index in np.ndindex(*x.shape[:-1]):
        acc = np.float32(0.0)
        row = x[index]
        for k in range(0, row.shape[0], lanes):
            acc = np.float32(acc + np.float32(math.fsum(row[k:k + lanes])))
        out[index] = acc
    return out.astype(np.float16)


def _exact(x: np.ndarray, axis: int) -> np.ndarray:
    x = np.moveaxis(x.astype(np.float64), axis, -1)
    flat = x.reshape(-1, x.shape[-1])
    return np.array([math.fsum(r) for r in flat]).reshape(x.shape[:-1]).astype(np.float16)


def _check_sum(result, name: str, x: np.ndarray, lanes: int, axis: int) -> None:
    assert result.matches, result.mismatches
    got = result.outputs[name]
    exact = _exact(x, axis)
    assert matches_hardware_order_sum(np.moveaxis(x, axis, -1), "f32", "f16", exact, got).all()
    np.testing.assert_array_equal(got, _hardware_order(x, lanes, axis))


def _decisions(schedule) -> dict[str, int]:
    return schedule.values


# ---- chunked reductions -----------------------------------------------------------------


def test_row_sum_larger_than_the_scratchpad_is_chunked(tmp_path: Path) -> None:
    import spyre_sched

    """Rows of 16448 f16: chunks are multiples of 128 (at most 256 sizes), none divides
    the row, so the last chunk of every row is partial."""
    schedule = _compile(kernels.row_sum(2, 16448, 2), tmp_path, SMALL_LX)
    decisions = _decisions(schedule)
    chunk = decisions["p0.tile.lx.d1"]
    assert 128 <= chunk < 16448 and chunk % 128 == 0 and 16448 % chunk
    assert "p0.pipe.lx.d1.modulo" in decisions and "p0.tile.lx.d0" not in decisions
    assert schedule.scratchpad_bytes <= 16384
    x = _f16(np.random.default_rng(1), (4, 16448))
    result = spyre_sched.run(schedule, {"X": x}, device=SMALL_LX)
    _check_sum(result, "S", x, 32, axis=1)


def test_row_sum_that_fits_is_not_chunked(tmp_path: Path) -> None:
    import spyre_sched

    schedule = _compile(kernels.row_sum(2, 2048, 2), tmp_path, SMALL_LX)
    decisions = _decisions(schedule)
    assert "p0.tile.lx.d1" not in decisions and "p0.tile.lx.d0" in decisions
    assert "scf.for %k1" not in schedule.schedule_ir
    x = _f16(np.random.default_rng(2), (4, 2048))
    _check_sum(spyre_sched.run(schedule, {"X": x}, device=SMALL_LX), "S", x, 32, axis=1)


def test_chunked_sum_staged_out_to_device_memory(tmp_path: Path) -> None:
    """The f32 sum stored straight to device memory: its staging buffer holds every row
    of the tile and is drained once, after the chunked reduction."""
    import spyre_sched

    text = kernels.row_sum(2, 16384, 2).replace("memref<4xf16>", "memref<4xf32>")
    start = text.index("  %h0 = tensor.empty()")
    end = text.index("  ktdp.store")
    text = text[:start] + text[end:].replace(
        "ktdp.store %h, %St : tensor<2xf16>", "ktdp.store %sum, %St : tensor<2xf32>")
    schedule = _compile(text, tmp_path, SMALL_LX)
    assert "p0.tile.lx.d1" in _decisions(schedule)
    x = _f16(np.random.default_rng(3), (4, 16384))
    result = spyre_sched.run(schedule, {"X": x}, device=SMALL_LX)
    assert result.matches, result.mismatches
    want = np.array([[math.fsum(r) for r in x.astype(np.float64)]], dtype=np.float64)[0]
    got = result.outputs["S"].astype(np.float64)
    assert matches_hardware_order_sum(x, "f32", "f32", want.astype(np.float32), got).all()


def test_rmsnorm_with_long_rows(tmp_path: Path) -> None:
    import spyre_sched

    schedule = _compile(kernels.rmsnorm(8192, 2), tmp_path, SMALL_LX)
    assert "p0.tile.lx.d1" in _decisions(schedule)
    rng = np.random.default_rng(4)
    x, w = _f16(rng, (4, 8192)), _f16(rng, (8192,))
    result = spyre_sched.run(schedule, {"X": x, "W": w}, device=SMALL_LX)
    assert result.matches, result.mismatches
    xf = x.astype(np.float64)
    want = xf / np.sqrt((xf * xf).mean(axis=1, keepdims=True) + 1e-5) * w.astype(np.float64)
    np.testing.assert_allclose(result.outputs["Y"].astype(np.float64), want, rtol=4e-3, atol=4e-3)


@pytest.mark.slow
def test_softmax_with_long_rows(tmp_path: Path) -> None:
    """bench's softmax with rows of 4096 on small_lx: E (8 KiB) is pinned in the
    scratchpad, so the row maxima's X tile no longer fits next to it and is chunked."""
    import sys

    import spyre_sched

    sys.path.insert(0, str(HERE.parents[1] / "bench" / "kernels"))
    try:
        import generate
    finally:
        sys.path.pop(0)
    schedule = _compile(generate.softmax(generate.Shape(32, 4096)), tmp_path, SMALL_LX)
    assert "p0.tile.lx.d1" in _decisions(schedule)
    x = _f16(np.random.default_rng(5), (32, 4096))
    result = spyre_sched.run(schedule, {"X": x}, device=SMALL_LX)
    assert result.matches, result.mismatches
    xf = x.astype(np.float64)
    e = np.exp(xf - xf.max(axis=1, keepdims=True))
    np.testing.assert_allclose(result.outputs["Y"].astype(np.float64),
                               e / e.sum(axis=1, keepdims=True), rtol=4e-3, atol=1e-5)


@pytest.mark.slow
def test_row_sum_2m_on_spyre() -> None:
    """A 4 MiB row per tile, twice spyre's scratchpad (the committed kernel)."""
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel

    assert ROW_SUM_2M.read_text() == kernels.row_sum(1, 2097152, 2)
    schedule = compile_kernel(str(ROW_SUM_2M), device="spyre")
    assert "p0.tile.lx.d1" in _decisions(schedule)
    x = _f16(np.random.default_rng(6), (2, 2097152))
    _check_sum(spyre_sched.run(schedule, {"X": x}), "S", x, 32, axis=1)


@pytest.mark.slow
def test_row_sum_larger_than_sample_device_l1(tmp_path: Path) -> None:
    import spyre_sched

    schedule = _compile(kernels.row_sum(1, 786432, 1), tmp_path, "sample_device", "heuristic")
    assert "p0.tile.l1.d1" in _decisions(schedule)
    x = _f16(np.random.default_rng(7), (1, 786432))
    _check_sum(spyre_sched.run(schedule, {"X": x}), "S", x, 32, axis=1)


# ---- reductions over an outer dim -------------------------------------------------------


@pytest.mark.parametrize("device,strategy,rows,grid", [
    ("spyre", "solver", 8, 32), ("sample_device", "heuristic", 8, 1),
    (SMALL_LX, "solver", 256, 2)], ids=["spyre", "sample_device", "small_lx-chunked"])
def test_column_sum(device: str, strategy: str, rows: int, grid: int, tmp_path: Path) -> None:
    """Column sums; on small_lx a tile of 256 x 128 f16 (64 KiB) is chunked along the
    reduced rows."""
    import spyre_sched

    schedule = _compile(kernels.col_sum(rows, grid), tmp_path, device, strategy)
    assert ("p0.tile.lx.d0" in _decisions(schedule)) == (device == SMALL_LX)
    x = _f16(np.random.default_rng(8), (rows * grid, 128))
    result = spyre_sched.run(schedule, {"X": x}, device=device)
    tiles = x.reshape(grid, rows, 128)
    sums = result.outputs["S"][:grid * 128].reshape(grid, 128)
    assert result.matches, result.mismatches
    for t in range(grid):
        exact = _exact(tiles[t], axis=0)
        assert matches_hardware_order_sum(tiles[t].T, "f32", "f16", exact, sums[t]).all()
        np.testing.assert_array_equal(sums[t], _hardware_order(tiles[t], 1, axis=0))
