"""Usage errors exit 1 with a message, as every other error in the user's input does (exit
2 is kept for spyre-sched's own bugs): unknown options and commands, bad choices and
values, files that do not exist or cannot be written, inputs that are not an .npz archive."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import spyre_sched
from spyre_sched.cli import main
from spyre_sched.errors import ParseError, UsageError

ROOT = Path(__file__).resolve().parents[2]
ADD = str(ROOT / "examples" / "add_96x64.mlir")
FIXTURE = str(ROOT / "tests" / "lower" / "fixtures" / "add_96x64_bundle")


def invoke(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def usage_error(result, *fragments: str) -> None:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


@pytest.mark.parametrize("args, fragment", [
    (["compile", ADD, "--objective", "bogus"], "'bogus' is not one of 'latency', 'memory'"),
    (["run", ADD, "--strategy", "guess"], "'guess' is not one of"),
    (["compile", ADD, "--no-such-option"], "--no-such-option"),
    (["compile", ADD, "--workers", "0"], "--workers"),
    (["check", ADD, "--arg", "n"], "NAME=NUMBER"),
    (["frobnicate"], "No such command 'frobnicate'"),
    (["compile", ADD, "--time-limit", "-1"], "--time-limit"),
    (["compile", ADD, "--time-limit", "0"], "--time-limit"),
    (["compile", ADD, "--emit", "solved", "--time-limit", "nan"],
     "must be a positive number of seconds"),
    (["run", "x.txt"], "'x.txt' does not exist"),
    (["compile", "x.txt"], "'x.txt' does not exist"),
    (["explain", "x.txt"], "'x.txt' does not exist"),
    ([], "Usage:"),
])
def test_usage_errors_exit_1(args, fragment, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    usage_error(invoke(*args), fragment)


def test_a_time_limit_below_zero_is_a_usage_error_in_the_api():
    with pytest.raises(UsageError, match="must be a positive number of seconds"):
        spyre_sched.compile(ADD, time_limit=-1)


def test_a_kernel_named_without_mlir_is_read_as_a_file(tmp_path, monkeypatch):
    """`run x.txt`: the file's text is the kernel, not the name `x.txt` parsed as MLIR."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParseError, match="x.txt: error: cannot read kernel file: No such file"):
        spyre_sched.compile("x.txt")
    Path("x.txt").write_text(Path(ADD).read_text())
    result = invoke("run", "x.txt", "--strategy", "heuristic")
    assert result.exit_code == 0, result.output
    Path("y.txt").write_text("this is not MLIR\n")
    usage_error(invoke("run", "y.txt"), "y.txt:1:")


@pytest.mark.parametrize("option", ["--trace", "--save-outputs"])
def test_run_outputs_into_a_folder_that_cannot_exist_exit_1(tmp_path, option):
    (tmp_path / "somefile").write_text("mine")
    target = tmp_path / "somefile" / "out.npz"
    usage_error(invoke("run", FIXTURE, option, target), f"{option}: cannot write here",
                str(target))
    assert (tmp_path / "somefile").read_text() == "mine"


def test_run_save_outputs_writes_exactly_the_path_it_is_given(tmp_path):
    usage_error(invoke("run", FIXTURE, "--save-outputs", tmp_path / "out"), "must end in .npz")
    assert list(tmp_path.iterdir()) == []


def test_compile_output_under_a_file_exits_1(tmp_path):
    (tmp_path / "somefile").write_text("mine")
    usage_error(invoke("compile", ADD, "-o", tmp_path / "somefile" / "out"), "is not a folder")
    usage_error(invoke("compile", ADD, "--emit", "solved", "--strategy", "heuristic", "--solver-trace",
                       tmp_path / "somefile" / "t.json"), "cannot write")


def test_a_trace_write_that_fails_is_located_and_leaves_nothing(tmp_path):
    from emulator.trace import TraceRecorder
    from spyre_sched.errors import ExecutionError

    (tmp_path / "somefile").write_text("mine")
    with pytest.raises(ExecutionError, match="cannot write the trace"):
        TraceRecorder(1e9).write(tmp_path / "somefile" / "t.json")
    (tmp_path / "t.json.tmp").write_text("a file of the user's")  # never overwritten
    TraceRecorder(1e9).write(tmp_path / "t.json")
    assert (tmp_path / "t.json.tmp").read_text() == "a file of the user's"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["somefile", "t.json", "t.json.tmp"]


@pytest.mark.parametrize("make, fragment", [
    (lambda p: np.save(p, np.zeros((96, 64), np.float16)), "a single .npy array"),
    (lambda p: p.write_bytes(_npz_bytes()[:100]), "damaged"),
    (lambda p: p.write_bytes(b""), "the file is empty"),
    (lambda p: p.write_text("A,B\n1,2\n"), "not an .npz archive"),
])
def test_run_inputs_that_are_not_an_npz_archive_exit_1(tmp_path, make, fragment):
    path = tmp_path / "in.npz"
    make(path)
    if not path.exists():  # np.save appends .npy
        path = tmp_path / "in.npz.npy"
    usage_error(invoke("run", FIXTURE, "--inputs", path), "cannot read inputs", fragment,
                str(path))


def _npz_bytes() -> bytes:
    import io

    buffer = io.BytesIO()
    np.savez(buffer, A=np.zeros((96, 64), np.float16), B=np.ones((96, 64), np.float16))
    return buffer.getvalue()
