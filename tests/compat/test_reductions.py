"""Reductions whose body is not `combine(f, %out)` run literally, in index order along the
reduction axis."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from emulator.reference import run

KERNELS = Path(__file__).resolve().parent / "kernels"


def literal(x: np.ndarray):
    """The bodies' meaning, step by step: max by `ugt` + select, argmax by `ogt`."""
    m = np.full(x.shape[0], -np.inf, np.float32)
    best = np.full(x.shape[0], -np.inf, np.float32)
    idx = np.zeros(x.shape[0], np.int32)
    for k in range(x.shape[1]):
        col = x[:, k]
        take = ~(col <= m)  # ugt: unordered or greater
        m = np.where(take, col, m)
        better = col > best  # ogt: ordered and greater
        best, idx = np.where(better, col, best), np.where(better, k, idx)
    return m, idx


def test_max_and_argmax_match_numpy():
    x = np.random.default_rng(3).uniform(-4, 4, (4, 8)).astype(np.float32)
    x[3, 2] = x[3, 5] = 10.0  # a tie: argmax keeps the first index
    out = run(KERNELS / "argmax_rows.mlir", {"X": x})
    np.testing.assert_array_equal(out["M"], x.max(axis=1))
    np.testing.assert_array_equal(out["I"], np.argmax(x, axis=1).astype(np.int32))
    assert out["I"][3] == 2


def test_nan_rules_follow_the_body_in_index_order():
    x = np.array([[1, 5, 5, 2, 0, 0, 0, 0], [np.nan, 1, 2, 3, 4, 5, 6, 7],
                  [1, 2, np.nan, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 9]], np.float32)
    out = run(KERNELS / "argmax_rows.mlir", {"X": x})
    m, idx = literal(x)
    np.testing.assert_array_equal(out["M"], m)
    np.testing.assert_array_equal(out["I"], idx)
    assert np.isnan(literal(np.array([[1, np.nan]], np.float32))[0][0])
