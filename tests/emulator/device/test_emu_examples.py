"""End to end: every example kernel compiled (solver and heuristic), emulated on both
shipped devices, and compared with the reference interpreter."""

from __future__ import annotations

from pathlib import Path

import pytest

import spyre_sched

EXAMPLES = Path(__file__).parents[3] / "examples"
KERNELS = ["add_96x64", "bias_add", "fused_gelu", "row_sum", "rmsnorm", "softmax_rows"]
# The default run keeps one schedule per kernel and device; the rest is opt-in (-m slow).
FAST = {("add_96x64", "heuristic"), ("bias_add", "solver"), ("fused_gelu", "heuristic"),
        ("row_sum", "solver"), ("rmsnorm", "heuristic"), ("softmax_rows", "heuristic")}


def _cases():
    for kernel in KERNELS:
        for strategy in ("solver", "heuristic"):
            marks = [] if (kernel, strategy) in FAST else [pytest.mark.slow]
            yield pytest.param(kernel, strategy, marks=marks, id=f"{kernel}-{strategy}")


@pytest.mark.parametrize("kernel, strategy", list(_cases()))
def test_example_on_spyre(kernel, strategy):
    result = spyre_sched.run(EXAMPLES / f"{kernel}.mlir", device="spyre", strategy=strategy)
    assert result.matches, result.mismatches
    assert result.cycles > 0 and result.predicted_cycles
    assert len(result.units) >= 32 * 4  # every core ran at least a load, compute, store chain


@pytest.mark.parametrize("kernel, strategy", list(_cases()))
def test_example_on_sample_device(kernel, strategy, tmp_path):
    """sample_device has one core: the example's first compute tile (grid [1])."""
    text = (EXAMPLES / f"{kernel}.mlir").read_text().replace("grid = [32]", "grid = [1]")
    path = tmp_path / f"{kernel}.mlir"
    path.write_text(text)
    result = spyre_sched.run(path, device="sample_device", strategy=strategy)
    assert result.matches, result.mismatches
    assert result.device == "sample_device"
