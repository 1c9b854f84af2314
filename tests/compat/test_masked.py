"""Masked accesses: positions of an access tile outside its view's
coordinate set read zero on load and are skipped on store; memory outside the set is
never touched."""

from __future__ import annotations

from pathlib import Path

import numpy as np
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
