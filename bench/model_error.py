"""Cost-model error per program: `python bench/model_error.py [--random N] [--seed-base S] [KERNEL...]`.

For each quick suite kernel (and the held-out ones) compiles the V1 heuristic's schedule,
V1+keep's, the solver's and N random feasible schedules (seeds S..S+N-1), emulates each,
and prints predicted and emulated cycles per program with the error (predicted /
emulated - 1), then a summary per kernel group and strategy (median and worst |error|).
A per-program line shows which program the model gets wrong. Nothing is asserted;
figures are cycles. `--only-worst K` prints only the K largest per-program errors.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spyre_sched.api import compile as compile_kernel  # noqa: E402
from spyre_sched.bench.suite import held_out_kernels, suite_kernels  # noqa: E402
from spyre_sched.emulate import run as run_schedule  # noqa: E402
from spyre_sched.errors import SpyreSchedError  # noqa: E402
from spyre_sched.lower.bundle import write_bundle  # noqa: E402


def measure(path: Path, strategy: str, seed: int, device: str, reference):
    """(whole-kernel predicted, emulated, [(program, predicted, emulated)], reference run)."""
    with tempfile.TemporaryDirectory(prefix="model-error-") as tmp:
        schedule = compile_kernel(str(path), device=device, strategy=strategy, seed=seed)
        bundle = write_bundle(schedule, Path(tmp) / "bundle", kernel_path=str(path))
        result = run_schedule(str(bundle), device=device, seed=0, reference=reference,
                              max_seconds=None)
    assert result.matches, (path.name, strategy, seed, result.mismatches)
    predicted = [(p["name"], p["cycles_per_call"]) for p in schedule.summary["programs"]]
    emulated = list(result.per_program.items())
    rows = []
    # the runtime labels calls by program; a program called k times appears k times
    by_name: dict[str, list[int]] = {}
    for label, cycles in emulated:
        by_name.setdefault(label.split("#")[0].split("[")[0], []).append(cycles)
    for name, per_call in predicted:
        calls = by_name.get(name) or [c for label, c in emulated if name in label]
        rows.append((name, per_call * max(len(calls), 1), sum(calls) if calls else None))
    return result.predicted_cycles, result.cycles, rows, result.reference_run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="*", help="kernel file stems (default: all quick)")
    parser.add_argument("--random", type=int, default=8)
    parser.add_argument("--seed-base", type=int, default=0)
    parser.add_argument("--device", default="spyre")
    parser.add_argument("--no-programs", action="store_true", help="whole kernels only")
    args = parser.parse_args()
    files = [(f, True) for f in suite_kernels(True)] + [(f, False) for f in held_out_kernels(True)]
    if args.kernels:
        files = [(f, c) for f, c in files if f.stem in args.kernels]
    errors: dict[tuple[bool, str], list[float]] = {}
    for path, calibration in files:
        reference = None
        variants = [("heuristic", "heuristic", 0), ("heuristic+keep", "heuristic+keep", 0),
                    ("solver", "solver", 0)]
        variants += [(f"random:{s}", "random", s)
                     for s in range(args.seed_base, args.seed_base + args.random)]
        for label, strategy, seed in variants:
            try:
                predicted, emulated, rows, reference = measure(path, strategy, seed,
                                                               args.device, reference)
            except SpyreSchedError as err:  # one schedule the pipeline refuses: say so, go on
                print(f"{path.stem:16} {label:15} not measured: {str(err).splitlines()[0]}")
                continue
            error = predicted / emulated - 1
            group = label.split(":")[0]
            errors.setdefault((calibration, group), []).append(error)
            print(f"{path.stem:16} {label:15} predicted {predicted:>9} emulated {emulated:>9} "
                  f"error {error:>+7.1%}", flush=True)
            if not args.no_programs and len(rows) > 1:
                for name, p, e in rows:
                    err = "" if not e else f"{p / e - 1:>+7.1%}"
                    print(f"{'':34}{name:20} {p:>9} {e if e is not None else '-':>9} {err}")
    print()
    for calibration in (True, False):
        label = "calibration" if calibration else "held out"
        for group in ("solver", "heuristic", "heuristic+keep", "random"):
            errs = [abs(e) for e in errors.get((calibration, group), [])]
            if errs:
                print(f"{label:12} {group:15} n {len(errs):>3} median {statistics.median(errs):6.1%} "
                      f"worst {max(errs):6.1%}")


if __name__ == "__main__":
    main()
