"""Copies through a distributed view whose tiles straddle its parts: `split-at-part-edges`
cuts each copy at the parts' edges (and a loop where its pieces change part), so every
piece reads one array; the emulated output is the arrays side by side. A tile that
compute reads or writes is staged through the tile's own scratchpad and its copies cut;
tiles that each copy a whole view write the same values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import emulator.reference as reference
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


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_compute_on_tiles_straddling_parts_goes_through_the_scratchpad(strategy):
    rng = np.random.default_rng(13)
    arrays = {"X0": rng.uniform(-2, 2, (8, 128)).astype(np.float16),
              "X1": rng.uniform(-2, 2, (8, 128)).astype(np.float16)}
    result = spyre_sched.run(str(KERNELS / "distributed_compute_straddling.mlir"), arrays,
                             strategy=strategy)
    assert result.verdict == "MATCH", result.mismatches
    x = np.concatenate([arrays["X0"], arrays["X1"]]).astype(np.float16)
    y = (x * np.float16(2) + np.float16(1)).astype(np.float16)  # two f16 roundings
    np.testing.assert_array_equal(np.concatenate([result.outputs["Y0"], result.outputs["Y1"]]), y)


@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_every_tile_copying_a_whole_distributed_view_writes_the_same_values(strategy):
    rng = np.random.default_rng(14)
    a0 = rng.uniform(-2, 2, (16, 128)).astype(np.float16)
    kernel = KERNELS / "redundant_distributed_copy.mlir"
    made = reference.make_inputs(reference.as_kernel(kernel), 0)
    a1 = made["ct_local(core 1)@0x0"].reshape(16, 128)
    result = spyre_sched.run(str(kernel), {"A0": a0}, strategy=strategy)
    assert result.verdict == "MATCH", result.mismatches
    want = (np.concatenate([a0, a1]) * np.float16(2)).astype(np.float16)
    np.testing.assert_array_equal(result.outputs["B"], want)
