"""Per-kernel ratios, the summary line, the table and the JSON document of a bench run.

Every figure is derived here from the raw measurements `measure.measure_kernel` returns,
in one place:

- ratio to bound = solver cycles / bound cycles (>= 1 unless something is wrong);
- speedup vs heuristic = heuristic cycles / solver cycles;
- gap closed = (heuristic - solver) / (heuristic - bound): the share of the baseline's
  distance to the bound the solver removes (undefined when the baseline sits on the bound);
- model error = (predicted - emulated) / emulated for the solver schedule, split into a
  compute and a stall part: (predicted compute - emulated compute) / emulated and
  (predicted stall - emulated stall) / emulated, which add up to the total.

- speedup vs heuristic+keep = heuristic+keep cycles / solver cycles (the V1 baseline that
  also keeps an input resident when it fits);
- ratio to the program bound = solver cycles / the roofline summed over programs;
- split by decision kind: for tiles, buffering, instances, residency, sharing, FIFOs (a FIFO
  pipeline's chunk and depths together) and the order of the tile loops, the solver's
  cycles with that kind pinned to the V1 baseline's values over its free cycles (1.00:
  the kind contributes nothing; null: the kernel has no decision of that kind);
- model error on every schedule measured (solver, heuristic, heuristic+keep, random),
  kept per schedule kind; the summary gives median and worst |error| over all of them,
  for the kernels the cost model was calibrated on and for the others apart.

Summary: geometric means of speedup and gap closed, median and worst ratio to the bound,
median and worst |model error|, median solve time. A geometric mean of gap closed exists
only when every kernel closes a positive share; otherwise it is null and
`min_gap_closed` says which way it went.
"""

from __future__ import annotations

import math
import platform
import statistics
from datetime import datetime, timezone

KERNEL_FIELDS = ("name", "solver_cycles", "heuristic_cycles", "heuristic_keep_cycles",
                 "bound_cycles", "program_bound_cycles", "predicted_cycles", "solve_s",
                 "compile_s", "emulate_s", "elements_per_s", "correct", "calibration")
DERIVED_FIELDS = ("ratio_to_bound", "ratio_to_program_bound", "speedup_vs_heuristic",
                  "speedup_vs_heuristic_keep", "gap_closed", "model_error",
                  "model_error_compute", "model_error_stall", "split", "model_errors")
SUMMARY_FIELDS = ("geomean_speedup_vs_heuristic", "geomean_speedup_vs_heuristic_keep",
                  "geomean_gap_closed", "median_ratio_to_bound", "worst_ratio_to_bound",
                  "median_ratio_to_program_bound", "median_model_error",
                  "worst_model_error", "model_error_all_schedules", "median_solve_s")
SPLIT_LABELS = ("tiles", "buffering", "instances", "residency", "sharing", "fifos",
                "order")


