"""Solve time of nested parts, level by level against full enumeration:
`python bench/solve_levels.py [--full] [--device PATH] [KERNEL.mlir ...]`.

For each kernel (default: the examples with nested pipelines and the full-size layernorm,
rmsnorm and softmax of bench/kernels) on the three-level test device: the largest part's
candidate combinations, the CPU seconds of `solve` (building the cost tables and CP-SAT),
the evaluations it made, its status and predicted cycles. `--full` also solves with the
level-by-level enumeration switched off and the guard lifted (the "before" column of
docs/solver.md; minutes per kernel, and layernorm's 27.9 M combinations are not
feasible). CPU time (`time.process_time`), which machine load barely changes.

Nothing here is asserted: tests never depend on time.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spyre_sched.api import load_schedule_input  # noqa: E402
from spyre_sched.solve import levels, model  # noqa: E402
from spyre_sched.solve.extract import extract  # noqa: E402
from spyre_sched.solve.solver import solve  # noqa: E402

THREE = ROOT / "tests" / "schedule" / "devices" / "three_level.mlir"
DEFAULT = ["examples/bias_add.mlir", "examples/fused_gelu.mlir", "examples/rmsnorm.mlir",
           "examples/softmax_rows.mlir", "bench/kernels/layernorm.mlir",
           "bench/kernels/rmsnorm.mlir", "bench/kernels/softmax.mlir"]


def _solve(problem, full: bool):
    saved = levels.ELIMINATE_ABOVE, model.COMBINATION_LIMIT
    if full:
        levels.ELIMINATE_ABOVE, model.COMBINATION_LIMIT = 10**15, 10**15
    try:
        start = time.process_time()
        solution = solve(problem)
        return solution, time.process_time() - start
    finally:
        levels.ELIMINATE_ABOVE, model.COMBINATION_LIMIT = saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="*", default=DEFAULT)
    parser.add_argument("--device", default=str(THREE))
    parser.add_argument("--full", action="store_true")
    args = parser.parse_args()
    print(f"{'kernel':34} {'largest part':>13} {'cpu s':>7} {'evaluated':>10} "
          f"{'status':>8} {'cycles':>8}" + ("  full: cpu s, cycles" if args.full else ""))
    for kernel in args.kernels:
        module, _, _ = load_schedule_input(str(ROOT / kernel), args.device)
        problem = extract(module).problem
        largest = max(math.prod(len(problem.decision(d).candidates)
                                for d in model.program_scope(problem, part))
                      for prog in problem.programs for part in model.components(problem, prog))
        solution, cpu = _solve(problem, False)
        line = (f"{kernel:34} {largest:>13,} {cpu:>7.2f} {solution.stats.combinations:>10,} "
                f"{solution.stats.phases[0].status:>8} {solution.cycles:>8}")
        if args.full:
            full, full_cpu = _solve(problem, True)
            line += f"  {full_cpu:>7.2f} {full.cycles:>8}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
