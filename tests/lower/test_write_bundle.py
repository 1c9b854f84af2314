"""`write_bundle(schedule, OUT)` without `kernel_text=`: the device comes from the solved
ScheduleIR and the kernel bytes from the schedule itself (its file, or the KTIR text it
was compiled from; nothing when it was compiled from ScheduleIR)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spyre_sched.api import compile as compile_kernel
from spyre_sched.lower.bundle import write_bundle

ADD = Path(__file__).parents[2] / "examples" / "add_96x64.mlir"


@pytest.fixture(scope="module")
def from_path():
    return compile_kernel(str(ADD), device="spyre", strategy="heuristic")


def _device(out: Path) -> str:
    return json.loads((out / "jobplan.json").read_text())["device"]


def test_from_a_kernel_file_records_its_bytes(from_path, tmp_path):
    out = write_bundle(from_path, tmp_path / "b")
    assert _device(out) == "spyre"
    assert (out / "kernel.mlir").read_bytes() == ADD.read_bytes()


def test_from_ktir_text_records_the_text(tmp_path):
    text = ADD.read_text()
    out = write_bundle(compile_kernel(text, device="spyre", strategy="heuristic"),
                       tmp_path / "b")
    assert _device(out) == "spyre"
    assert (out / "kernel.mlir").read_text() == text


def test_from_scheduleir_writes_no_kernel_file(from_path, tmp_path):
    again = compile_kernel(from_path.schedule_ir, device="spyre", strategy="heuristic")
    out = write_bundle(again, tmp_path / "b")
    assert _device(out) == "spyre"
    assert not (out / "kernel.mlir").exists()
    schedule = json.loads((out / "schedule.json").read_text())
    assert schedule["kernel_file"] is None and schedule["kernel_sha256"] is None
    from emulator.runtime import Runtime

    assert Runtime("spyre").prepare(out).kernel_path is None  # a bundle all the same
    # the same schedule with and without the kernel file: identical programs
    first = write_bundle(from_path, tmp_path / "first")
    assert (out / "local_schedule_0.mlir").read_bytes() == (first / "local_schedule_0.mlir").read_bytes()


def _bundle_whose_program_verify_raises(from_path, error: Exception):
    from spyre_sched.lower.bundle import bundle_from_schedule_ir

    bundle = bundle_from_schedule_ir(from_path.schedule_ir, kernel_text=None)
    module = bundle.programs[0][1]

    def verify():
        raise error

    module.verify = verify
    return bundle


def test_invalid_dataflowir_is_a_verify_error_and_nothing_is_written(from_path, tmp_path):
    from xdsl.utils.exceptions import VerifyException

    from spyre_sched.errors import VerifyError
    from spyre_sched.lower.bundle import write

    bundle = _bundle_whose_program_verify_raises(from_path, VerifyException("bad op"))
    with pytest.raises(VerifyError, match="the lowering built invalid DataflowIR: bad op"):
        write(bundle, tmp_path / "b")
    assert not (tmp_path / "b").exists()


def test_a_bug_while_verifying_is_not_called_invalid_ir(from_path, tmp_path):
    # (a NameError in an op's verifier is the compiler's bug: the CLI reports it as an
    # internal error, with its traceback under SPYRE_SCHED_DEBUG, not as bad DataflowIR)
    from spyre_sched.lower.bundle import write

    bundle = _bundle_whose_program_verify_raises(from_path, NameError("name 'math' is not defined"))
    with pytest.raises(NameError):
        write(bundle, tmp_path / "b")
    assert not (tmp_path / "b").exists()
