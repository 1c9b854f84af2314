"""The job pool: results in the items' order, the same with one or several workers."""

from __future__ import annotations

import math

import pytest

from tests.interrupted_process import interrupt

from spyre_sched.parallel import default_jobs, map_jobs


def test_one_job_runs_in_process_in_order():
    assert map_jobs(math.isqrt, [16, 1, 81], jobs=1, progress=False) == [4, 1, 9]


def test_a_pool_returns_the_same_results_in_the_same_order():
    items = list(range(0, 400, 7))
    serial = map_jobs(math.factorial, items, jobs=1, progress=False)
    pooled = map_jobs(math.factorial, items, jobs=2, progress=False)
    assert pooled == serial


def test_an_error_in_a_job_reaches_the_caller():
    with pytest.raises(ValueError):
        map_jobs(math.isqrt, [4, -1, 9], jobs=2, progress=False)


def test_default_is_the_machines_cores_and_empty_input_is_fine():
    assert default_jobs() >= 1
    assert map_jobs(math.isqrt, [], progress=False) == []


# An interrupted pool: a script runs jobs that would take minutes (each in a temporary
# folder), is interrupted once a job has ended, and must stop at once with its workers
# gone and their folders removed. Before, a Ctrl-C left it waiting for the running jobs
# (SIGINT to the parent alone) or for ever (SIGINT to the process group, as a terminal
# sends it), with a traceback from the pool's thread; SIGTERM ended the parent alone and
# left the workers running.
JOBS = """\
import tempfile
import time


def slow(item):
    with tempfile.TemporaryDirectory(prefix="job-"):
        if item == 0:
            return item
        end = time.monotonic() + 300
        while time.monotonic() < end:
            sum(range(1000))
    return item
"""

DRIVER = """\
import signal
import sys

import jobs
from spyre_sched.parallel import map_jobs


def ended(index, result):
    print("ended", index, flush=True)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.default_int_handler)  # (a background shell ignores it)
    try:
        map_jobs(jobs.slow, range(6), jobs=2, progress=False, on_result=ended)
    except KeyboardInterrupt:
        sys.exit(130)
"""

# generous: a stopped pool exits in about a second; a hung one never does
HANG_GUARD_S = 60


@pytest.mark.parametrize("how", ["sigint-parent", "sigint-group", "sigterm-parent"])
def test_an_interrupted_pool_stops_its_workers_and_their_clean_up_runs(tmp_path, how):
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    (tmp_path / "jobs.py").write_text(JOBS)
    (tmp_path / "driver.py").write_text(DRIVER)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    repo = Path(__file__).resolve().parents[2]
    env = dict(os.environ, TMPDIR=str(scratch),
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(repo)]))
    proc = subprocess.Popen([sys.executable, "driver.py"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    assert proc.stdout.readline() == "ended 0\n"
    deadline = time.monotonic() + HANG_GUARD_S
    while len(os.listdir(scratch)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # both workers inside a job
    assert len(os.listdir(scratch)) == 2
    interrupt(proc, signal.SIGTERM if how == "sigterm-parent" else signal.SIGINT,
              whole_group=how == "sigint-group", timeout=HANG_GUARD_S)
    assert os.listdir(scratch) == []  # each job's temporary folder was removed
    # No worker outlives the pool (multiprocessing's resource tracker, also in the
    # group, ends when it sees the parent gone: a moment later).
    deadline = time.monotonic() + HANG_GUARD_S
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("a process of the pool's group outlived it")
