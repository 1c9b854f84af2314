"""`--split-input-file` for every verb that reads a kernel: the file is cut at lines
`// -----` (as MLIR tools do) and each part handled as its own input, its diagnostics
still at the lines of the whole file; the verb's outputs are separated by `// -----`
and the exit status is the worst of the parts'."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

SEPARATOR = "// -----"

#: options that name a file the verb writes: one file cannot hold every part's result
_WRITES_A_FILE = {"output": "-o", "outputs_path": "--save-outputs", "trace_path": "--trace",
                  "solver_trace": "--solver-trace", "solver_log": "--solver-log"}


def split_parts(text: str) -> list[str]:
    """The parts of `text` between separator lines, each preceded by as many blank lines
    as the whole file has before it (so its lines and columns keep their numbers)."""
    lines = text.splitlines(keepends=True)
    parts: list[str] = []
    start = 0
    for number, line in enumerate(lines):
        if line.strip().startswith(SEPARATOR):
            parts.append("\n" * start + "".join(lines[start:number]))
            start = number + 1
    parts.append("\n" * start + "".join(lines[start:]))
    return parts


def split_input_file_option(fn):
    """Adds `--split-input-file` to a verb whose kernel argument is `kernel_file` (or
    `source`), outside its error reporting: each part reports its own errors."""

    @functools.wraps(fn)
    def wrapper(*args, split_input_file: bool = False, **kwargs):
        if not split_input_file:
            return fn(*args, **kwargs)
        from spyre_sched.errors import ParseError, SpyreSchedError
        from spyre_sched.located_parser import read_source, source_standing_in

        key = "kernel_file" if "kernel_file" in kwargs else "source"
        path = Path(kwargs[key])
        writes = [flag for name, flag in _WRITES_A_FILE.items() if kwargs.get(name)]
        if writes:
            raise click.UsageError(f"--split-input-file with {', '.join(writes)}: every part "
                                   "would write the same file; handle the parts one by one")
        if path.is_dir():
            raise click.UsageError(f"--split-input-file splits a kernel file; {path} is a "
                                   "folder")
        try:
            text = read_source(path, "kernel file", ParseError)
        except SpyreSchedError as err:
            click.echo(str(err), err=True)
            sys.exit(1)
        status = 0
        for index, part in enumerate(split_parts(text)):
            if index:
                click.echo(SEPARATOR)
            with source_standing_in(path, part):
                try:
                    fn(*args, **kwargs)
                except SystemExit as done:
                    code = done.code if isinstance(done.code, int) else (done.code is not None)
                    status = max(status, int(code))
        sys.exit(status)

    return click.option(
        "--split-input-file", "split_input_file", is_flag=True,
        help=f"Cut the file at lines '{SEPARATOR}' and handle each part as its own input "
        "(diagnostics keep the whole file's line numbers); the exit status is the worst "
        "part's.")(wrapper)
