"""bf16 through the pipeline: scheduled, lowered and emulated on a device whose vector
units have bf16 lanes, and refused, naming the unit, on one whose units have none (both
shipped devices)."""

from __future__ import annotations

from pathlib import Path

import pytest

import spyre_sched
from spyre_sched.errors import SpyreSchedError

HERE = Path(__file__).parent
KERNEL = HERE / "kernels" / "bf16_sum_bias_square.mlir"
DEVICE = HERE / "devices" / "bf16_lanes.mlir"


def test_bf16_kernel_matches_on_a_device_with_bf16_lanes():
    result = spyre_sched.run(str(KERNEL), strategy="heuristic", device=str(DEVICE))
    assert result.verdict == "MATCH", result.mismatches


def test_a_device_without_bf16_lanes_refuses_it_naming_the_unit():
    with pytest.raises(SpyreSchedError, match=r"has no SIMD lanes for bf16 \(it has: df16, f16, f32\)"):
        spyre_sched.run(str(KERNEL), strategy="heuristic", device="sample_device")


def test_bf16_constant_bits_are_the_shared_rounding():
    from spyre_sched.lower.program_units import bits_hex

    from emulator.numerics import to_bits

    for value in (0.1, -3.0, 1e-40, 65504.0, 3.4e38):
        want = int(to_bits("bf16", [value])[0])
        assert bits_hex(value, "bf16") == f"{want:04x}"
