"""`--arg NAME=VALUE` on compile and run (`--runtime-arg` the older spelling): a plain
scalar argument is folded into the kernel before it is scheduled, so the kernel is
checked and scheduled for that value; a pointer cannot be given one. The bundle records
the value: run with it by default, refused with another."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from spyre_sched.cli import main
from spyre_sched.errors import ExecutionError

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
    # unbound, %i may put the rows past the views' edge: the views are masked
    result = run("compile", kernel, "--emit", "ktdf", "--stop-after", "mark-masked-views")
    assert result.exit_code == 0, result.output
    assert result.output.count("ktdf.masked = unit") == 2
    assert "%i = arith.constant" not in result.output


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


# ---- a bundle compiled with a folded value holds for that value only --------------------


@pytest.fixture(scope="module")
def folded_bundle(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("folded")
    kernel = folder / "shifted_rows.mlir"
    kernel.write_text(SHIFTED_ROWS)
    out = folder / "bundle"
    result = run("compile", str(kernel), "-o", str(out), "--arg", "i=2",
                 "--strategy", "heuristic")
    assert result.exit_code == 0, result.output
    return out


def test_the_bundle_records_the_folded_value(folded_bundle: Path) -> None:
    plan = json.loads((folded_bundle / "jobplan.json").read_text())
    row = next(a for a in plan["arguments"] if a["name"] == "i")
    assert row == {"name": "i", "kind": "scalar", "type": "index", "folded": 2}
    assert all("folded" not in a for a in plan["arguments"] if a["name"] != "i")


def test_run_without_a_value_uses_the_folded_one(folded_bundle: Path) -> None:
    result = run("run", str(folded_bundle))
    assert result.exit_code == 0, result.output
    assert "result: MATCH" in result.output


def test_run_refuses_another_value(folded_bundle: Path) -> None:
    result = run("run", str(folded_bundle), "--arg", "i=3")
    assert result.exit_code == 1
    assert "MISMATCH" not in result.output and "Traceback" not in result.output
    assert f"{folded_bundle / 'jobplan.json'}: error: argument 'i' = 3, but the bundle was " \
        "compiled with i = 2 folded into it" in result.output


def test_run_accepts_the_same_value(folded_bundle: Path) -> None:
    result = run("run", str(folded_bundle), "--runtime-arg", "i=2")
    assert result.exit_code == 0, result.output


def test_the_runtime_refuses_another_value(folded_bundle: Path) -> None:
    import numpy as np

    from emulator.runtime import Runtime

    runtime = Runtime("spyre")
    prepared = runtime.prepare(folded_bundle)
    x = np.zeros((8, 64), np.float16)
    with pytest.raises(ExecutionError, match="argument 'i' = 4, but the bundle was compiled "
                       "with i = 2"):
        runtime.launch(prepared, {"X": x, "Y": x}, {"i": 4})


def test_the_api_records_and_checks_the_folded_value(kernel: str) -> None:
    import spyre_sched
    from spyre_sched import api

    schedule = api.compile(kernel, strategy="heuristic", arguments={"i": 1})
    assert schedule.folded_arguments == {"i": 1}
    with pytest.raises(ExecutionError, match="argument 'i' = 0, but the bundle was compiled "
                       "with i = 1"):
        spyre_sched.run(schedule, runtime_args={"i": 0})
    assert spyre_sched.run(schedule).verdict == "MATCH"


def test_saved_schedule_ir_needs_the_folded_value_again(folded_bundle: Path) -> None:
    kernel = folded_bundle.parent / "shifted_rows.mlir"
    solved = run("compile", str(kernel), "--emit", "solved", "--arg", "i=2",
                 "--strategy", "heuristic")
    assert solved.exit_code == 0, solved.output
    saved = folded_bundle.parent / "solved.ktdf.mlir"
    saved.write_text(solved.output)
    out = folded_bundle.parent / "from_schedule_ir"
    refused = run("compile", str(saved), "-o", str(out), "--kernel", str(kernel))
    assert refused.exit_code == 1
    assert "does not read the scalar argument %i of the kernel" in refused.output
    assert not out.exists()
    written = run("compile", str(saved), "-o", str(out), "--kernel", str(kernel),
                  "--arg", "i=2")
    assert written.exit_code == 0, written.output
    plan = json.loads((out / "jobplan.json").read_text())
    assert {"name": "i", "kind": "scalar", "type": "index", "folded": 2} in plan["arguments"]
