"""Running a `spyre-sched` command in this process, as a user would from the shell, under
a time limit: the exit status and the output.

The command line is found the way the `spyre-sched` console script finds it (the entry
point `spyre_sched.cli:main`, resolved when first used), so the fuzzer drives the real
commands without the command line and the fuzzer importing each other.
"""

from __future__ import annotations

import importlib
import signal

#: the console script's entry point (pyproject.toml [project.scripts])
ENTRY_POINT = "spyre_sched.cli:main"
#: the variable that makes the command line show tracebacks (kept unset here)
DEBUG_ENV = "SPYRE_SCHED_DEBUG"
#: exit status reported for a command stopped by the time limit
HANG = -1


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so no `except Exception` swallows it."""


class Deadline:
    """`with Deadline(seconds):` raises `Hang` in this (main) thread when time runs out;
    None or 0: no limit. `fired` tells afterwards whether it ran out.

    A signal handler's exception lands in whatever Python code runs at that moment; if
    that is a callback whose exceptions are dropped (a garbage-collector hook), the Hang
    is lost, so the alarm repeats every `REPEAT` seconds until the block ends, and a caller
    checks `fired` rather than trusting the exception alone."""

    REPEAT = 0.5

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.fired = False

    def __enter__(self):
        if self.seconds:
            self.previous = signal.signal(signal.SIGALRM, self._fire)
            signal.setitimer(signal.ITIMER_REAL, self.seconds, self.REPEAT)
        return self

    def _fire(self, signum, frame):
        self.fired = True
        raise Hang()

    def __exit__(self, *exc):
        if self.seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False


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
    except Hang:
        return HANG, f"no answer within {timeout} s"
    if deadline.fired:  # the Hang was raised where it was dropped, and the command went on
        return HANG, f"no answer within {timeout} s"
    return result.exit_code, result.output or ""
