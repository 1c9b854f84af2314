"""How compile time grows with the number of programs in a kernel.

Compiles the kernels of bench/multi_program.py (a chain of N one-op programs with the
intermediates in device memory, and N independent one-op programs) exactly as
`spyre-sched compile KERNEL -o OUT/` does, for N = 8, 16, 32, 64, 128, 200, and prints
the CPU time of each compile, the time per program, and where the time went:

    parse      reading and verifying the KTIR kernel
    schedule   the scheduler's passes (KTIR -> open ScheduleIR)
    verify     the module verification run after every pass
    extract    reading the decisions out of the ScheduleIR
    model      building the CP-SAT model
    cp-sat     CP-SAT's own search
    writeback  writing the chosen values back into the IR (+ post-solve passes)
    trace      the solver trace (the explanation of every decision)
    print      printing the solved ScheduleIR
    lower      parsing the solved ScheduleIR again and lowering it to DataflowIR
    write      writing the bundle folder
    other      the rest (cost-model figures, summaries, ...)

Each column is the time spent in that step and not in a deeper one (a step nested in
another is counted once, in the innermost). Every compile runs in its own process, so
no cache carries over from one size to the next.

    python bench/compile_scale.py                       # both kinds, all sizes
    python bench/compile_scale.py --kind chain 8 16 32  # chosen sizes
    python bench/compile_scale.py --cprofile chain 64   # cProfile of one compile, by cumtime

Measured figures are in docs/benchmarks.md ("Compile time and the number of programs").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SIZES = (8, 16, 32, 64, 128, 200)
COLUMNS = ("parse", "schedule", "verify", "extract", "model", "cp-sat", "writeback", "trace",
           "print", "lower", "write", "other")


class StepClock:
    """CPU time per named step, each moment counted for the innermost step running."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._stack: list[str] = []
        self._since = time.process_time()

    def _switch(self) -> None:
        now = time.process_time()
        if self._stack:
            top = self._stack[-1]
            self.seconds[top] = self.seconds.get(top, 0.0) + now - self._since
        self._since = now

    def wrap(self, owner, attribute: str, step: str) -> None:
        """Time every call of `owner.attribute` as `step` (left alone if it is gone)."""
        original = getattr(owner, attribute, None)
        if original is None:
            return
        clock = self

        def timed(*args, **kwargs):
            clock._switch()
            clock._stack.append(step)
            clock.calls[step] = clock.calls.get(step, 0) + 1
            try:
                return original(*args, **kwargs)
            finally:
                clock._switch()
                clock._stack.pop()

        setattr(owner, attribute, timed)


def _instrument(clock: StepClock) -> None:
    """Wrap the functions each step is made of (module attributes, looked up at call time
    by their callers; a name that has moved is simply not timed)."""
    from ortools.sat.python import cp_model

    import spyre_sched.api as api
    import spyre_sched.frontend.kernel as frontend_kernel
    import spyre_sched.lower.bundle as bundle
    import spyre_sched.pipeline as pipeline
    import spyre_sched.solve.explain as explain
    import spyre_sched.solve.solve_pass as solve_pass
    import spyre_sched.solve.solver as solver

    clock.wrap(frontend_kernel, "parse_kernel", "parse")
    for step in pipeline.SCHEDULE_STEPS:
        clock.wrap(type(step), "apply", "schedule")
    for step in pipeline.POST_SOLVE_STEPS:
        clock.wrap(type(step), "apply", "writeback")
    clock.wrap(pipeline, "_verify", "verify")
    clock.wrap(solve_pass, "extract", "extract")
    clock.wrap(solver, "build", "model")
    clock.wrap(cp_model.CpSolver, "solve", "cp-sat")
    clock.wrap(solve_pass, "write_back", "writeback")
    clock.wrap(explain, "build_trace", "trace")
    clock.wrap(explain, "decision_report", "trace")
    clock.wrap(api, "print_ir", "print")
    clock.wrap(bundle, "bundle_from_schedule_ir", "lower")
    clock.wrap(bundle, "write", "write")


