"""The job plan's execute part from the orchestrator: run-time loops and conditions as
steps, their expression grammar, and the clear errors for what it cannot express."""

from __future__ import annotations

from pathlib import Path

import pytest

from spyre_sched.errors import UnsupportedError, VerifyError
from spyre_sched.lower import symbols as sx

KERNELS = Path(__file__).parent / "kernels"


@pytest.mark.parametrize("expr, env, value", [
    (["ult", ["arg", "t"], 16], {"t": 3}, 1),
    (["ult", ["arg", "t"], 16], {"t": 16}, 0),
    (["ult", -1, 16], {}, 0),  # unsigned: -1 is the largest value
    (["slt", -1, 16], {}, 1),
    (["and", ["ne", ["arg", "f"], 0], ["sge", 5, 5]], {"f": 2}, 1),
    (["or", 0, ["eq", ["arg", "f"], 1]], {"f": 0}, 0),
    (["xor", 1, 1], {}, 0),
])
def test_condition_grammar(expr, env, value) -> None:
    from emulator.job_plan import evaluate as runtime_evaluate

    assert sx.evaluate(expr, env) == value
    assert runtime_evaluate(expr, env, "test") == value  # the runtime agrees


def test_condition_text() -> None:
    assert sx.text(["and", ["ult", ["tile"], 16], ["ne", ["arg", "flag"], 0]]) == "(tile <u 16) & (flag != 0)"
    assert sx.text(["sge", ["tile", 1], 3]) == "tile[1] >= 3"


def test_an_unknown_operation_is_refused() -> None:
    with pytest.raises(VerifyError, match="unknown operation 'pow'"):
        sx.evaluate(["pow", 2, 3], {})


def _lower_kernel_text(text: str, tmp_path: Path):
    from spyre_sched.api import compile as compile_kernel
    from spyre_sched.lower.bundle import bundle_from_schedule_ir

    path = tmp_path / "kernel.mlir"
    path.write_text(text)
    schedule = compile_kernel(str(path), device="spyre", strategy="heuristic")
    return bundle_from_schedule_ir(schedule.schedule_ir, kernel_text=None)


def test_a_loop_bounded_by_the_tile_id_and_a_run_time_value_is_refused_at_the_loop(
        tmp_path: Path) -> None:
    text = (KERNELS / "guarded_add.mlir").read_text().replace(
        "  scf.if %go {\n", "  %c1 = arith.constant 1 : index\n  %end = arith.addi %id, %flag : index\n"
        "  scf.for %k = %c0 to %end step %c1 {\n")
    with pytest.raises(UnsupportedError, match="bounds depend on the compute tile id") as err:
        _lower_kernel_text(text, tmp_path)
    assert "op scf.for in pass lower" in str(err.value)


def test_a_loop_bounded_by_the_tile_id_alone_counts_and_guards(tmp_path: Path) -> None:
    """`for k = 0 to id`: the normal form counts 31 iterations on every tile (the most
    any runs) and guards the body by `k < id`, a per-core condition."""
    text = (KERNELS / "guarded_add.mlir").read_text().replace(
        "  scf.if %go {\n", "  %c1 = arith.constant 1 : index\n  scf.for %k = %c0 to %id step %c1 {\n")
    steps = _lower_kernel_text(text, tmp_path).jobplan["execute"]
    assert len(steps) == 31  # the loop unrolled: its bounds are constants now
    assert steps[0]["step"] == "if" and steps[0]["cond"][0] == "slt"


def test_a_compile_time_condition_keeps_only_its_branch(tmp_path: Path) -> None:
    text = (KERNELS / "guarded_add.mlir").read_text().replace(
        "%go = arith.andi %low, %on : i1", "%go = arith.cmpi ult, %c3, %c16 : index")
    bundle = _lower_kernel_text(text, tmp_path)
    assert [s["step"] for s in bundle.jobplan["execute"]] == ["evaluate_symbols", "write_symbols", "launch"]


def test_a_run_time_flag_alone_is_one_condition_for_every_core(tmp_path: Path) -> None:
    text = (KERNELS / "guarded_add.mlir").read_text().replace(
        "%go = arith.andi %low, %on : i1", "%go = arith.andi %on, %on : i1")
    (step,) = _lower_kernel_text(text, tmp_path).jobplan["execute"]
    assert step["cond"] == ["and", ["ne", ["arg", "flag"], 0], ["ne", ["arg", "flag"], 0]]


def test_a_loop_bound_written_as_a_select_is_a_min(tmp_path: Path) -> None:
    """`end = select(N < 64, N, 64)` (a min as generated kernels spell it) bounds the
    orchestrator's loop as `min(N, 64)`, evaluated at launch."""
    text = (KERNELS / "runtime_halves.mlir").read_text().replace(
        "  scf.for %i = %c0 to %N step %c32 {\n",
        "  %c64 = arith.constant 64 : index\n"
        "  %less = arith.cmpi slt, %N, %c64 : index\n"
        "  %end = arith.select %less, %N, %c64 : index\n"
        "  scf.for %i = %c0 to %end step %c32 {\n")
    (loop,) = [s for s in _lower_kernel_text(text, tmp_path).jobplan["execute"] if s["step"] == "for"]
    assert loop["ub"] == ["min", ["arg", "n"], 64]
    assert sx.evaluate(loop["ub"], {"n": 128}) == 64 and sx.evaluate(loop["ub"], {"n": 32}) == 32
