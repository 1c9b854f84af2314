"""Running a `spyre-sched` command in this process, as a user would from the shell, under
a time limit: the exit status and the output.

The command line is found the way the `spyre-sched` console script finds it (the entry
point `spyre_sched.cli:main`, resolved when first used), so the fuzzer drives the real
commands without the command line and the fuzzer importing each other.
"""

from __future__ import annotations

import importlib

from spyre_sched.deadline import Deadline, DeadlineExceeded

#: the console script's entry point (pyproject.toml [project.scripts])
ENTRY_POINT = "spyre_sched.cli:main"
#: the variable that makes the command line show tracebacks (kept unset here)
DEBUG_ENV = "SPYRE_SCHED_DEBUG"
#: exit status reported for a command stopped by the time limit
HANG = -1


def _main():
    module, _, name = ENTRY_POINT.partition(":")
    return getattr(importlib.import_module(module), name)


def invoke(args: list[str], timeout: float | None) -> tuple[int, str]:
    """`spyre-sched ARGS`: (exit status, stdout and stderr); `HANG` when it took longer
    than `timeout` seconds."""
    from click.testing import CliRunner

    deadline = Deadline(timeout)
    try:
        with deadline:
            result = CliRunner().invoke(_main(), args, env={DEBUG_ENV: ""})
    except DeadlineExceeded:
        return HANG, f"no answer within {timeout} s"
    if deadline.fired:  # the alarm was raised where it was dropped, and the command went on
        return HANG, f"no answer within {timeout} s"
    return result.exit_code, result.output or ""
