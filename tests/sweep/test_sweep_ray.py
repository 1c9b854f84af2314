"""The Ray backend gives the local pool's rows for the same sweep (a local Ray started for
the run). Ray is an optional extra: without it this test is skipped, saying so."""

from __future__ import annotations

import importlib.util

import pytest

from spyre_sched.sweep.job import TIMING_FIELDS
from spyre_sched.sweep.run import run_sweep

# Starting a local Ray takes about a minute on two cores: opt-in (pytest -m slow).
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                                 reason="Ray is not installed (optional extra: "
                                 "pip install -e \".[ray]\")")]

SWEEP = """\
[kernels]
suite = "quick"
only = ["add"]

[parameters]
"lx.size" = [512, "2KiB"]

[run]
strategies = ["heuristic"]
"""


def _same(rows):
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in rows]


def test_ray_rows_are_the_local_rows(tmp_path):
    sweep = tmp_path / "s.toml"
    sweep.write_text(SWEEP)
    local = run_sweep(str(sweep), str(tmp_path / "local"), jobs=2, progress=False)
    ray = run_sweep(str(sweep), str(tmp_path / "ray"), backend="ray", jobs=2, progress=False)
    assert [r["status"] for r in ray.rows] == ["infeasible", "ok"]
    assert _same(ray.rows) == _same(local.rows)
    assert (tmp_path / "ray" / "rows.csv").read_text().splitlines()[0] == \
        (tmp_path / "local" / "rows.csv").read_text().splitlines()[0]