def _ratio(a: float | None, b: float | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def derive(kernel: dict) -> dict:
    """The kernel's entry with the derived ratios added (a new dict); all null for a
    kernel whose run failed."""
    solver, heuristic, bound = (kernel["solver_cycles"], kernel["heuristic_cycles"],
                                kernel["bound_cycles"])
    out = dict(kernel)
    if solver is None or heuristic is None:
        out.update({k: None for k in DERIVED_FIELDS})
        return out
    out["ratio_to_bound"] = _ratio(solver, bound)
    out["ratio_to_program_bound"] = _ratio(solver, kernel.get("program_bound_cycles"))
    out["speedup_vs_heuristic"] = _ratio(heuristic, solver)
    out["speedup_vs_heuristic_keep"] = _ratio(kernel.get("heuristic_keep_cycles"), solver)
    pinned = kernel.get("pinned") or {}
    out["split"] = {label: (_ratio(pinned[label]["cycles"], solver)
                            if pinned.get(label) else None)
                    for label in SPLIT_LABELS if label in pinned}
    out["model_errors"] = model_errors(kernel)
    out["gap_closed"] = (_ratio(heuristic - solver, heuristic - bound)
                         if heuristic > bound else None)
    emulated = solver
    split = kernel.get("solver", {})
    out["model_error"] = _ratio(kernel["predicted_cycles"] - emulated, emulated)
    pc, ps = split.get("predicted_compute_cycles"), split.get("predicted_stall_cycles")
    ec, es = split.get("emulated_compute_cycles"), split.get("emulated_stall_cycles")
    out["model_error_compute"] = (None if pc is None or ec is None
                                  else _ratio(pc - ec, emulated))
    out["model_error_stall"] = (None if ps is None or es is None
                                else _ratio(ps - es, emulated))
    return out


def _error(run: dict | None) -> float | None:
    if not run or run.get("predicted_cycles") is None or not run.get("cycles"):
        return None
    return (run["predicted_cycles"] - run["cycles"]) / run["cycles"]


def model_errors(kernel: dict) -> dict[str, list[float]]:
    """(predicted − emulated) / emulated of every schedule measured, by schedule kind."""
    out = {"solver": [], "heuristic": [], "heuristic+keep": [], "random": []}
    for kind, key in (("solver", "solver"), ("heuristic", "heuristic"),
                      ("heuristic+keep", "heuristic_keep")):
        e = _error(kernel.get(key))
        if e is not None:
            out[kind].append(e)
    out["random"] = [e for e in (_error(r) for r in kernel.get("random") or []) if e is not None]
    return out


def _errors_summary(kernels: list[dict]) -> dict:
    """Median and worst |model error| over every schedule of these kernels."""
    values = [abs(e) for k in kernels for errs in (k.get("model_errors") or {}).values()
              for e in errs]
    return {"kernels": len(kernels), "schedules": len(values),
            "median": _median(values), "worst": max(values, default=None)}


def geomean(values: list[float]) -> float | None:
    if not values or any(v <= 0 for v in values):
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summarise(kernels: list[dict]) -> dict:
    """The summary of derived kernel entries (see the module docstring)."""
    def present(key: str) -> list[float]:
        return [k[key] for k in kernels if k.get(key) is not None]

    measured = [k for k in kernels if k["solver_cycles"] is not None
                and k["heuristic_cycles"] is not None]
    ratios = present("ratio_to_bound")
    errors = [abs(e) for e in present("model_error")]
    gaps = present("gap_closed")
    return {
        "geomean_speedup_vs_heuristic": geomean(present("speedup_vs_heuristic")),
        "geomean_speedup_vs_heuristic_keep": geomean(present("speedup_vs_heuristic_keep")),
        "median_ratio_to_program_bound": _median(present("ratio_to_program_bound")),
        "model_error_all_schedules": {
            "calibration": _errors_summary([k for k in kernels if k.get("calibration", True)]),
            "held_out": _errors_summary([k for k in kernels if not k.get("calibration", True)]),
        },
        "geomean_gap_closed": geomean(gaps),
        "min_gap_closed": min(gaps, default=None),
        "median_ratio_to_bound": _median(ratios),
        "worst_ratio_to_bound": max(ratios, default=None),
        "median_model_error": _median(errors),
        "worst_model_error": max(errors, default=None),
        "median_solve_s": _median(present("solve_s")),
        "kernels": len(kernels),
        "correct": sum(1 for k in kernels if k.get("correct")),
        "failed": sum(1 for k in kernels if k.get("error")),
        "slower_than_heuristic": sum(1 for k in measured
                                     if k["solver_cycles"] > k["heuristic_cycles"]),
        "below_bound": sum(1 for k in measured if k["solver_cycles"] < k["bound_cycles"]
                           or k["heuristic_cycles"] < k["bound_cycles"]),
        "below_program_bound": sum(
            1 for k in measured if k.get("program_bound_cycles") is not None
            and min(c for c in (k["solver_cycles"], k["heuristic_cycles"],
                                k.get("heuristic_keep_cycles")) if c is not None)
            < k["program_bound_cycles"]),
        # A prediction below the bound is a cost-model bug (a resource it lets go faster
        # than the device can), even when the emulator disagrees with it.
        "predicted_below_bound": sum(1 for k in measured if k["predicted_cycles"] is not None
                                     and k["predicted_cycles"] < k["bound_cycles"]),
    }


def report(device: str, kernels: list[dict], *, quick: bool, jobs: int) -> dict:
    """The JSON document of a bench run."""
    derived = [derive(k) for k in kernels]
    return {
        "device": device,
        "quick": quick,
        "jobs": jobs,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.machine()}, {platform.python_implementation()} "
                   f"{platform.python_version()}, {platform.system()}",
        "kernels": derived,
        "summary": summarise(derived),
    }


def _fmt(value, spec: str, none: str = "-") -> str:
    return none if value is None else format(value, spec)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:+.1f}%"


