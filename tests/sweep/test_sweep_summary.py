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


def test_the_summary_says_how_far_the_cost_model_fell_from_the_emulator():
    errors = [("a", "d00", "solver", 0.01), ("b", "d00", "solver", -0.155),
              ("a", "d01", "solver", 0.02), ("a", "d00", "heuristic", -0.06),
              ("b", "d00", "heuristic", 0.0)]
    rows = [{**_row(kernel, device, strategy, "ok", 100), "model_error": error}
            for kernel, device, strategy, error in errors]
    rows.append({**_row("b", "d01", "solver", "infeasible"), "model_error": None})
    lines = table(rows, ["lx.size"], ["solver", "heuristic"]).splitlines()
    at = lines.index("cost model, predicted against emulated cycles (negative: fewer predicted):")
    assert lines[at + 1:] == [
        "  solver: median 2.0%, worst -15.5% (b/d00/solver/latency) over 3 jobs",
        "  heuristic: median 3.0%, worst -6.0% (a/d00/heuristic/latency) over 2 jobs",
        "  2 of 5 jobs off by more than 5%",
    ]


def test_rows_without_a_prediction_leave_the_model_lines_out():
    text = table([_row("a", "d00", "solver", "ok", 100)], ["lx.size"], ["solver"])
    assert "cost model" not in text
