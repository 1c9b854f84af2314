"""`--split-input-file` on every verb that reads a kernel: the file is cut at `// -----`
lines, each part is its own input (its errors at the whole file's lines), the outputs
are separated by `// -----` and the exit status is the worst part's."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched.cli import main
from spyre_sched.cli_split import split_parts

from doubling_kernel import doubling_kernel

_GOOD = doubling_kernel()

# the second part's bad op is on line 26 of the whole file (line 3 of the part)
_BAD = """func.func @bad(%X: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %y = arith.addf %c0, %c0 : index
  return
}
"""


@pytest.fixture
def two_parts(tmp_path: Path) -> Path:
    path = tmp_path / "parts.mlir"
    path.write_text(_GOOD + "// -----\n" + _BAD)
    assert (_GOOD + "// -----\n").count("\n") == 23
    return path


def test_parts_keep_their_line_numbers():
    parts = split_parts("a\n// -----\nb\nc\n  // -----  \nd")
    assert parts == ["a\n", "\n\nb\nc\n", "\n\n\n\n\nd"]
    assert split_parts("no separator\n") == ["no separator\n"]


@pytest.mark.parametrize("verb", ["check", "reference", "compile", "explain", "run"])
def test_every_verb_handles_each_part_and_locates_in_the_whole_file(verb, two_parts):
    quick = ["--strategy", "heuristic"] if verb in ("explain", "run") else []
    done = CliRunner().invoke(main, [verb, "--split-input-file", str(two_parts), *quick])
    assert done.exit_code == 1, done.output  # the worst part's status
    assert "// -----" in done.stdout
    first, second = done.stdout.split("// -----\n")
    assert first.strip(), "the first part's output comes before the separator"
    assert f"{two_parts}:26:3: error:" in done.stderr
    assert "Traceback" not in done.output


def test_without_the_option_the_separator_is_a_comment(two_parts):
    # the file as one input: a single module with two functions needs --func
    done = CliRunner().invoke(main, ["check", str(two_parts), "--func", "double"])
    assert done.exit_code == 1 and f"{two_parts}:26:3: error:" in done.stderr


def test_parts_that_all_pass_exit_zero(tmp_path: Path):
    path = tmp_path / "good.mlir"
    path.write_text(_GOOD + "// -----\n" + _GOOD.replace("@double", "@again"))
    done = CliRunner().invoke(main, ["check", "--split-input-file", str(path)])
    assert done.exit_code == 0, done.output
    assert "kernel @double" in done.stdout and "kernel @again" in done.stdout


@pytest.mark.parametrize("option", [["-o", "OUT"], ["--save-outputs", "o.npz"]])
def test_a_file_every_part_would_write_is_refused(option, two_parts, tmp_path: Path):
    verb = "compile" if option[0] == "-o" else "run"
    target = str(tmp_path / option[1])
    done = CliRunner().invoke(main, [verb, "--split-input-file", str(two_parts), option[0], target])
    assert done.exit_code == 1
    assert "every part would write the same file" in done.output
    assert not Path(target).exists()
