"""IR in, IR out: each `tests/lower/*.ktdf.mlir` is solved ScheduleIR; it is lowered and
its first program's DataflowIR is checked with `filecheck` against the file's CHECK lines."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.parser import Parser
from xdsl.printer import Printer

from spyre_sched.dialects.registry import make_context
from spyre_sched.lower.lowering import lower

CASES = sorted(Path(__file__).parent.glob("*.ktdf.mlir"))


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_lowering_filecheck(case: Path) -> None:
    module = Parser(make_context(), case.read_text(), str(case)).parse_module()
    module.verify()
    _, program = lower(module).programs[0]
    out = io.StringIO()
    Printer(out).print_op(program)
    filecheck = shutil.which("filecheck")
    command = [filecheck] if filecheck else [sys.executable, "-m", "filecheck"]
    done = subprocess.run([*command, str(case)], input=out.getvalue(), capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
