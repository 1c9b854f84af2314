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
