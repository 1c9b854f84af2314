"""Shared helpers of the scheduler tests: schedule an example, print, parse back."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from spyre_sched.dialects.registry import make_context
from spyre_sched.frontend import parse_kernel

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
THREE_LEVEL = str(Path(__file__).parent / "devices" / "three_level.mlir")
DEVICES = ["spyre", "sample_device", THREE_LEVEL]
KERNELS = sorted(p.stem for p in EXAMPLES.glob("*.mlir"))


def print_ir(module: ModuleOp) -> str:
    out = io.StringIO()
    Printer(out).print_op(module)
    return out.getvalue()


def parse_ir(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def schedule_text(kernel_text: str, device: str, filename: str = "<kernel>", **kwargs) -> str:
    from spyre_sched.pipeline import schedule

    return print_ir(schedule(parse_kernel(kernel_text, filename), device, **kwargs))


_CACHE: dict[tuple[str, str], str] = {}


def scheduled_example(name: str, device: str) -> str:
    """ScheduleIR of examples/NAME.mlir on `device` (computed once per test session)."""
    key = (name, device)
    if key not in _CACHE:
        path = EXAMPLES / f"{name}.mlir"
        _CACHE[key] = schedule_text(path.read_text(), device, str(path))
    return _CACHE[key]


def run_filecheck(check_file: Path, text: str) -> subprocess.CompletedProcess:
    filecheck = shutil.which("filecheck")
    command = [filecheck] if filecheck else [sys.executable, "-m", "filecheck"]
    return subprocess.run([*command, str(check_file)], input=text, capture_output=True,
                          text=True, check=False)

