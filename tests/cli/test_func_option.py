"""`--func NAME` on every verb that reads a kernel: a file defining several kernel
functions is refused without it (no verb silently takes the first), and with it every
verb means the same function."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched.cli import main

from doubling_kernel import doubling_kernel

TWO_KERNELS = ("module {" + doubling_kernel("double", "arith.addf")
               + doubling_kernel("square", "arith.mulf") + "}\n")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def two(tmp_path: Path) -> str:
    path = tmp_path / "two.mlir"
    path.write_text(TWO_KERNELS)
    return str(path)


@pytest.mark.parametrize("verb", [["check"], ["reference"], ["compile", "--emit", "ktdf"],
                                  ["run"], ["explain"]])
def test_several_kernels_and_no_func_is_refused(verb: list[str], two: str) -> None:
    result = run(*verb, two)
    assert result.exit_code == 1, result.output
    assert ("the file defines 2 kernel functions (@double, @square): name the one meant "
            "with --func NAME") in result.output


def test_every_verb_means_the_named_function(two: str) -> None:
    checked = run("check", two, "--func", "square")
    assert checked.exit_code == 0, checked.output
    assert "kernel @square:" in checked.output
    compiled = run("compile", two, "--emit", "ktdf", "--func", "@square")
    assert compiled.exit_code == 0, compiled.output
    assert "func.func @square(" in compiled.output and "@double" not in compiled.output
    ran = run("run", two, "--func", "square", "--strategy", "heuristic")
    assert ran.exit_code == 0, ran.output
    assert "kernel @square on spyre" in ran.output and "result: MATCH" in ran.output


def test_an_unknown_function_lists_the_file_s_functions(two: str) -> None:
    result = run("reference", two, "--func", "cube")
    assert result.exit_code == 1
    assert "--func cube: the file defines no function @cube (its functions: @double, " \
           "@square)" in result.output