def table(doc: dict) -> str:
    """The per-kernel tables (cycles; speedup split and model error) and the summary, as
    text."""
    head = (f"{'kernel':<12} {'solver':>9} {'V1':>9} {'V1+keep':>9} {'bound':>9} "
            f"{'by prog':>9} {'s/bound':>7} {'vs V1':>6} {'vs +keep':>8} {'gap':>5} "
            f"{'predicted':>9} {'model err (compute/stall)':>26} "
            f"{'solve':>8} {'compile':>8} {'emulate':>8} {'Melem/s':>7} ok")
    lines = [head, "-" * len(head)]
    for k in doc["kernels"]:
        if k["solver_cycles"] is None or k["heuristic_cycles"] is None:
            lines.append(f"{k['name']:<12} {'-':>9} {'-':>9} {'-':>9} {k['bound_cycles']:>9}  "
                         f"FAILED: {k.get('error')}")
            continue
        split = f"{_pct(k['model_error'])} ({_pct(k['model_error_compute'])}/" \
                f"{_pct(k['model_error_stall'])})"
        lines.append(
            f"{k['name']:<12} {k['solver_cycles']:>9} {k['heuristic_cycles']:>9} "
            f"{_fmt(k.get('heuristic_keep_cycles'), 'd'):>9} "
            f"{k['bound_cycles']:>9} {_fmt(k.get('program_bound_cycles'), 'd'):>9} "
            f"{_fmt(k['ratio_to_bound'], '.2f'):>7} "
            f"{_fmt(k['speedup_vs_heuristic'], '.2f'):>6} "
            f"{_fmt(k.get('speedup_vs_heuristic_keep'), '.2f'):>8} "
            f"{_fmt(k['gap_closed'], '.0%'):>5} {_fmt(k['predicted_cycles'], 'd'):>9} {split:>26} "
            f"{k['solve_s'] * 1000:>6.0f}ms {k['compile_s']:>7.2f}s {k['emulate_s']:>7.2f}s "
            f"{k['elements_per_s'] / 1e6:>7.3g} {'yes' if k['correct'] else 'NO'}")
    lines += _second_table(doc)
    lines.append(summary_line(doc["summary"]))
    return "\n".join(lines)


def _second_table(doc: dict) -> list[str]:
    """Per kernel: the solver's cycles with each decision kind pinned to V1's, over its
    free cycles; the model error on each kind of schedule."""
    rows = [k for k in doc["kernels"] if k.get("solver_cycles") is not None
            and k.get("model_errors") is not None]
    if not rows:
        return []
    head = (f"{'kernel':<12} {'calib.':>6} " + " ".join(f"{label:>9}" for label in SPLIT_LABELS)
            + f" {'err solver':>10} {'err V1':>7} {'err +keep':>9} {'err random (n, median, worst)':>31}")
    out = ["", "speedup split (solver cycles with one kind pinned to V1's / solver cycles) "
           "and model error per schedule kind:", head, "-" * len(head)]
    for k in rows:
        split = k.get("split") or {}
        errs = k["model_errors"]
        rnd = [abs(e) for e in errs.get("random", [])]
        rnd_text = (f"{len(rnd)}, {_fmt(_median(rnd), '.1%')}, {_fmt(max(rnd, default=None), '.1%')}"
                    if rnd else "-")

        def one(values):
            return _pct(values[0]) if values else "-"
        out.append(f"{k['name']:<12} {'yes' if k.get('calibration', True) else 'no':>6} "
                   + " ".join(f"{_fmt(split.get(label), '.2f'):>9}" for label in SPLIT_LABELS)
                   + f" {one(errs.get('solver')):>10} {one(errs.get('heuristic')):>7} "
                   f"{one(errs.get('heuristic+keep')):>9} {rnd_text:>31}")
    return out


def summary_line(s: dict) -> str:
    def x(v):
        return _fmt(v, ".2f") + "x" if v is not None else "-"

    gap = (_fmt(s["geomean_gap_closed"], ".0%") if s["geomean_gap_closed"] is not None
           else f"undefined (min {_fmt(s['min_gap_closed'], '.0%')})")
    every = s.get("model_error_all_schedules") or {}
    parts = []
    for key, label in (("calibration", "calibration kernels"), ("held_out", "held-out kernels")):
        e = every.get(key)
        if e and e["schedules"]:
            parts.append(f"{label} {_fmt(e['median'], '.1%')} median, {_fmt(e['worst'], '.1%')} "
                         f"worst over {e['schedules']} schedules")
    return (f"summary: geomean speedup over heuristic {x(s['geomean_speedup_vs_heuristic'])}, "
            f"over heuristic+keep {x(s.get('geomean_speedup_vs_heuristic_keep'))}, "
            f"gap closed {gap}; ratio to bound median {x(s['median_ratio_to_bound'])} "
            f"worst {x(s['worst_ratio_to_bound'])}, to the program bound median "
            f"{x(s.get('median_ratio_to_program_bound'))}; cost-model error (solver) median "
            f"{_fmt(s['median_model_error'], '.1%')} worst {_fmt(s['worst_model_error'], '.1%')}"
            + (f"; every schedule: {'; '.join(parts)}" if parts else "")
            + f"; median solve {_fmt(s['median_solve_s'] and s['median_solve_s'] * 1000, '.0f')} ms; "
            f"{s['correct']}/{s['kernels']} correct")
