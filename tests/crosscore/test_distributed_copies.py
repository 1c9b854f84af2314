"""Copies through a distributed view whose tiles straddle its parts: `split-at-part-edges`
cuts each copy at the parts' edges (and a loop where its pieces change part), so every
piece reads one array; the emulated output is the arrays side by side."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import spyre_sched

KERNELS = Path(__file__).resolve().parent / "kernels"


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_tiles_straddling_two_arrays_in_a_loop_copy_all_four(strategy):
    rng = np.random.default_rng(11)
    arrays = {f"A{k}": rng.uniform(-4, 4, (8, 16)).astype(np.float16) for k in range(4)}
    result = spyre_sched.run(str(KERNELS / "distributed_copy_straddling_in_loop.mlir"),
                             arrays, strategy=strategy)
    assert result.verdict == "MATCH", result.mismatches
    np.testing.assert_array_equal(result.outputs["B"],
                                  np.concatenate([arrays[f"A{k}"] for k in range(4)], axis=1))


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_a_part_shadowed_by_another_is_placed_and_never_read(strategy):
    """A0 (8x32) holds every column of A1: the schedule never reads A1 (the job plan lists
    it as a plain scalar), yet the caller's array for it is placed, its offset the value."""
    rng = np.random.default_rng(12)
    arrays = {"A0": rng.uniform(-4, 4, (8, 32)).astype(np.float16),
              **{f"A{k}": rng.uniform(-4, 4, (8, 16)).astype(np.float16) for k in (1, 2, 3)}}
    result = spyre_sched.run(str(KERNELS / "distributed_part_shadowed.mlir"), arrays,
                             strategy=strategy)
    assert result.verdict == "MATCH", result.mismatches
    np.testing.assert_array_equal(result.outputs["B"],
                                  np.concatenate([arrays["A0"], arrays["A2"], arrays["A3"]],
                                                 axis=1))
