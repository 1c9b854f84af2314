"""Interrupting a command started in its own process group (`start_new_session=True`), as
a terminal's Ctrl-C or a `kill` would, and reading how it ended."""

from __future__ import annotations

import os
import signal
import subprocess


def interrupt(proc: subprocess.Popen, sig: int, *, whole_group: bool, timeout: float) -> str:
    """Send `sig` to `proc` (or its whole group), wait for it to end (at most `timeout`
    seconds: a hang guard, not a speed figure; a process still running then is killed
    with its group) and return its stderr, after checking that it ended as interrupted
    (exit 130) without a traceback."""
    try:
        if whole_group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        _, err = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Exception in thread" not in err, err
    return err
