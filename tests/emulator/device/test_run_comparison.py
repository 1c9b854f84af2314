"""`spyre-sched run` / `spyre_sched.run` compare with the reference by one rule (docs/numerics.md):
a bundle whose sums are reordered passes, one whose reduction drops a chunk fails (exit 1),
an elementwise kernel must match bit for bit (a one-ulp edit fails); RunResult's timings and
a reference run reused by the caller."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import spyre_sched
from emulator.bundle_files import seal
from spyre_sched.cli import main
from spyre_sched.emulate import ReferenceRun, ReferenceRuns
from spyre_sched.errors import ExecutionError

ROOT = Path(__file__).parents[3]
PROGRAM = "local_schedule_0.mlir"


def compiled(tmp_path_factory, kernel: str) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "bundle"
    done = CliRunner().invoke(main, ["compile", str(ROOT / kernel), "-o", str(out),
                                     "--strategy", "heuristic"])
    assert done.exit_code == 0, done.output
    return out


@pytest.fixture(scope="module")
def row_sum(tmp_path_factory):
    return compiled(tmp_path_factory, "examples/row_sum.mlir")


@pytest.fixture(scope="module")
def scale_rows(tmp_path_factory):
    return compiled(tmp_path_factory, "tests/emulator/kernels/scale_rows.mlir")


def edited(bundle: Path, tmp_path: Path, edit) -> Path:
    copy = tmp_path / "edited"
    shutil.copytree(bundle, copy)
    text = (copy / PROGRAM).read_text()
    new = edit(text)
    assert new != text, "the bundle no longer has what the edit expects"
    (copy / PROGRAM).write_text(new)
    seal(copy)  # a deliberate edit: what the comparison says about it is under test
    return copy


def test_reordered_sums_pass_and_the_report_gives_the_bound_ratio(row_sum):
    out = CliRunner().invoke(main, ["run", str(row_sum)])
    assert out.exit_code == 0, out.output
    assert re.search(r"output %S: max error \S+, \d+\.\d\d of the allowed bound", out.output)
    assert re.search(r"time: emulate \S+ s \(CPU \S+ s\), reference \S+ s \(CPU", out.output)


def test_a_reduction_that_drops_a_chunk_fails(row_sum, tmp_path):
    """Both the load loop and the summing loop start one 32-wide chunk late (so no FIFO
    waits forever): every row sum misses its first 32 terms."""
    loop = re.compile(r"scf\.for (%i\w*) = %c0\w* to (%c512\w*) step (%c32\w*)")
    bundle = edited(row_sum, tmp_path,
                    lambda text: loop.sub(r"scf.for \1 = \3 to \2 step \3", text))
    out = CliRunner().invoke(main, ["run", str(bundle)])
    assert out.exit_code == 1, out.output
    assert "MISMATCH" in out.output and "%S:" in out.output and "allowed" in out.output


def test_elementwise_kernel_one_ulp_off_fails(scale_rows, tmp_path):
    good = CliRunner().invoke(main, ["run", str(scale_rows), "--json"])
    assert good.exit_code == 0, good.output
    doc = json.loads(good.output)
    assert doc["bound_ratio"] == {"Y": None} and doc["tolerance"] == {"Y": "bit-exact"}
    assert set(doc["timings"]) == {"emulate", "launch", "reference"}
    # 0.75 (0x3a00) -> the next f16 up (0x3a01) in the bundle's constant
    bundle = edited(scale_rows, tmp_path, lambda text: text.replace(
        'constant_bitstream "3a00"', 'constant_bitstream "3a01"'))
    out = CliRunner().invoke(main, ["run", str(bundle)])
    assert out.exit_code == 1, out.output
    assert "bit-exact required" in out.output


def test_timings_and_a_reused_reference(scale_rows):
    first = spyre_sched.run(scale_rows)
    assert first.matches and first.reference_run is not None
    for stage in ("emulate", "reference"):
        assert first.timings[stage]["wall_s"] > 0 and first.timings[stage]["cpu_s"] >= 0
    assert first.emulate_s == first.timings["emulate"]["wall_s"] and first.compile_s is None
    # the launch alone (what a runtime that prepared the bundle pays per launch) is a
    # part of "emulate", which also prepares the bundle
    launch = first.timings["launch"]
    assert 0 < launch["wall_s"] < first.timings["emulate"]["wall_s"]
    assert 0 <= launch["cpu_s"] <= first.timings["emulate"]["cpu_s"]
    again = spyre_sched.run(scale_rows, reference=first.reference_run)
    assert again.timings["reference"]["reused"] is True
    assert again.matches and np.array_equal(again.outputs["Y"], first.outputs["Y"])
    # the caller's reference is what outputs are checked against: one element one ulp off
    nudged = {"Y": first.reference_run.outputs["Y"].copy()}
    nudged["Y"][0, 0] = np.nextafter(nudged["Y"][0, 0], np.float16(np.inf))
    wrong = ReferenceRun(nudged, first.reference_run.bounds, first.reference_run.accumulator)
    assert not spyre_sched.run(scale_rows, reference=wrong).matches
    with pytest.raises(ExecutionError, match="ReferenceRun"):
        spyre_sched.run(scale_rows, reference=first.reference_run.outputs)


def test_reference_runs_serve_a_bundle_only_at_its_own_depth(row_sum):
    """A `ReferenceRuns` gives a bundle the run made for exactly its accumulator and
    summation depth (the bounds a fresh run gives), and keeps what a run makes."""
    runs = ReferenceRuns()
    first = spyre_sched.run(row_sum, reference=runs)
    assert first.matches and "reused" not in first.timings["reference"]
    made = first.reference_run
    assert runs.runs == {(made.accumulator, made.summation_depth): made}
    assert not any(a.flags.writeable for a in (*made.outputs.values(), *made.bounds.values()))
    again = spyre_sched.run(row_sum, reference=runs)
    assert again.timings["reference"]["reused"] is True and again.matches
    # the entry under this bundle's key is the one checked against: one ulp off fails
    name = next(iter(made.outputs))
    nudged = made.outputs[name].copy()
    nudged.flat[0] = np.nextafter(nudged.flat[0], np.inf).astype(nudged.dtype)
    key = (made.accumulator, made.summation_depth)
    wrong = ReferenceRuns({key: ReferenceRun({name: nudged}, made.bounds, made.accumulator,
                                             summation_depth=made.summation_depth)})
    assert not spyre_sched.run(row_sum, reference=wrong).matches
    # a run made for a deeper order (looser bounds, still true) does not serve it
    deeper = made.summation_depth + 1 if made.summation_depth is not None else 1
    other = ReferenceRuns({(made.accumulator, deeper): made})
    fresh = spyre_sched.run(row_sum, reference=other)
    assert "reused" not in fresh.timings["reference"]
    assert set(other.runs) == {key, (made.accumulator, deeper)}


def test_compile_time_is_reported_for_a_kernel():
    result = spyre_sched.run(ROOT / "tests/emulator/kernels/scale_rows.mlir",
                             strategy="heuristic")
    assert result.matches and result.compile_s > 0
    assert "compile" in spyre_sched.emulate.report(result)


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["solver", "heuristic"])
def test_full_size_layernorm_matches(strategy):
    """The 1024x1024 layernorm of the suite: its outputs near zero after the cancellations
    differ by f16 subnormal steps (the emulator sums in 32-wide chunks), within their bounds
    (the former rule, relative to the output, rejected 2 of them)."""
    result = spyre_sched.run(ROOT / "bench/kernels/layernorm.mlir", strategy=strategy)
    assert result.matches, result.mismatches
    assert result.max_error["Y"] > 0 and result.bound_ratio["Y"] <= 1.0


FLOAT_SCALAR = """\
func.func @float_scalar(%s: f16, %A0: index, %Y: index) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %x = ktdp.get_compute_tile_id : index
  %i1 = arith.muli %x, %c3 : index
  %i13 = arith.muli %x, %c8 : index
  %V2 = ktdp.construct_memory_view %A0, sizes: [6, 8], strides: [8, 1] {coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 5 >= 0, d1 >= 0, -d1 + 7 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<6x8xf16>
  %V12 = ktdp.construct_memory_view %Y, sizes: [16], strides: [1] {coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 15 >= 0)>, memory_space = #ktdp.memory_space<global>} : memref<16xf16>
  // program 0
  %T3 = ktdp.construct_access_tile %V2[%i1, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0, d1 >= 0, -d1 + 7 >= 0)>, access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<6x8xf16> -> !ktdp.access_tile<3x8xindex>
  %v4 = ktdp.load %T3 : !ktdp.access_tile<3x8xindex> -> tensor<3x8xf16>
  %k7 = arith.constant 0.0 : f16
  %e5 = tensor.empty() : tensor<8xf16>
  %f6 = linalg.fill ins(%k7 : f16) outs(%e5 : tensor<8xf16>) -> tensor<8xf16>
  %red8 = linalg.reduce ins(%v4 : tensor<3x8xf16>) outs(%f6 : tensor<8xf16>) dimensions = [0]
    (%x9: f16, %y10: f16) {
      %s11 = arith.addf %x9, %y10 : f16
      linalg.yield %s11 : f16
    }
  %T14 = ktdp.construct_access_tile %V12[%i13] {access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 7 >= 0)>, access_tile_order = affine_map<(d0) -> (d0)>} : memref<16xf16> -> !ktdp.access_tile<8xindex>
  ktdp.store %red8, %T14 : tensor<8xf16>, !ktdp.access_tile<8xindex>
  return
}
"""


def test_a_float_scalar_argument_is_a_number_not_an_address(tmp_path):
    # The bundle's symbols are integers; a float scalar (unused by any address) was
    # refused at launch as "an element offset for a pointer".
    kernel = tmp_path / "float_scalar.mlir"
    kernel.write_text(FLOAT_SCALAR)
    done = CliRunner().invoke(main, ["run", str(kernel), "--strategy", "heuristic",
                                     "--runtime-arg", "s=-2.0"])
    assert done.exit_code == 0, done.output
    assert "result: MATCH" in done.output
