"""Masked accesses: positions of an access tile outside its view's
coordinate set read zero on load and are skipped on store; memory outside the set is
never touched."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from emulator.reference import make_inputs, run
from spyre_sched.cli import main

KERNELS = Path(__file__).resolve().parent / "kernels"


def f16(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float16)


def test_store_never_touches_memory_outside_the_set():
    # Both views hold 13 of 16 elements; tile 1's positions 13..15 are masked. %Y comes
    # pre-filled: its tail must keep its values, and the copy reads zeros there.
    x = f16(np.arange(13))
    y = f16(np.full(16, -5.0))
    out = run(KERNELS / "masked_tail.mlir", {"X": x, "Y": y})["Y"]
    np.testing.assert_array_equal(out[:13], f16(np.arange(13) + 1))
    np.testing.assert_array_equal(out[13:], f16([-5, -5, -5]))


def test_triton_style_dynamic_view_matches_numpy():
    path = KERNELS / "triton_add.mlir"
    for n in (1, 8, 11, 16):
        inputs = make_inputs(path, seed=n, runtime_args={"n": n})
        assert inputs["X"].shape == (n,)
        out = run(path, inputs, runtime_args={"n": n})["O"]
        x, y = inputs["X"].astype(np.float32), inputs["Y"].astype(np.float32)
        want = np.where(x > 0, (x + y).astype(np.float16), y.astype(np.float16))
        np.testing.assert_array_equal(out, want)


def test_check_reports_masked_positions_with_count_and_witness():
    done = CliRunner().invoke(main, ["check", str(KERNELS / "masked_tail.mlir")])
    assert done.exit_code == 0, done.output
    assert ("warning: ktdp.store through %yt sticks out of the coordinate set of %yv: "
            "3 position(s) masked (not written) at tile 1: coordinate [13]") in done.output


def test_reference_needs_a_value_for_an_unbounded_runtime_shape():
    runner = CliRunner()
    path = str(KERNELS / "triton_add.mlir")
    missing = runner.invoke(main, ["reference", path])
    assert missing.exit_code == 1 and "its shape is unbounded" in missing.output
    done = runner.invoke(main, ["reference", path, "--arg", "n=11"])
    assert done.exit_code == 0 and done.output.startswith("%O: 11 float16")


def _emulated(tmp_path: Path, kernel: str, inputs: dict, *extra: str) -> dict:
    """Compile and emulate KERNEL (MATCH against the reference required), its outputs."""
    src, out = tmp_path / "in.npz", tmp_path / "out.npz"
    np.savez(src, **inputs)
    done = CliRunner().invoke(main, ["run", str(KERNELS / kernel), "--inputs", str(src),
                                     "--save-outputs", str(out), *extra])
    assert done.exit_code == 0 and "result: MATCH" in done.output, done.output
    return dict(np.load(out))


def test_a_grid_that_overhangs_the_data_matches_numpy(tmp_path):
    # 1000 elements in 4 tiles of 256: tile 3's last 24 positions are masked
    x = f16(np.random.default_rng(1).uniform(-2, 2, 1000))
    y = _emulated(tmp_path, "masked_grid_tail.mlir", {"X": x})["Y"]
    assert y.shape == (1000,)
    np.testing.assert_array_equal(y, x * f16(2) + f16(1))


def test_a_masked_block_in_a_loop_matches_numpy(tmp_path):
    # the second 64-column block of every row is masked past column 99
    x = f16(np.random.default_rng(2).uniform(-2, 2, (4, 100)))
    y = _emulated(tmp_path, "masked_block_loop.mlir", {"X": x})["Y"]
    np.testing.assert_array_equal(y, x * x)


def test_masked_positions_add_nothing_to_a_sum(tmp_path):
    x = f16(np.random.default_rng(3).uniform(-2, 2, (3, 100)))
    s = _emulated(tmp_path, "masked_row_sum.mlir", {"X": x})["S"]
    np.testing.assert_allclose(s, x.astype(np.float32).sum(axis=1), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("n", [5])
def test_a_launch_time_edge_matches_numpy(tmp_path, n):
    # n is a run-time argument: the mask is computed at launch, per tile
    rng = np.random.default_rng(n)
    x, y = f16(rng.uniform(-2, 2, n)), f16(rng.uniform(-2, 2, n))
    out = _emulated(tmp_path, "triton_add.mlir", {"X": x, "Y": y}, "--runtime-arg", f"n={n}")["O"]
    np.testing.assert_array_equal(out, np.where(x > 0, x + y, y))
