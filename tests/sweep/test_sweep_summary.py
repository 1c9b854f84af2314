"""The sweep's summary table and Pareto front, from rows."""

from __future__ import annotations

from spyre_sched.sweep.plot import pareto_front
from spyre_sched.sweep.summary import table


def test_the_pareto_front_keeps_what_nothing_beats_on_both_axes():
    points = [(4096, 900), (1024, 1000), (2048, 1000), (2048, 800), (8192, 800), (512, 1500)]
    assert pareto_front(points) == [(512, 1500), (1024, 1000), (2048, 800)]


def _row(kernel, device, strategy, status, cycles=None, bound=100, size=1024):
    return {"kernel": kernel, "device": device, "strategy": strategy, "status": status,
            "cycles": cycles, "ratio_to_bound": cycles / bound if cycles else None,
            "lx.size": size, "key": f"{kernel}/{device}/{strategy}/latency",
            "reason": None if status == "ok" else "no schedule fits\nsecond line"}


def test_the_table_takes_geomeans_of_ok_rows_and_lists_failures():
    rows = [_row("a", "d00", "solver", "ok", 100), _row("b", "d00", "solver", "ok", 400),
            _row("a", "d01", "solver", "ok", 200, size=2048),
            _row("b", "d01", "solver", "infeasible", size=2048)]
    text = table(rows, ["lx.size"], ["solver"])
    lines = text.splitlines()
    assert lines[2].split() == ["d00", "1024", "200", "2.00", "2/2"]
    assert lines[3].split() == ["d01", "2048", "200", "2.00", "1/2"]
    assert lines[4] == "4 jobs: 3 ok, 1 infeasible"
    assert lines[5] == "  b/d01/solver/latency: infeasible: no schedule fits"
