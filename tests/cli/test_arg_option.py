"""`--arg NAME=VALUE` on compile and run (`--runtime-arg` the older spelling): a plain
scalar argument is folded into the kernel before it is scheduled, so the kernel is
checked and scheduled for that value; a pointer cannot be given one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched.cli import main

# rows %i .. %i+3 of an 8x64 tensor: in bounds only for 0 <= %i <= 4
SHIFTED_ROWS = """
func.func @shifted_rows(%X: index, %Y: index, %i: index) {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 64], strides: [64, 1] {
      coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<8x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%i, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%i, %c0] {
      access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x64xf16> -> !ktdp.access_tile<4x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
  %y = arith.addf %x, %x : tensor<4x64xf16>
  ktdp.store %y, %Yt : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def kernel(tmp_path: Path) -> str:
    path = tmp_path / "shifted_rows.mlir"
    path.write_text(SHIFTED_ROWS)
    return str(path)


def test_without_a_value_the_scalar_stays_unbound(kernel: str) -> None:
    result = run("compile", kernel, "--emit", "ktdf")
    assert result.exit_code == 1
    assert "not supported yet: masked accesses" in result.output


@pytest.mark.parametrize("spelling", ["--arg", "--runtime-arg"])
def test_compile_folds_the_value(kernel: str, spelling: str) -> None:
    result = run("compile", kernel, "--emit", "ktdf", spelling, "i=2")
    assert result.exit_code == 0, result.output
    assert re.search(r"%i\w* = arith.constant 2 : index", result.output)


def test_run_compiles_and_compares_for_the_value(kernel: str) -> None:
    result = run("run", kernel, "--arg", "i=3", "--strategy", "heuristic")
    assert result.exit_code == 0, result.output
    assert "result: MATCH" in result.output


def test_a_pointer_takes_no_value(kernel: str) -> None:
    result = run("compile", kernel, "--emit", "ktdf", "--arg", "i=2", "--arg", "X=64")
    assert result.exit_code == 1
    assert "--arg X: %X is a pointer of @shifted_rows" in result.output


def test_a_malformed_pair_is_a_usage_error(kernel: str) -> None:
    result = run("compile", kernel, "--emit", "ktdf", "--arg", "i")
    assert result.exit_code == 1
    assert "--arg: expected NAME=NUMBER" in result.output
