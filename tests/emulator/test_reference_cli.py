"""`spyre-sched reference`: summaries, .npz inputs/outputs, run-time arguments, errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from click.testing import CliRunner

from spyre_sched.cli import main

ROOT = Path(__file__).resolve().parents[2]
ADD = str(ROOT / "examples" / "add_96x64.mlir")
ROWS = str(Path(__file__).resolve().parent / "kernels" / "runtime_rows.mlir")


def test_summary_of_seeded_random_run_is_deterministic():
    first = CliRunner().invoke(main, ["reference", ADD, "--seed", "3"])
    second = CliRunner().invoke(main, ["reference", ADD, "--seed", "3"])
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    assert first.output.startswith("%C: 96x64 float16 min ")
    assert "checksum" in first.output


def test_inputs_and_saved_outputs(tmp_path):
    a = np.full((96, 64), 1.5, np.float16)
    b = np.full((96, 64), 0.25, np.float16)
    np.savez(tmp_path / "in.npz", A=a, B=b)
    result = CliRunner().invoke(
        main, ["reference", ADD, "--inputs", str(tmp_path / "in.npz"),
               "--save-outputs", str(tmp_path / "out.npz")])
    assert result.exit_code == 0, result.output
    assert "min 1.75 max 1.75 mean 1.75" in result.output
    np.testing.assert_array_equal(np.load(tmp_path / "out.npz")["C"], np.full((96, 64), 1.75, np.float16))


def test_runtime_arguments():
    ok = CliRunner().invoke(main, ["reference", ROWS, "--runtime-arg", "n=192"])
    assert ok.exit_code == 0 and ok.output.startswith("%Y: 192x64 float16")
    bad = CliRunner().invoke(main, ["reference", ROWS, "--runtime-arg", "n=100"])
    assert bad.exit_code == 1
    assert "runtime_rows.mlir:7:1: error: run-time argument %n = 100" in bad.output
    malformed = CliRunner().invoke(main, ["reference", ROWS, "--runtime-arg", "n"])
    assert malformed.exit_code == 1 and "NAME=NUMBER" in malformed.output


def test_missing_input_in_npz_is_a_clean_error(tmp_path):
    np.savez(tmp_path / "in.npz", A=np.zeros((96, 64), np.float16))
    result = CliRunner().invoke(main, ["reference", ADD, "--inputs", str(tmp_path / "in.npz")])
    assert result.exit_code == 1
    assert "error: missing input %B" in result.output
    unreadable = CliRunner().invoke(main, ["reference", ADD, "--inputs", str(tmp_path / "nope.npz")])
    assert unreadable.exit_code == 1 and "cannot read inputs" in unreadable.output


def test_scratchpad_size_from_the_device_or_the_option():
    softmax = str(ROOT / "examples" / "softmax_rows.mlir")
    ok = CliRunner().invoke(main, ["reference", softmax, "--device", "spyre"])
    assert ok.exit_code == 0, ok.output
    small = CliRunner().invoke(main, ["reference", softmax, "--scratchpad-bytes", "1024"])
    assert small.exit_code == 1 and "outside the scratchpad of tile 0 of 1024 bytes" in small.output
