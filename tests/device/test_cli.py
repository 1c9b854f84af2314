"""`spyre-sched device show / route` and their errors."""

from __future__ import annotations

import click
from click.testing import CliRunner

from spyre_sched.cli import device_option, main

from ktdf_arch_testutil import TINY


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_show_spyre():
    result = run("device", "show", "spyre")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "cores: 32 (core0 .. core31), corelets per core: 2" in out
    assert "scratchpad per core: 2 MiB" in out
    assert "core*.lx" in out and "x32" in out
    assert "simd f16x64" in out
    assert "ring.stop* -> ring.stop*" in out
    assert "FIFO depth 16" in out
    assert "pre_mapping: expand_silu_f16, expand_silu_f32" in out


def test_show_defaults_to_spyre_and_accepts_paths(write_device):
    assert "device spyre" in run("device", "show").output
    result = run("device", "show", str(write_device(TINY)))
    assert result.exit_code == 0 and "device tiny" in result.output
    assert "clock: 500 MHz" in result.output


def test_route_prints_hops():
    result = run("device", "route", "sample_device", "ddr", "core0.corelet0.sfu", "--bytes", "128")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("route ddr -> core0.corelet0.sfu: 2 hop(s)")
    assert "1. core0.dma_load: ddr -> core0.l1" in lines[1]
    assert "2. core0.corelet0.l1_load: core0.l1 -> core0.corelet0.sfu (FIFO depth 16)" in lines[2]


def test_route_unknown_endpoint_exit_1():
    result = run("device", "route", "spyre", "ddr", "core99.lx")
    assert result.exit_code == 1
    assert "no unit or memory named 'core99.lx'" in result.output
    assert "Traceback" not in result.output


def test_bad_device_file_reports_location(write_device):
    path = write_device(TINY.replace('@l1 {kind = "L1", size = 1024}', '@l1 {kind = "L1"}'))
    result = run("device", "show", str(path))
    assert result.exit_code == 1
    assert f"{path}:4:5: error: memory core0.l1 has no size" in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_syntax_error_reports_location(write_device):
    path = write_device(TINY.replace("size = 4096}", "size = 4096"))
    result = run("device", "route", str(path), "ddr", "core0.vu")
    assert result.exit_code == 1
    assert f"{path}:3:" in result.output and "error:" in result.output
    assert "Traceback" not in result.output


def test_device_option_default():
    @click.command()
    @device_option()
    def show(device):
        click.echo(device)

    runner = CliRunner()
    assert runner.invoke(show, []).output.strip() == "spyre"
    assert runner.invoke(show, ["--device", "sample_device"]).output.strip() == "sample_device"
