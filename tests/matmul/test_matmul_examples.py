"""The FFN example (examples/ffn_swiglu.mlir: two matmuls, SiLU gate times up, a third
matmul) through the differential gate: compiled with both strategies and both objectives,
emulated on spyre (the matrix unit) and on sample_device (one core, the vector unit's
dot products), compared with the reference interpreter. Each run takes tens of seconds,
so all of them are opt-in (-m slow); tests/emulator/test_reference_examples.py checks the
example against numpy by default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import spyre_sched

FFN = Path(__file__).parents[2] / "examples" / "ffn_swiglu.mlir"
CASES = [(s, o) for s in ("solver", "heuristic") for o in ("latency", "memory")]


@pytest.mark.slow
@pytest.mark.parametrize("strategy, objective", CASES)
def test_ffn_on_spyre(strategy: str, objective: str) -> None:
    result = spyre_sched.run(FFN, device="spyre", strategy=strategy, objective=objective)
    assert result.matches, result.mismatches
    assert any(".pt" in unit for unit in result.units)  # the matmuls ran on the matrix unit


@pytest.mark.slow
@pytest.mark.parametrize("strategy, objective", CASES)
def test_ffn_on_sample_device(strategy: str, objective: str, tmp_path) -> None:
    """sample_device has one core: the example's first compute tile (grid [1])."""
    path = tmp_path / FFN.name
    path.write_text(re.sub(r"grid = \[\d+\]", "grid = [1]", FFN.read_text()))
    result = spyre_sched.run(path, device="sample_device", strategy=strategy,
                             objective=objective)
    assert result.matches, result.mismatches
