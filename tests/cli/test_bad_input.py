"""Bad input a hostile user tried: every case is a clear error with exit status 1."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from spyre_sched.cli import main

ROOT = Path(__file__).resolve().parents[2]
ADD = str(ROOT / "examples" / "add_96x64.mlir")
LOOP = str(ROOT / "tests" / "polyhedral" / "kernels" / "loop_runtime.mlir")
sys.path.insert(0, str(ROOT / "tests" / "device"))
from ktdf_arch_testutil import TINY  # noqa: E402


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _fails_clearly(result, *fragments: str) -> None:
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in result.output, result.output


def test_inputs_empty_corrupt_npy_or_directory(tmp_path):
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_text("garbage\n")
    truncated = tmp_path / "truncated.npz"
    np.savez(truncated, A=np.zeros((96, 64), np.float16))
    truncated.write_bytes(truncated.read_bytes()[:100])
    single = tmp_path / "a.npy"
    np.save(single, np.zeros(3))
    _fails_clearly(run("reference", ADD, "--inputs", str(empty)), "the file is empty")
    _fails_clearly(run("reference", ADD, "--inputs", str(corrupt)), "not an .npz archive")
    _fails_clearly(run("reference", ADD, "--inputs", str(truncated)), "damaged")
    _fails_clearly(run("reference", ADD, "--inputs", str(single)), "a single .npy array")
    _fails_clearly(run("reference", ADD, "--inputs", str(tmp_path)), "cannot read inputs")


def test_save_outputs_writes_exactly_the_path_or_refuses(tmp_path):
    out = tmp_path / "out"
    _fails_clearly(run("reference", ADD, "--save-outputs", str(out)), "must end in .npz")
    assert not list(tmp_path.iterdir())
    folder = tmp_path / "dir.npz"
    folder.mkdir()
    _fails_clearly(run("reference", ADD, "--save-outputs", str(folder)), "a directory")
    good = tmp_path / "good.npz"
    assert run("reference", ADD, "--save-outputs", str(good)).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.npz", "good.npz"]


def test_runtime_arg_repeated_or_naming_a_pointer():
    _fails_clearly(run("reference", LOOP, "--runtime-arg", "n=64", "--runtime-arg", "n=128"),
                   "%n is given twice (64 and 128)")
    _fails_clearly(run("reference", ADD, "--runtime-arg", "A=3"),
                   "run-time argument %A names a pointer argument")


def test_directory_as_a_file_path(tmp_path):
    _fails_clearly(run("check", str(tmp_path)), "cannot read kernel file")
    _fails_clearly(run("device", "show", str(tmp_path)), "is a directory")


def test_self_loop_datapath_is_named(tmp_path):
    device = tmp_path / "self.mlir"
    device.write_text(TINY.replace(
        "ktdf_arch.datapath %l1 to %vu {bandwidth = 64} : memory, exec_unit",
        "ktdf_arch.datapath %vu to %vu {bandwidth = 64} : exec_unit, exec_unit"))
    result = run("device", "show", str(device))
    _fails_clearly(result, "self.mlir:9:31: error: a datapath must join two different units "
                   "or memories, not %vu to itself")


@pytest.mark.parametrize("step", ["0", "-64"])
def test_scf_for_constant_step_must_be_positive(tmp_path, step):
    text = Path(LOOP).read_text().replace(
        "scf.for %j = %c0 to %N step %c64", "scf.for %j = %c0 to %N step %cs").replace(
        "%c64 = arith.constant 64 : index",
        f"%c64 = arith.constant 64 : index\n  %cs = arith.constant {step} : index")
    path = tmp_path / "k.mlir"
    path.write_text(text)
    _fails_clearly(run("check", str(path)), f"error: scf.for has step {step}")


def test_affine_expression_of_500_terms(tmp_path):
    terms = " + ".join(f"{k % 7 + 1} * d{k % 2}" for k in range(500))
    text = Path(ADD).read_text().replace(
        "#whole = affine_set<(d0, d1) : (d0 >= 0,",
        f"#whole = affine_set<(d0, d1) : ({terms} >= 0, d0 >= 0,")
    path = tmp_path / "k.mlir"
    path.write_text(text)
    for command in ("check", "reference"):
        _fails_clearly(run(command, str(path)), "an affine expression nests more than 100")


def _nested(depth: int) -> str:
    lines = ["func.func @deep(%A: index) attributes {grid = [1]} {",
             "  %c0 = arith.constant 0 : index", "  %c1 = arith.constant 1 : index"]
    lines += [f"  scf.for %i{k} = %c0 to %c1 step %c1 {{" for k in range(depth)]
    lines += ["  }"] * depth + ["  return", "}"]
    return "\n".join(lines) + "\n"


def test_deep_nesting_is_a_clear_limit(tmp_path):
    path = tmp_path / "deep.mlir"
    path.write_text(_nested(200))
    _fails_clearly(run("check", str(path)), "ops nest more than 64 levels deep")
    path.write_text(_nested(63))          # func.func + 63 loops: at the limit, accepted
    assert run("check", str(path)).exit_code == 0


DISTRIBUTED = ROOT / "examples" / "distributed_pair.mlir"


@pytest.mark.parametrize("command", ["check", "reference", "compile", "run"])
def test_distributed_part_in_a_core_the_kernel_does_not_have(tmp_path, command):
    # The last part of S named in core 7's scratchpad: the grid (and so the device the
    # kernel runs on) has 4 cores. Refused at the view, and a compile writes nothing.
    text = DISTRIBUTED.read_text().replace("ct_local, ct_id = 3>", "ct_local, ct_id = 7>")
    kernel = tmp_path / "owner.mlir"
    kernel.write_text(text)
    line = text[:text.index("ct_id = 7")].count("\n")  # the view op starts a line above
    args = [command, str(kernel)] + (["-o", str(tmp_path / "out")] if command == "compile" else [])
    _fails_clearly(run(*args), f"{kernel}:{line}:3: error",
                   "memory space names compute tile 7, but the grid [4] has only 4 tiles")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["owner.mlir"]


def test_distributed_part_in_another_core_is_refused_at_the_access(tmp_path):
    # Tile t stores into the part of the next core (rows 32 (t + 1) mod 128), and core 3's
    # part sits at another scratchpad offset than the others': no view of one layout with
    # a core per tile reaches them all (of one layout, the store is scheduled over the
    # ring); the error names tile, part and core.
    text = DISTRIBUTED.read_text().replace(
        "%St = ktdp.construct_access_tile %S[%row, %c0]",
        "%St = ktdp.construct_access_tile %S[%next, %c0]").replace(
        "  %row = arith.muli %t, %c32 : index\n",
        "  %row = arith.muli %t, %c32 : index\n  %c128 = arith.constant 128 : index\n"
        "  %ahead = arith.addi %row, %c32 : index\n  %next = arith.remui %ahead, %c128 : index\n")
    apart = text.replace("%S3 = ktdp.construct_memory_view %c0,",
                         "%S3 = ktdp.construct_memory_view %c128,")
    assert apart != text
    kernel = tmp_path / "remote.mlir"
    kernel.write_text(apart)
    _fails_clearly(run("compile", str(kernel), "-o", str(tmp_path / "out")),
                   "not supported yet: stores into a part of a distributed view in another "
                   "core's scratchpad that differs per tile (tile 0 reaches part 1, in core 1's "
                   "scratchpad)")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["remote.mlir"]
    # of one layout it compiles
    kernel.write_text(text)
    assert run("compile", str(kernel), "-o", str(tmp_path / "out")).exit_code == 0


def test_reference_stops_at_its_time_budget(tmp_path):
    # a small kernel that loops for minutes on the interpreter (32 tiles, a 65536-trip
    # loop over rows: found by the mutation fuzzer): --max-seconds ends it with a
    # located error, and the outputs file is not written
    text = (ROOT / "tests" / "schedule" / "kernels" / "war_loop_rows.mlir").read_text()
    text = text.replace("grid = [1]", "grid = [2, 16]").replace(
        "%c2 = arith.constant 2 : index", "%c2 = arith.constant 65536 : index")
    kernel = tmp_path / "long.mlir"
    kernel.write_text(text)
    out = tmp_path / "out.npz"
    result = run("reference", str(kernel), "--max-seconds", "1", "--save-outputs", str(out))
    _fails_clearly(result, "long.mlir:7:1: error: the reference interpreter did not finish "
                   "@war_loop within 1 s (--max-seconds); nothing was written")
    assert not out.exists()
