"""Shared helpers of the dialect tests: parse and verify IR text, print it (custom or
generic form), and run FileCheck on printed text."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from spyre_sched.dialects.registry import make_context


def parse_in(ctx: Context, text: str) -> ModuleOp:
    """`text` parsed with `ctx` and verified."""
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def parse(text: str) -> ModuleOp:
    """`text` parsed with the project's full context and verified."""
    return parse_in(make_context(), text)


def print_ir(op, generic: bool = False) -> str:
    out = io.StringIO()
    Printer(out, print_generic_format=generic).print_op(op)
    return out.getvalue()


def run_filecheck(check_file: Path, text: str) -> subprocess.CompletedProcess:
    """FileCheck `text` against the CHECK lines of `check_file` (the `filecheck` package)."""
    filecheck = shutil.which("filecheck")
    command = [filecheck] if filecheck else [sys.executable, "-m", "filecheck"]
    return subprocess.run([*command, str(check_file)], input=text, capture_output=True,
                          text=True, check=False)


def check_round_trip_and_filecheck(check_file: Path) -> None:
    """`check_file` parses, prints, parses back to the same text, and that text passes the
    file's own CHECK lines."""
    first = print_ir(parse(check_file.read_text()))
    assert print_ir(parse(first)) == first
    done = run_filecheck(check_file, first)
    assert done.returncode == 0, done.stderr + "\n--- printed ---\n" + first
