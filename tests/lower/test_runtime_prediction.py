"""Predicted cycles under run-time loops and conditions: the bundle records each program's
cycles per call (schedule.json `predicted_per_call`) and what the compile-time figure
assumed (`predicted_assumes`); a launch walks the job plan with its arguments and counts
each call it makes, so `run`'s predicted/emulated ratio means the same for a kernel whose
trip count is a run-time value as for one whose trip count is a constant."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import spyre_sched
from spyre_sched.api import compile as compile_kernel
from spyre_sched.lower.bundle import write_bundle

ROOT = Path(__file__).resolve().parents[2]
ROWS = ROOT / "tests" / "emulator" / "kernels" / "runtime_rows.mlir"
# a KTIR loop kept in the orchestrator: it updates its rows in place, so it is not folded
LOOPED = ROOT / "tests" / "schedule" / "kernels" / "looped_add_in_place.mlir"
EXTRACT = ("%N = ktdp.runtime_arg_extract value from %n : "
           "!ktdp.runtime_arg<index, granularity = 64, upperbound = 256> -> index")


@pytest.fixture(scope="module")
def rows_bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("rows") / "bundle"
    return write_bundle(compile_kernel(str(ROWS), device="spyre"), out)


def _static_rows(n: int, tmp_path: Path) -> Path:
    """runtime_rows with N a constant: the loop is unrolled at compile time. Its body is
    wrapped in an always-true condition so that untile-loops does not fold it into one
    chain: the comparison is of the same program called once per block."""
    text = ROWS.read_text()
    assert EXTRACT in text
    text = text.replace(EXTRACT, f"%N = arith.constant {n} : index").replace(
        "  scf.for %i = %c0 to %N step %c64 {\n",
        "  scf.for %i = %c0 to %N step %c64 {\n"
        "    %in_range = arith.cmpi ult, %i, %N : index\n    scf.if %in_range {\n").replace(
        "    ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>\n  }\n",
        "    ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>\n    }\n  }\n")
    assert "scf.if" in text
    path = tmp_path / f"static_rows_{n}.mlir"
    path.write_text(text)
    return path


def test_bundle_records_cycles_per_call_and_the_assumption(rows_bundle: Path) -> None:
    schedule = json.loads((rows_bundle / "schedule.json").read_text())
    per_call = schedule["predicted_per_call"]
    assert list(per_call) == ["local_schedule_0"]
    assert schedule["predicted_cycles"] == per_call["local_schedule_0"]  # one iteration
    assert schedule["predicted_assumes"] == [
        "a loop whose trip count is known only at launch is counted as one iteration"]


@pytest.mark.parametrize("n", [128, 256])
def test_run_time_loop_prediction_is_as_honest_as_a_constant_loops(rows_bundle: Path, n: int,
                                                                   tmp_path: Path) -> None:
    per_call = json.loads((rows_bundle / "schedule.json").read_text())["predicted_per_call"]
    x = np.random.default_rng(n).uniform(-2, 2, (n, 64)).astype(np.float16)
    dynamic = spyre_sched.run(str(rows_bundle), {"X": x}, runtime_args={"n": n})
    assert dynamic.matches, dynamic.mismatches
    assert dynamic.predicted_cycles == (n // 64) * per_call["local_schedule_0"]
    assert dynamic.compiled_prediction == per_call["local_schedule_0"]
    assert dynamic.prediction_assumes
    # the same kernel with N a constant: its loop is unrolled, no trip count is assumed
    static = spyre_sched.run(str(_static_rows(n, tmp_path)), {"X": x}, runtime_args={"n": n})
    assert static.matches, static.mismatches
    # its always-true condition is counted as taken, which it is; no loop is assumed
    assert not [a for a in static.prediction_assumes if "loop" in a]
    assert static.predicted_cycles == static.compiled_prediction
    ratio = dynamic.predicted_cycles / dynamic.cycles
    static_ratio = static.predicted_cycles / static.cycles
    assert abs(ratio - static_ratio) <= 0.02, (ratio, static_ratio)
    assert 0.8 <= ratio <= 1.2, ratio  # before: 0.45 at n = 128, 0.23 at n = 256
    report = spyre_sched.emulate.report(dynamic)
    assert f"predicted {dynamic.predicted_cycles}" in report
    assert f"at compile time {per_call['local_schedule_0']}, which assumed: a loop" in report


def test_predict_evaluates_the_job_plan_without_running(rows_bundle: Path) -> None:
    from emulator.runtime import Runtime

    per_call = json.loads((rows_bundle / "schedule.json").read_text())["predicted_per_call"]
    runtime = Runtime("spyre")
    prepared = runtime.prepare(rows_bundle)
    x, y = runtime.allocate((256, 64), "f16"), runtime.allocate((256, 64), "f16")
    for n in (64, 192, 256):
        assert runtime.predict(prepared, {"X": x, "Y": y}, {"n": n}) == \
            (n // 64) * per_call["local_schedule_0"]


def test_a_launch_time_condition_counts_only_the_calls_made(tmp_path: Path) -> None:
    text = ROWS.read_text().replace(
        "  scf.for %i = %c0 to %N step %c64 {\n",
        "  %c128 = arith.constant 128 : index\n  scf.for %i = %c0 to %N step %c64 {\n"
        "    %lt = arith.cmpi ult, %i, %c128 : index\n    scf.if %lt {\n").replace(
        "    ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>\n  }\n",
        "    ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>\n    }\n  }\n")
    kernel = tmp_path / "rows_below_128.mlir"
    kernel.write_text(text)
    out = write_bundle(compile_kernel(str(kernel), device="spyre", strategy="heuristic"),
                       tmp_path / "bundle")
    schedule = json.loads((out / "schedule.json").read_text())
    assert len(schedule["predicted_assumes"]) == 2  # the loop and the condition
    result = spyre_sched.run(str(out), runtime_args={"n": 256})
    assert result.matches, result.mismatches
    assert len(result.per_program) == 2  # rows 0 and 64 only
    assert result.predicted_cycles == 2 * schedule["predicted_per_call"]["local_schedule_0"]


def test_compile_time_calls_predict_the_same_at_launch(tmp_path: Path) -> None:
    """A constant KTIR loop (two calls, unrolled): the launch's count is the solver's."""
    out = write_bundle(compile_kernel(str(LOOPED), device="spyre", strategy="heuristic"),
                       tmp_path / "bundle")
    schedule = json.loads((out / "schedule.json").read_text())
    assert schedule["predicted_assumes"] == []
    result = spyre_sched.run(str(out))
    assert result.matches, result.mismatches
    assert result.predicted_cycles == result.compiled_prediction == schedule["predicted_cycles"]
    assert "at compile time" not in spyre_sched.emulate.report(result)


def test_a_bundle_without_per_call_cycles_keeps_its_figure() -> None:
    from emulator.runtime import Runtime

    fixture = ROOT / "tests" / "lower" / "fixtures" / "add_96x64_bundle"
    runtime = Runtime("spyre")
    prepared = runtime.prepare(fixture)
    args = {name: runtime.allocate((96, 64), "f16") for name in "ABC"}
    assert prepared.predicted_per_call is None
    assert runtime.predict(prepared, args) is None
