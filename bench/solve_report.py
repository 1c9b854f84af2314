"""Solver figures per kernel: `python bench/solve_report.py [--json FILE] [KERNEL.mlir ...]`.

For every example kernel and every benchmark-suite kernel (bench/kernels), on both
shipped devices: the time to extract the decisions from ScheduleIR, to build the CP-SAT
model (each stage's figures over its own scope) and to solve it; the model size
(variables, constraints, rows the cost model was evaluated on); CP-SAT's
status and gap; and the predicted cycles and peak scratchpad of the solver's and the
heuristic's schedules. Scheduling (KTIR -> ScheduleIR) is done once per kernel and not
counted. Solve times are the best of three runs.

Nothing here is asserted: tests never depend on wall-clock time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spyre_sched.api import load_schedule_input  # noqa: E402
from spyre_sched.errors import SpyreSchedError  # noqa: E402
from spyre_sched.solve.extract import extract  # noqa: E402
from spyre_sched.solve.heuristic import heuristic  # noqa: E402
from spyre_sched.solve.model import build  # noqa: E402
from spyre_sched.solve.solver import solve  # noqa: E402

DEVICES = ("spyre", "sample_device")


def measure(path: Path, device: str) -> dict:
    module, _, _ = load_schedule_input(str(path), device)
    t0 = time.perf_counter()
    problem = extract(module).problem
    extract_s = time.perf_counter() - t0
    best_build = best_solve = float("inf")
    solution = None
    for _ in range(3):
        t0 = time.perf_counter()
        built = build(problem)
        best_build = min(best_build, time.perf_counter() - t0)
        solution = solve(problem)
        best_solve = min(best_solve, solution.stats.wall_time)
    stats = solution.stats
    try:
        base = heuristic(problem)
        h_cycles, h_bytes = base.cycles, base.peak_scratchpad
    except SpyreSchedError:
        h_cycles = h_bytes = None
    return {
        "kernel": path.stem, "file": str(path.relative_to(ROOT)), "device": device,
        "decisions": len(problem.decisions), "programs": len(problem.programs),
        "extract_s": extract_s, "build_s": best_build, "solve_s": best_solve,
        "variables": built.num_variables, "constraints": built.num_constraints,
        "evaluations": built.evaluations,
        "status": stats.status, "gap": stats.gap,
        "solver_cycles": solution.cycles, "solver_bytes": solution.peak_scratchpad,
        "heuristic_cycles": h_cycles, "heuristic_bytes": h_bytes,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="*", type=Path)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    kernels = args.kernels or sorted((ROOT / "examples").glob("*.mlir")) + \
        sorted((ROOT / "bench/kernels").glob("*.mlir"))
    rows, failures = [], []
    head = (f"{'kernel':<22} {'device':<13} {'dec':>3} {'vars':>5} {'cons':>5} "
            f"{'evals':>7} {'status':<8} {'gap':>4} {'extract':>8} "
            f"{'build':>8} {'solve':>8} {'solver':>9} {'heur.':>9} {'speedup':>7}")
    print(head)
    for path in kernels:
        for device in DEVICES:
            try:
                r = measure(path.resolve(), device)
            except SpyreSchedError as err:
                failures.append((path.stem, device, str(err).splitlines()[0]))
                continue
            rows.append(r)
            speed = (f"{r['heuristic_cycles'] / r['solver_cycles']:.2f}x"
                     if r["heuristic_cycles"] else "-")
            print(f"{r['kernel']:<22} {device:<13} {r['decisions']:>3} {r['variables']:>5} "
                  f"{r['constraints']:>5} {r['evaluations']:>7} "
                  f"{r['status']:<8} {r['gap']:>4.2g} {r['extract_s'] * 1e3:>6.1f}ms "
                  f"{r['build_s'] * 1e3:>6.1f}ms {r['solve_s'] * 1e3:>6.1f}ms "
                  f"{r['solver_cycles']:>9} {str(r['heuristic_cycles']):>9} {speed:>7}")
    for name, device, why in failures:
        print(f"{name:<22} {device:<13} not scheduled: {why}")
    if rows:
        solve_s = [r["solve_s"] for r in rows]
        total = [r["extract_s"] + r["build_s"] + r["solve_s"] for r in rows]
        print(f"\n{len(rows)} kernel/device pairs; CP-SAT solve median "
              f"{statistics.median(solve_s) * 1e3:.1f} ms, worst {max(solve_s) * 1e3:.1f} ms; "
              f"extract+build+solve median {statistics.median(total) * 1e3:.1f} ms, worst "
              f"{max(total) * 1e3:.1f} ms; all gap 0: {all(r['gap'] == 0 for r in rows)}")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "failures": failures}, indent=2) + "\n")


if __name__ == "__main__":
    main()
