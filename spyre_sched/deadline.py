"""A time limit on a block of Python code run in this process (a fuzz command, a sweep
job): `with Deadline(seconds):` raises `DeadlineExceeded` when time runs out.

A signal handler's exception lands in whatever Python code runs at that moment; if that
is a callback whose exceptions are dropped (a garbage-collector hook, an islpy callback),
the exception is lost. So the alarm repeats every `REPEAT` seconds until the block ends,
and a caller checks `fired` afterwards rather than trusting the exception alone.

Signals reach only a process's main thread: elsewhere the block runs without a limit
(the emulator's own time budget is then the only one).
"""

from __future__ import annotations

import signal
import threading


class DeadlineExceeded(BaseException):
    """Raised by the alarm: a BaseException, so no `except Exception` on the way swallows
    it."""


class Deadline:
    REPEAT = 0.5

    def __init__(self, seconds: float | None):
        in_main = threading.current_thread() is threading.main_thread()
        self.seconds = seconds if seconds and in_main else 0
        self.fired = False

    def __enter__(self):
        if self.seconds:
            self.previous = signal.signal(signal.SIGALRM, self._fire)
            signal.setitimer(signal.ITIMER_REAL, self.seconds, self.REPEAT)
        return self

    def _fire(self, signum, frame):
        self.fired = True
        raise DeadlineExceeded()

    def __exit__(self, *exc):
        if self.seconds:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False
