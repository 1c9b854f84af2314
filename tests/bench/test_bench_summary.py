"""The bench's derived figures, summary line, table and plot, on hand-made measurements."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from spyre_sched.bench.summary import (
    DERIVED_FIELDS,
    KERNEL_FIELDS,
    SUMMARY_FIELDS,
    derive,
    geomean,
    report,
    summarise,
    table,
)


def _kernel(name, solver, heuristic, bound, predicted, solve_s=0.1, **split):
    return {"name": name, "solver_cycles": solver, "heuristic_cycles": heuristic,
            "heuristic_keep_cycles": heuristic, "bound_cycles": bound,
            "program_bound_cycles": bound, "predicted_cycles": predicted, "solve_s": solve_s,
            "compile_s": 1.0, "emulate_s": 2.0, "elements_per_s": 1e6, "correct": True,
            "calibration": True, "solver": split, "error": None}


def test_derived_figures_of_one_kernel():
    k = derive(_kernel("a", 1200, 2000, 1000, 1260, predicted_compute_cycles=500,
                       predicted_stall_cycles=760, emulated_compute_cycles=400,
                       emulated_stall_cycles=800))
    assert k["ratio_to_bound"] == pytest.approx(1.2)
    assert k["speedup_vs_heuristic"] == pytest.approx(2000 / 1200)
    assert k["gap_closed"] == pytest.approx(800 / 1000)  # (2000-1200) / (2000-1000)
    assert k["model_error"] == pytest.approx(60 / 1200)
    # compute +100/1200, stall -40/1200: they add up to the total error.
    assert k["model_error_compute"] == pytest.approx(100 / 1200)
    assert k["model_error_stall"] == pytest.approx(-40 / 1200)
    assert k["model_error_compute"] + k["model_error_stall"] == pytest.approx(k["model_error"])


def test_gap_closed_is_undefined_when_the_baseline_sits_on_the_bound():
    k = derive(_kernel("a", 1000, 1000, 1000, 1000))
    assert k["gap_closed"] is None and k["speedup_vs_heuristic"] == 1.0
    assert k["model_error_compute"] is None  # no split given


def test_summary_of_a_suite():
    kernels = [derive(_kernel("a", 1100, 2000, 1000, 1100, solve_s=0.05)),   # gap 0.9
               derive(_kernel("b", 1500, 1500, 1000, 1800, solve_s=0.30)),   # gap 0.0
               derive(_kernel("c", 1300, 1600, 1000, 1170, solve_s=0.10))]   # gap 0.5
    s = summarise(kernels)
    assert set(SUMMARY_FIELDS) <= set(s)
    assert s["geomean_speedup_vs_heuristic"] == pytest.approx(
        (2000 / 1100 * 1.0 * 1600 / 1300) ** (1 / 3))
    assert s["median_ratio_to_bound"] == pytest.approx(1.3)
    assert s["worst_ratio_to_bound"] == pytest.approx(1.5)
    assert s["median_model_error"] == pytest.approx(0.1)  # |0|, |0.2|, |-0.1|
    assert s["worst_model_error"] == pytest.approx(0.2)
    assert s["median_solve_s"] == pytest.approx(0.10)
    # One kernel closes nothing: no geometric mean, and the minimum says so.
    assert s["geomean_gap_closed"] is None and s["min_gap_closed"] == 0.0
    assert s["slower_than_heuristic"] == 0 and s["below_bound"] == 0
    assert s["predicted_below_bound"] == 0
    assert s["kernels"] == 3 and s["correct"] == 3


def test_predictions_and_runs_below_the_bound_are_counted():
    s = summarise([derive(_kernel("a", 900, 2000, 1000, 950)),
                   derive(_kernel("b", 1200, 1300, 1000, 1150))])
    assert s["below_bound"] == 1 and s["predicted_below_bound"] == 1


def test_geomean_of_gap_closed_when_every_kernel_closes_some():
    kernels = [derive(_kernel("a", 1100, 2000, 1000, 1100)),   # 0.9
               derive(_kernel("c", 1300, 1600, 1000, 1300))]   # 0.5
    assert summarise(kernels)["geomean_gap_closed"] == pytest.approx(math.sqrt(0.45))


def test_geomean_needs_positive_values():
    assert geomean([2.0, 8.0]) == pytest.approx(4.0)
    assert geomean([]) is None and geomean([1.0, 0.0]) is None


def test_a_failed_kernel_is_listed_but_left_out_of_the_figures():
    failed = {**_kernel("bad", None, None, 500, None), "correct": False,
              "error": "solver: unsupported op"}
    doc = report("spyre", [_kernel("a", 1100, 2000, 1000, 1100), failed], quick=True, jobs=1)
    assert doc["summary"]["kernels"] == 2 and doc["summary"]["failed"] == 1
    assert doc["summary"]["correct"] == 1
    assert doc["summary"]["median_ratio_to_bound"] == pytest.approx(1.1)
    text = table(doc)
    assert "FAILED: solver: unsupported op" in text
    assert text.splitlines()[-1].startswith("summary: ")


def test_report_has_every_field_and_the_table_a_row_per_kernel():
    doc = report("spyre", [_kernel("a", 1100, 2000, 1000, 1100),
                           _kernel("b", 1200, 1300, 1000, 1150)], quick=False, jobs=2)
    assert doc["device"] == "spyre" and doc["jobs"] == 2 and doc["quick"] is False
    for k in doc["kernels"]:
        assert set(KERNEL_FIELDS) | set(DERIVED_FIELDS) <= set(k)
    lines = table(doc).splitlines()
    assert lines[0].split()[:5] == ["kernel", "solver", "V1", "V1+keep", "bound"]
    assert [ln.split()[0] for ln in lines[2:4]] == ["a", "b"]
    assert "geomean speedup over heuristic" in lines[-1]
    assert "2/2 correct" in lines[-1]


def test_plot_is_an_svg_with_a_bar_per_kernel_and_series(tmp_path):
    pytest.importorskip("matplotlib")
    from spyre_sched.bench.plot import write_plot

    failed = {**_kernel("c", None, None, 500, None), "correct": False, "error": "lowering"}
    doc = report("spyre", [_kernel("a", 1100, 2000, 1000, 1100),
                           _kernel("b", 1200, 1300, 1000, 1150), failed], quick=True, jobs=1)
    path = write_plot(doc, tmp_path / "plot.svg")
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    text = path.read_text()
    for word in ("roofline bound", "solver", "heuristic", "c (failed)"):
        assert word in text
    # Deterministic: the same document gives the same bytes.
    again = write_plot(doc, tmp_path / "again.svg")
    assert again.read_bytes() == path.read_bytes()


def test_plot_without_matplotlib_is_a_clear_error(tmp_path, monkeypatch):
    import builtins

    from spyre_sched.bench.plot import write_plot
    from spyre_sched.errors import SpyreSchedError

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(SpyreSchedError, match=r'pip install -e "\.\[plot\]"'):
        write_plot({"kernels": [], "device": "spyre"}, tmp_path / "p.svg")


def test_speedup_split_and_model_error_on_every_schedule_kind():
    k = _kernel("a", 1000, 2000, 900, 1050)
    k.update(heuristic_keep_cycles=1500, program_bound_cycles=950,
             solver={"cycles": 1000, "predicted_cycles": 1050},
             heuristic={"cycles": 2000, "predicted_cycles": 1800},
             heuristic_keep={"cycles": 1500, "predicted_cycles": 1500},
             pinned={"tiles": {"cycles": 1300}, "buffering": {"cycles": 1000},
                     "instances": None, "residency": {"cycles": 1200}},
             random=[{"cycles": 4000, "predicted_cycles": 3000},
                     {"cycles": 2500, "predicted_cycles": 2750}])
    held = _kernel("b", 1000, 1000, 900, 1000)
    held.update(calibration=False, solver={"cycles": 1000, "predicted_cycles": 1000})
    doc = report("spyre", [k, held], quick=True, jobs=1)
    a = doc["kernels"][0]
    assert a["speedup_vs_heuristic_keep"] == pytest.approx(1.5)
    assert a["ratio_to_program_bound"] == pytest.approx(1000 / 950)
    # With tiles pinned to V1's the solver needs 1.3x its cycles; buffering contributes
    # nothing; no instance decision at all (null).
    assert a["split"] == {"tiles": pytest.approx(1.3), "buffering": 1.0, "instances": None,
                          "residency": pytest.approx(1.2)}
    errs = a["model_errors"]
    assert errs["solver"] == [pytest.approx(0.05)] and errs["heuristic"] == [pytest.approx(-0.1)]
    assert errs["random"] == [pytest.approx(-0.25), pytest.approx(0.1)]
    every = doc["summary"]["model_error_all_schedules"]
    # calibration: |0.05|, |-0.1|, 0, |-0.25|, |0.1| -> median 0.1, worst 0.25
    assert every["calibration"] == {"kernels": 1, "schedules": 5, "median": pytest.approx(0.1),
                                    "worst": pytest.approx(0.25)}
    assert every["held_out"]["kernels"] == 1 and every["held_out"]["worst"] == 0
    text = table(doc)
    assert "speedup split" in text and "held-out kernels" in text
    row = next(line for line in text.splitlines() if line.startswith("a ") and "yes" in line
               and "1.30" in line)
    assert "1.00" in row and "-25.0%" not in row  # random errors are given as magnitudes
