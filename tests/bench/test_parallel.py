"""The job pool: results in the items' order, the same with one or several workers."""

from __future__ import annotations

import math

import pytest

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