def compile_once(kernel: Path, out: Path) -> dict:
    """Compile `kernel` as `compile -o out` does: CPU seconds in all and per step."""
    from spyre_sched.cli_bundle import write_output

    clock = StepClock()
    _instrument(clock)
    started = time.process_time()
    wall = time.perf_counter()
    write_output(str(kernel), "spyre", str(out), {})
    total = time.process_time() - started
    wall = time.perf_counter() - wall
    steps = {name: clock.seconds.get(name, 0.0) for name in COLUMNS if name != "other"}
    steps["other"] = max(0.0, total - sum(steps.values()))
    return {"cpu": total, "wall": wall, "steps": steps, "calls": clock.calls}


def _kernel_file(kind: str, n: int, folder: Path) -> Path:
    sys.path.insert(0, str(HERE))
    from multi_program import KINDS

    path = folder / f"{kind}{n}.mlir"
    path.write_text(KINDS[kind](n))
    return path


def measure(kind: str, n: int) -> dict:
    """One compile of the `kind` kernel with `n` programs, in a fresh process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH")
                                     else "")
    done = subprocess.run([sys.executable, __file__, "--one", kind, str(n)], env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{kind} N={n} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _one(kind: str, n: int) -> None:
    with tempfile.TemporaryDirectory(prefix="compile-scale-") as tmp:
        kernel = _kernel_file(kind, n, Path(tmp))
        result = compile_once(kernel, Path(tmp) / "bundle")
    print(json.dumps(result))


def _profile(kind: str, n: int, lines: int, save: str | None) -> None:
    import cProfile
    import pstats

    from spyre_sched.cli_bundle import write_output

    with tempfile.TemporaryDirectory(prefix="compile-scale-") as tmp:
        kernel = _kernel_file(kind, n, Path(tmp))
        profile = cProfile.Profile(time.process_time)  # CPU time: the machine is shared
        profile.enable()
        write_output(str(kernel), "spyre", str(Path(tmp) / "bundle"), {})
        profile.disable()
    if save:
        profile.dump_stats(save)
    pstats.Stats(profile).sort_stats("cumtime").print_stats(lines)


def _row(kind: str, n: int, r: dict) -> str:
    steps = "".join(f"{r['steps'][c]:>9.2f}" for c in COLUMNS)
    return (f"{kind:<12}{n:>5}{r['cpu']:>9.2f}{1000 * r['cpu'] / n:>9.0f}{steps}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, help=f"N values (default {SIZES})")
    parser.add_argument("--kind", choices=("chain", "independent"), action="append",
                        help="which kernel (default both)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    parser.add_argument("--one", nargs=2, metavar=("KIND", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--cprofile", nargs=2, metavar=("KIND", "N"),
                        help="profile one compile with cProfile and print it by cumtime")
    parser.add_argument("--lines", type=int, default=40, help="rows of --cprofile output")
    parser.add_argument("--save", metavar="FILE", help="with --cprofile: also save the stats")
    args = parser.parse_args(argv)
    if args.one:
        _one(args.one[0], int(args.one[1]))
        return 0
    if args.cprofile:
        _profile(args.cprofile[0], int(args.cprofile[1]), args.lines, args.save)
        return 0
    kinds = args.kind or ["chain", "independent"]
    sizes = args.sizes or list(SIZES)
    print("CPU seconds of `compile -o` (one process per compile); ms/prog = CPU per program")
    print(f"{'kernel':<12}{'N':>5}{'cpu s':>9}{'ms/prog':>9}" + "".join(f"{c:>9}" for c in COLUMNS))
    rows = []
    for kind in kinds:
        for n in sizes:
            r = measure(kind, n)
            rows.append({"kind": kind, "n": n, **r})
            print(_row(kind, n, r), flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
