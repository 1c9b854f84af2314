"""The sweep's summary table: per device point, over the kernels, each strategy's geometric
mean of cycles and of the ratio to the roofline bound, and how many jobs ended well;
then the count of each status, the first failures with their reasons, and how far the
cost model's predicted cycles fell from the emulated ones (most device points are not
the device the model was calibrated on: this is its error out of sample).

A geometric mean is taken over the kernels that ran on that point with that strategy
(`ok` rows); the `ok` column says how many that was, so points are compared only where
the same kernels ran.
"""

from __future__ import annotations

import math
import statistics

from spyre_sched.sweep.job import STATUSES

_SHOWN_FAILURES = 10
_MODEL_MISS = 0.05
"""A job whose predicted cycles are further than this from its emulated ones is counted."""


def geomean(values: list[float]) -> float | None:
    if not values or any(v <= 0 for v in values):
        return None
    return math.exp(sum(math.log(v) for v in values) / len(values))


def table(rows: list[dict], parameters: list[str], strategies: list[str]) -> str:
    points: dict[str, dict] = {}
    for row in rows:
        points.setdefault(row["device"], {"values": [row.get(p) for p in parameters],
                                          "rows": []})["rows"].append(row)
    widths = [max(len(p), 9) for p in parameters]
    head = f"{'device':<7}" + "".join(f" {p:>{w}}" for p, w in zip(parameters, widths))
    for strategy in strategies:
        head += f" {strategy + ' cycles':>17} {'/bound':>6}"
    head += f" {'ok':>7}"
    lines = [head, "-" * len(head)]
    for name in sorted(points):
        point = points[name]
        line = f"{name:<7}" + "".join(f" {v!s:>{w}}" for v, w in zip(point["values"], widths))
        for strategy in strategies:
            done = [r for r in point["rows"] if r["strategy"] == strategy and r["status"] == "ok"]
            cycles = geomean([r["cycles"] for r in done])
            ratio = geomean([r["ratio_to_bound"] for r in done if r["ratio_to_bound"]])
            line += f" {'-' if cycles is None else f'{cycles:.0f}':>17}" \
                    f" {'-' if ratio is None else f'{ratio:.2f}':>6}"
        ok = sum(1 for r in point["rows"] if r["status"] == "ok")
        share = f"{ok}/{len(point['rows'])}"
        line += f" {share:>7}"
        lines.append(line)
    counts = {s: sum(1 for r in rows if r["status"] == s) for s in STATUSES}
    lines.append(f"{len(rows)} jobs: " + ", ".join(f"{n} {s}" for s, n in counts.items() if n))
    failed = [r for r in rows if r["status"] != "ok"]
    for row in failed[:_SHOWN_FAILURES]:
        reason = (row.get("reason") or "").splitlines()[0] if row.get("reason") else ""
        lines.append(f"  {row['key']}: {row['status']}: {reason}")
    if len(failed) > _SHOWN_FAILURES:
        lines.append(f"  ... and {len(failed) - _SHOWN_FAILURES} more (rows.csv)")
    lines.extend(model_error_lines(rows, strategies))
    return "\n".join(lines)


def model_error_lines(rows: list[dict], strategies: list[str]) -> list[str]:
    """Per strategy, the cost model's error over the `ok` jobs that have one, (predicted -
    emulated) / emulated: the median of its size and the worst, with its job; then how
    many jobs miss by more than `_MODEL_MISS`."""
    judged = [r for r in rows if r["status"] == "ok" and r.get("model_error") is not None]
    if not judged:
        return []
    out = ["cost model, predicted against emulated cycles (negative: fewer predicted):"]
    for strategy in strategies:
        mine = [r for r in judged if r["strategy"] == strategy]
        if not mine:
            continue
        median = statistics.median(abs(r["model_error"]) for r in mine)
        worst = max(sorted(mine, key=lambda r: r["key"]), key=lambda r: abs(r["model_error"]))
        out.append(f"  {strategy}: median {median:.1%}, worst {worst['model_error']:+.1%} "
                   f"({worst['key']}) over {len(mine)} jobs")
    missed = sum(1 for r in judged if abs(r["model_error"]) > _MODEL_MISS)
    out.append(f"  {missed} of {len(judged)} jobs off by more than {_MODEL_MISS:.0%}")
    return out
