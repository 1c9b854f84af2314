"""A kernel must fit its device: one core per compute tile, every memory space mapped."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched.cli import main
from spyre_sched.device import load_device
from spyre_sched.device.fit import check_kernel_fits
from spyre_sched.errors import DeviceError
from spyre_sched.frontend import load_kernel

from ktdf_arch_testutil import TINY

EXAMPLES = Path(__file__).parents[2] / "examples"


def test_shipped_examples_fit_spyre():
    device = load_device("spyre")
    for path in sorted(EXAMPLES.glob("*.mlir")):
        kernel = load_kernel(path)
        check_kernel_fits(device, kernel.func, kernel.num_tiles, kernel.location_of)


def test_grid_larger_than_the_device_is_reported_at_the_function():
    kernel = load_kernel(EXAMPLES / "add_96x64.mlir")
    with pytest.raises(DeviceError, match="grid needs 32 cores but device sample_device has 1") as info:
        check_kernel_fits(load_device("sample_device"), kernel.func, kernel.num_tiles, kernel.location_of)
    assert info.value.location.line == 6


def test_unmapped_memory_space_is_reported_at_the_view(write_device):
    no_local = TINY.replace(', ct_local = "L1"', "")
    device = load_device(write_device(no_local))
    kernel = load_kernel(EXAMPLES / "softmax_rows.mlir")
    with pytest.raises(DeviceError, match="does not map memory space 'ct_local'") as info:
        # one tile of the grid, so that the grid check passes on the one-core device
        check_kernel_fits(device, kernel.func, 1, kernel.location_of)
    assert "%Ev = ktdp.construct_memory_view" in info.value.location.line_text


def test_check_and_reference_commands_refuse_a_device_too_small():
    runner = CliRunner()
    for command in ("check", "reference"):
        result = runner.invoke(main, [command, str(EXAMPLES / "add_96x64.mlir"), "--device", "sample_device"])
        assert result.exit_code == 1, result.output
        assert "add_96x64.mlir:6:1: error: the kernel's grid needs 32 cores" in result.output
        assert "Traceback" not in result.output
