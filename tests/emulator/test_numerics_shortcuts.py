"""The device emulator's shortcuts for its most frequent vector ops compute exactly what
the numerics table does (`apply_op`, `reduce`), bit for bit, on values other than the ones
each shortcut was probed with: numpy's float32 +, -, *, /, the f16 -> f32 extension by
table, the f32 -> f16 narrowing with NaNs quieted as the rule quiets them, and the exact
sums of a few f32 terms."""

import numpy as np
import pytest

from emulator.numerics import apply_op, reduce
from emulator.numerics.arith_ops import native_cast, native_loop
from emulator.numerics.reductions import few_f32_sums

F32_OPS = ("arith.addf", "arith.subf", "arith.mulf", "arith.divf")


def _f32_values(rng, n: int) -> np.ndarray:
    """Random bit patterns (every class of value), NaNs with payloads, subnormals, and
    values near 1, near the largest finite value and near the smallest normal."""
    raw = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    nans = (raw[: n // 8] | np.uint32(0x7F800001)) & np.uint32(0xFFFFFFFF)
    subnormal = raw[: n // 8] & np.uint32(0x807FFFFF)
    near = np.concatenate([np.float32(1.0), np.finfo(np.float32).max,
                           np.finfo(np.float32).tiny], axis=None).view(np.uint32)
    close = np.repeat(near, n // 8) ^ (raw[: 3 * (n // 8)] & np.uint32(0x800000FF))
    return np.concatenate([raw, nans, subnormal, close]).view(np.float32)


@pytest.mark.parametrize("name", F32_OPS)
def test_f32_native_loops_match_the_table(name):
    native = native_loop(name, "f32")
    assert native is not None, "numpy's float32 loop should agree with float64-then-round"
    rng = np.random.default_rng(7)
    a = _f32_values(rng, 200_000)
    b = rng.permutation(_f32_values(rng, 200_000))[: len(a)]
    want = apply_op(name, "f32", a, b)
    with np.errstate(all="ignore"):
        got = native(a, b)
    assert got.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_f16_to_f32_extension_by_table_matches_every_code():
    every = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    extend = native_cast("arith.extf", "f16", "f32")
    want = apply_op("arith.extf", "f16", every, result_type="f32")
    got = extend(every.reshape(256, 256))
    assert got.shape == (256, 256) and got.dtype == np.float32
    assert np.array_equal(got.reshape(-1).view(np.uint32), want.view(np.uint32))


def test_f32_to_f16_narrowing_matches_the_rule():
    narrow = native_cast("arith.truncf", "f32", "f16")
    assert narrow is not None
    rng = np.random.default_rng(11)
    values = _f32_values(rng, 400_000)
    want = apply_op("arith.truncf", "f32", values, result_type="f16")
    with np.errstate(all="ignore"):
        got = narrow(values)
    assert got.dtype == np.float16
    assert np.array_equal(got.view(np.uint16), want.view(np.uint16))


def test_no_shortcut_for_other_casts():
    assert native_cast("arith.extf", "f16", "f64") is None
    assert native_cast("arith.truncf", "f32", "bf16") is None
    assert native_loop("arith.remf", "f32") is None


def _rows(rng, count: int, n: int) -> np.ndarray:
    """Rows of f32 terms: mixed magnitudes (sums float64 cannot hold exactly), exact
    cancellations, signed zeros, near-overflow values."""
    scale = 2.0 ** rng.integers(-60, 60, (count, n))
    rows = (rng.standard_normal((count, n)) * scale).astype(np.float32)
    rows[0] = -0.0
    rows[1, : n // 2] = rows[1, n // 2:] = 0.0
    rows[1, : n // 2] = -0.0
    rows[2, n // 2: 2 * (n // 2)] = -rows[2, : n // 2]
    rows[3] = np.float32(3e38)
    rows[4, 0] = np.float32(1e30)
    rows[4, 1] = np.float32(-1e30)
    return rows


@pytest.mark.parametrize("n", [2, 3, 32, 128])
def test_few_f32_sums_match_reduce(n):
    rng = np.random.default_rng(n)
    rows = _rows(rng, max(6, 1024 // n), n)
    got = few_f32_sums(rows)
    want = reduce("add", rows, -1, "f32")
    if got is None:  # (only the near-overflow row may send a batch back to `reduce`)
        rows = np.delete(rows, 3, axis=0)
        got, want = few_f32_sums(rows), reduce("add", rows, -1, "f32")
    assert got.dtype == np.float32 and got.shape == want.shape
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    for row in rows[:8]:  # one row at a time, as a unit reduces a stick
        one = few_f32_sums(row[None, :])
        assert one.view(np.uint32)[0] == reduce("add", row[None, :], -1, "f32").view(np.uint32)[0]


def test_few_f32_sums_leave_non_finite_and_large_inputs_to_reduce():
    row = np.ones((1, 8), dtype=np.float32)
    for bad in (np.inf, -np.inf, np.nan):
        odd = row.copy()
        odd[0, 3] = bad
        assert few_f32_sums(odd) is None
    assert few_f32_sums(np.full((1, 4), 3e38, dtype=np.float32)) is None  # rounds to inf
    assert few_f32_sums(np.ones((2, 1024), dtype=np.float32)) is None     # over _FEW_TERMS
    assert few_f32_sums(np.ones((4, 1), dtype=np.float32)) is None        # one term per row
