"""`--func NAME` on every verb that reads a kernel: a file defining several kernel
functions is refused without it (no verb silently takes the first), and with it every
verb means the same function."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched.cli import main

_ONE = """
  func.func @NAME(%X: index, %Y: index) attributes {grid = [2]} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %t = ktdp.get_compute_tile_id : index
    %row = arith.muli %t, %c4 : index
    %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {
        coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
    %Xt = ktdp.construct_access_tile %Xv[%row, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
    %Yt = ktdp.construct_access_tile %Yv[%row, %c0] {
        access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
        access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    %y = OP %x, %x : tensor<4x64xf16>
    ktdp.store %y, %Yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
    return
  }
"""

TWO_KERNELS = ("module {" + _ONE.replace("NAME", "double").replace("OP", "arith.addf")
               + _ONE.replace("NAME", "square").replace("OP", "arith.mulf") + "}\n")


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
