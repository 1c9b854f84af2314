"""Run-time shapes through the whole path: views whose row count is a run-time argument N,
an orchestrator loop over N. Compiled once, the bundle is prepared once and launched with
different N at different addresses, each launch equal to the reference and to numpy;
out-of-range N is refused at launch; the values depending on N stay symbolic."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from lower_bundle_checks import check_bundle

ROOT = Path(__file__).resolve().parents[2]
ROWS = ROOT / "tests" / "emulator" / "kernels" / "runtime_rows.mlir"
HALVES = Path(__file__).parent / "kernels" / "runtime_halves.mlir"


@pytest.fixture(scope="module")
def rows_bundle(tmp_path_factory) -> Path:
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    out = write_bundle(compile_kernel(str(ROWS), device="spyre", strategy="heuristic"),
                       tmp_path_factory.mktemp("rows") / "bundle")
    check_bundle(out)
    return out


@pytest.fixture(scope="module")
def halves_bundle(tmp_path_factory) -> Path:
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    out = write_bundle(compile_kernel(str(HALVES), device="spyre", strategy="heuristic"),
                       tmp_path_factory.mktemp("halves") / "bundle")
    check_bundle(out)
    return out


def test_the_job_plan_loops_over_the_run_time_row_count(rows_bundle: Path) -> None:
    plan = json.loads((rows_bundle / "jobplan.json").read_text())
    args = {a["name"]: a for a in plan["arguments"]}
    assert args["n"] == {"name": "n", "kind": "runtime", "type": "index", "granularity": 64,
                         "upperbound": 256}
    assert args["X"]["shape"] == [["arg", "n"], 64] and args["Y"]["shape"] == [["arg", "n"], 64]
    (loop,) = plan["execute"]
    assert {k: loop[k] for k in ("step", "var", "lb", "ub", "stride")} == \
        {"step": "for", "var": "i", "lb": 0, "ub": ["arg", "n"], "stride": 64}
    assert [s["step"] for s in loop["body"]] == ["evaluate_symbols", "write_symbols", "launch"]
    assert loop["body"][0]["bindings"]["i"] == ["arg", "i"]


def test_prepare_once_launch_twice_with_different_addresses_and_row_counts(rows_bundle: Path) -> None:
    import emulator.reference as reference
    from emulator.runtime import Runtime

    runtime = Runtime("spyre")
    prepared = runtime.prepare(rows_bundle)
    seen = []
    for seed, n in ((1, 128), (2, 256)):
        x = np.random.default_rng(seed).uniform(-2, 2, (n, 64)).astype(np.float16)
        runtime.allocate((seed * 1000,), "f16")  # the next tensors land somewhere else
        offset_x = runtime.allocate_tensor(x, "f16")
        offset_y = runtime.allocate((n, 64), "f16")
        result = runtime.launch(prepared, {"X": offset_x, "Y": offset_y}, {"n": n})
        want = reference.run(ROWS, {"X": x}, runtime_args={"n": n})["Y"]
        assert result.outputs["Y"].shape == (n, 64)
        assert np.array_equal(result.outputs["Y"], want)
        assert np.array_equal(want, (x.astype(np.float32) * 2).astype(np.float16))
        assert len(result.per_program) == n // 64  # one launch per 64-row block
        seen.append((offset_x, offset_y, result.cycles))
    assert seen[0][:2] != seen[1][:2]
    assert seen[1][2] > seen[0][2]  # twice the rows, more cycles


@pytest.mark.parametrize("n, message", [
    (100, r"run-time argument 'n' = 100 is not a multiple of its granularity 64"),
    (320, r"run-time argument 'n' = 320 is outside \[1, 256\]"),
    (0, r"run-time argument 'n' = 0 must be a positive integer"),
    (-64, r"run-time argument 'n' = -64 must be a positive integer"),
])
def test_out_of_range_row_counts_are_refused_at_launch(rows_bundle: Path, n: int, message: str) -> None:
    from emulator.runtime import Runtime
    from spyre_sched.errors import ExecutionError

    runtime = Runtime("spyre")
    prepared = runtime.prepare(rows_bundle)
    x, y = runtime.allocate((256, 64), "f16"), runtime.allocate((256, 64), "f16")
    with pytest.raises(ExecutionError, match=message):
        runtime.launch(prepared, {"X": x, "Y": y}, {"n": n})


def test_a_row_count_of_zero_is_refused_like_the_reference_does(rows_bundle: Path) -> None:
    """KTIR's run-time arguments are positive (docs/ktir.md): the runtime and the
    reference interpreter both refuse 0, with the argument named; `run` and `reference` exit 1."""
    from click.testing import CliRunner

    from emulator import reference
    from emulator.runtime import Runtime
    from spyre_sched.cli import main
    from spyre_sched.errors import ExecutionError

    runtime = Runtime("spyre")
    prepared = runtime.prepare(rows_bundle)
    with pytest.raises(ExecutionError, match=r"'n' = 0 must be a positive integer"):
        runtime.launch(prepared, {"X": runtime.allocate((1,), "f16"),
                                  "Y": runtime.allocate((1,), "f16")}, {"n": 0})
    with pytest.raises(ExecutionError, match=r"%n = 0 must be a positive integer"):
        reference.run(ROWS, {"X": np.zeros((64, 64), np.float16)}, runtime_args={"n": 0})
    for command in (["run", str(rows_bundle)], ["reference", str(ROWS)]):
        out = CliRunner().invoke(main, [*command, "--runtime-arg", "n=0"])
        assert out.exit_code == 1, out.output
        assert "must be a positive integer" in out.output


def test_values_depending_on_the_row_count_stay_symbolic(halves_bundle: Path) -> None:
    symbols = json.loads((halves_bundle / "symbols.json").read_text())["symbols"]
    shapes = [s for s in symbols if s["kind"] == "shape"]
    assert [s["expr"] for s in shapes] == [["mul", ["arg", "n"], 2]]
    program = (halves_bundle / "local_schedule_0.mlir").read_text()
    sid = shapes[0]["id"]
    assert f"symbol.create_symbol {{SymbolId = {sid} : i64}}" in program
    assert f"arith.divui %sym{sid}" in program  # the unit divides the launch-time value
    assert "ktdp.runtime_arg_extract value from %n" in program  # the outer function reads N
    plan = json.loads((halves_bundle / "jobplan.json").read_text())
    y = next(a for a in plan["arguments"] if a["name"] == "Y")
    assert y["shape"] == [["mul", ["arg", "n"], 2], 64]


@pytest.mark.parametrize("n", [32, 128])
def test_run_time_halves_match_the_reference_and_numpy(halves_bundle: Path, n: int) -> None:
    import spyre_sched

    x = np.random.default_rng(n).uniform(-2, 2, (n, 64)).astype(np.float16)
    result = spyre_sched.run(str(halves_bundle), {"X": x}, runtime_args={"n": n})
    assert result.matches, result.mismatches
    x32 = x.astype(np.float32)
    want = np.concatenate([(x32 + x32).astype(np.float16), (x32 * x32).astype(np.float16)])
    assert np.array_equal(result.outputs["Y"], want)


def test_cli_run_with_a_run_time_argument() -> None:
    from spyre_sched.cli import main

    ok = CliRunner().invoke(main, ["run", str(ROWS), "--strategy", "heuristic", "--runtime-arg", "n=192"])
    assert ok.exit_code == 0, ok.output
    assert "result: MATCH" in ok.output
    assert "local_schedule_0#0[i=128]" in ok.output


def test_run_time_rows_on_sample_device(tmp_path: Path) -> None:
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import write_bundle

    out = write_bundle(compile_kernel(str(ROWS), device="sample_device", strategy="heuristic"),
                       tmp_path / "bundle")
    check_bundle(out)
    for n in (64, 192):
        result = spyre_sched.run(str(out), runtime_args={"n": n})
        assert result.matches, result.mismatches
        assert result.outputs["Y"].shape == (n, 64)


def test_a_condition_on_the_run_time_loop_counter(tmp_path: Path) -> None:
    import spyre_sched

    text = ROWS.read_text().replace(
        "  scf.for %i = %c0 to %N step %c64 {\n",
        "  %c128 = arith.constant 128 : index\n  scf.for %i = %c0 to %N step %c64 {\n"
        "    %lt = arith.cmpi ult, %i, %c128 : index\n    scf.if %lt {\n").replace(
        "    ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>\n  }\n",
        "    ktdp.store %y, %Yt : tensor<64x64xf16>, !ktdp.access_tile<64x64xindex>\n    }\n  }\n")
    kernel = tmp_path / "rows_below_128.mlir"
    kernel.write_text(text)
    x = np.random.default_rng(9).uniform(-2, 2, (256, 64)).astype(np.float16)
    result = spyre_sched.run(str(kernel), {"X": x}, strategy="heuristic", runtime_args={"n": 256})
    assert result.matches, result.mismatches
    assert sorted(result.per_program) == ["local_schedule_0#0[i=0]", "local_schedule_0#0[i=64]"]
    want = np.full((256, 64), np.nan, np.float16)  # rows no store writes: poison (NaN)
    want[:128] = (x[:128].astype(np.float32) * 2).astype(np.float16)
    assert np.array_equal(result.outputs["Y"], want, equal_nan=True)


def test_a_view_sized_by_a_plain_scalar_argument_says_how_to_fix_it(tmp_path: Path) -> None:
    """A view whose size is a plain scalar argument (an `index`, not a
    `!ktdp.runtime_arg`): run-time shapes are kept only for run-time arguments, so the
    lowering refuses it, naming the argument and the option that fixes it at compile
    time; with that value given, the kernel runs."""
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.errors import UnsupportedError
    from spyre_sched.lower.bundle import write_bundle

    text = ROWS.read_text().replace(
        "%n: !ktdp.runtime_arg<index, granularity = 64, upperbound = 256>", "%n: index")
    text = text.replace(
        "%N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity "
        "= 64, upperbound = 256> -> index", "%N = arith.addi %n, %c0 : index")
    assert "runtime_arg" not in text
    kernel = tmp_path / "scalar_rows.mlir"
    kernel.write_text(text)
    with pytest.raises(UnsupportedError) as err:
        write_bundle(compile_kernel(str(kernel), device="spyre"), tmp_path / "bundle")
    assert "a view size that depends on %n, which is not a run-time argument" in str(err.value)
    assert "`--arg n=VALUE`" in str(err.value)
    result = spyre_sched.run(str(kernel), device="spyre", runtime_args={"n": 128})
    assert result.matches, result.mismatches


def test_a_scalar_computed_from_a_plain_argument_says_how_to_fix_it(tmp_path: Path) -> None:
    """RMSNorm's mean divides by N cast to a float (`sitofp(index_cast %n)`); with %n a
    plain argument no unit computes that float at run time, and the lowering's refusal
    names the argument and the option that folds it (the cast then folds too)."""
    import spyre_sched
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.errors import UnsupportedError
    from spyre_sched.lower.bundle import write_bundle

    source = ROOT / "tests" / "normalize" / "kernels" / "rms_scalar_chain.mlir"
    text = source.read_text().replace("(%X: index, %Y: index)", "(%X: index, %Y: index, %n: index)")
    text = text.replace("  %n = arith.constant 128 : index\n", "")
    kernel = tmp_path / "rms_n_argument.mlir"
    kernel.write_text(text)
    with pytest.raises(UnsupportedError) as err:
        write_bundle(compile_kernel(str(kernel), device="spyre"), tmp_path / "bundle")
    assert "arith.sitofp is not supported yet on a value computed from %n at run time: " \
           "`--arg n=VALUE` fixes it at compile time" in str(err.value)
    result = spyre_sched.run(str(kernel), device="spyre", runtime_args={"n": 128})
    assert result.matches, result.mismatches
