"""One suite kernel, measured: the roofline bound, then the solver's and the heuristic's
schedules each compiled (`spyre_sched.compile`), emulated and checked against the
reference interpreter (`spyre_sched.run`), with their cycles, predictions and wall times.

`measure_kernel` is a module-level function of a picklable `KernelJob` returning plain
JSON-ready data, so `spyre_sched.parallel.map_jobs` can run it in worker processes.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from spyre_sched.errors import SpyreSchedError

STRATEGIES = ("solver", "heuristic", "heuristic+keep")
#: the decision kinds a speedup is split by: each pinned in turn to the V1 baseline's values
SPLIT_KINDS = {"tiles": ("tile",), "buffering": ("modulo",), "instances": ("distribute",),
               "residency": ("keep",), "sharing": ("share",),
               "fifos": ("chunk", "fifo"), "order": ("order",)}
"""label -> the decision kinds pinned together (a FIFO pipeline's chunk and its FIFOs'
depths are one choice: V1's even split with the largest held chunk in it)."""
#: a kernel's measured figures (null when its pipeline run failed; `error` says why)
FIGURES = ("solver_cycles", "heuristic_cycles", "heuristic_keep_cycles", "predicted_cycles",
           "solve_s", "compile_s", "emulate_s", "elements_per_s")


@dataclass(frozen=True)
class KernelJob:
    path: str
    device: str
    seed: int = 0
    objective: str = "latency"
    split: bool = False
    """Also solve with each decision kind pinned to the baseline's values."""
    random: int = 0
    """Also measure this many random feasible schedules (seeds 0..random-1)."""
    calibration: bool = True
    """The cost model was fitted to the emulator on this kernel."""


def pipeline_available() -> None:
    """Raise a clear error now if the compiler or the emulator is missing."""
    _pipeline()


def _pipeline():
    """The compiler and emulator entry points."""
    try:
        from spyre_sched.api import compile as compile_kernel
        from spyre_sched.emulate import run as run_schedule
        from spyre_sched.lower.bundle import write_bundle
    except ImportError as err:
        raise SpyreSchedError(
            f"bench needs the whole pipeline: {err.name} is not available in this build "
            "(spyre_sched.compile, the bundle writer and spyre_sched.run are needed)") from None
    return compile_kernel, run_schedule, write_bundle


def largest_tensor_elements(kernel) -> int:
    """Elements of the kernel's largest tensor argument: the simulated elements counted by
    the emulator speed figure (the 4096x4096 add is 16.8 M elements)."""
    from spyre_sched.frontend.arguments import infer_arguments

    sizes = []
    for arg in infer_arguments(kernel.func):
        dims = arg.upper_bounds or arg.shape
        if dims and all(d is not None for d in dims):
            sizes.append(int(np.prod(dims)))
    return max(sizes, default=0)


def measure_kernel(job: KernelJob) -> dict:
    """Bound, both strategies compiled, emulated and checked: the kernel's raw entry."""
    try:
        return _measure(job)
    except SpyreSchedError as err:
        if err.location is None:  # say which kernel it was about
            err.location = job.path
        raise


def _measure(job: KernelJob) -> dict:
    import emulator.reference as reference
    from spyre_sched.device import load_device
    from spyre_sched.frontend import load_kernel
    from spyre_sched.roofline import roofline

    kernel = load_kernel(job.path)
    device = load_device(job.device)
    started = time.perf_counter()
    bound = roofline(kernel, device)
    bound_s = time.perf_counter() - started
    inputs = reference.make_inputs(kernel, job.seed)
    elements = largest_tensor_elements(kernel)
    entry = {"name": Path(job.path).stem, "file": _display_path(job.path),
             "kernel": kernel.name, "calibration": job.calibration}
    runs = {}
    reference_run = None  # the reference runs once: the other schedules reuse the first's
    variants: list[tuple[str, str, tuple[str, ...], int]] = [
        (s, s, (), 0) for s in STRATEGIES]
    if job.split:
        variants += [(f"pinned:{label}", "solver", kinds, 0)
                     for label, kinds in SPLIT_KINDS.items()]
    variants += [(f"random:{k}", "random", (), k) for k in range(job.random)]
    kinds: set[str] = set()
    for label, strategy, pinned, seed in variants:
        if pinned and not set(pinned) & kinds:
            runs[label] = None  # no decision of that kind: pinning it changes nothing
            continue
        try:
            runs[label], reference_run = measure_strategy(job, strategy, inputs, device,
                                                          reference_run, pinned=pinned,
                                                          compile_seed=seed)
        except SpyreSchedError as err:
            # One kernel the pipeline cannot handle yet must not hide the others' figures.
            return {**entry, **{k: None for k in FIGURES}, "correct": False,
                    "bound_cycles": bound.bound_cycles,
                    "program_bound_cycles": bound.program_bound_cycles, "elements": elements,
                    "bound": {**bound.as_dict(), "seconds": bound_s},
                    "error": f"{label}: {err}"}
        if label == "solver":
            kinds = set(runs[label].pop("decision_kinds"))
        else:
            runs[label].pop("decision_kinds")
    solver = runs["solver"]
    return {
        **entry,
        "solver_cycles": solver["cycles"],
        "heuristic_cycles": runs["heuristic"]["cycles"],
        "heuristic_keep_cycles": runs["heuristic+keep"]["cycles"],
        "bound_cycles": bound.bound_cycles,
        "program_bound_cycles": bound.program_bound_cycles,
        "predicted_cycles": solver["predicted_cycles"],
        "solve_s": solver["solve_s"],
        "compile_s": solver["compile_s"],
        "emulate_s": solver["emulate_s"],
        "elements_per_s": elements / solver["emulate_s"] if solver["emulate_s"] else 0.0,
        "correct": all(r["correct"] for r in runs.values() if r is not None),
        "elements": elements,
        "bound": {**bound.as_dict(), "seconds": bound_s},
        "solver": solver,
        "heuristic": runs["heuristic"],
        "heuristic_keep": runs["heuristic+keep"],
        "pinned": {label: _brief(runs[f"pinned:{label}"])
                   for label in SPLIT_KINDS if f"pinned:{label}" in runs},
        "random": [_brief(runs[f"random:{k}"]) for k in range(job.random)],
        "error": None,
    }


def _brief(run: dict | None) -> dict | None:
    """The figures of an extra schedule (a pinned solve, a random one) the bench keeps."""
    if run is None:
        return None
    return {k: run[k] for k in ("cycles", "predicted_cycles", "correct", "decisions",
                                "solver_status", "solve_s")}


def _display_path(path: str) -> str:
    from spyre_sched.bench.suite import REPO_ROOT

    try:
        return str(Path(path).resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def measure_strategy(job: KernelJob, strategy: str, inputs: dict[str, np.ndarray],
                     device, reference_run=None, *, pinned: tuple[str, ...] = (),
                     compile_seed: int = 0) -> tuple[dict, object]:
    """Compile (schedule, solve, lower, write the bundle), then emulate and check (against
    `reference_run`, an earlier `RunResult.reference_run` on the same inputs, when given):
    the figures, and the reference run to reuse. `pinned` decision kinds stay at the V1
    heuristic's values; `compile_seed` seeds the solver (and the random strategy)."""
    compile_kernel, run_schedule, write_bundle = _pipeline()
    with tempfile.TemporaryDirectory(prefix="spyre-bench-") as tmp:
        started = time.perf_counter()
        schedule = compile_kernel(job.path, device=job.device, objective=job.objective,
                                  strategy=strategy, pinned=pinned, seed=compile_seed)
        bundle = write_bundle(schedule, Path(tmp) / "bundle", kernel_path=job.path)
        compile_s = time.perf_counter() - started
        started = time.perf_counter()
        # A bench measures every schedule to its end, however slow it is to emulate.
        result = run_schedule(str(bundle), inputs, device=job.device, seed=job.seed,
                              reference=reference_run, max_seconds=None)
        run_s = time.perf_counter() - started
    emulate_s = _emulate_seconds(result, run_s)
    trace = getattr(schedule, "summary", None) or {}
    stats = trace.get("solver") or {}
    predicted = schedule.predicted_cycles
    predicted_compute = _predicted_compute(trace, device)
    emulated_compute = _emulated_compute(result, device)
    return {
        "strategy": strategy,
        "timings": _plain(result.timings),
        "cycles": int(result.cycles),
        "predicted_cycles": None if predicted is None else int(predicted),
        "predicted_compute_cycles": predicted_compute,
        "predicted_stall_cycles": (None if predicted is None or predicted_compute is None
                                   else int(predicted) - predicted_compute),
        "emulated_compute_cycles": emulated_compute,
        "emulated_stall_cycles": int(result.cycles) - emulated_compute,
        "per_program": dict(result.per_program),
        "solve_s": float(stats.get("wall_time") or 0.0),
        "solver_status": stats.get("status"),
        "solver_gap": stats.get("gap"),
        "model_variables": stats.get("variables"),
        "model_constraints": stats.get("constraints"),
        "compile_s": compile_s,
        "emulate_s": emulate_s,
        "run_s": run_s,
        "correct": bool(result.matches),
        "verdict": result.verdict,
        "mismatches": [*result.mismatches, *result.unchecked],
        "max_error": {k: float(v) for k, v in sorted(result.max_error.items())},
        "bound_ratio": _plain(dict(sorted(result.bound_ratio.items()))),
        "scratchpad_bytes": schedule.scratchpad_bytes,
        "decisions": _plain(schedule.decisions),
        "decision_kinds": sorted({d.kind for d in schedule.solution.problem.decisions}),
        "stalls": _stall_totals(result),
        **_device_memory_bytes(result, device),
        # The emulator's own split: the unit that finished last, busy vs stalled.
        "emulated_split": _plain(result.split()) if hasattr(result, "split") else None,
    }, result.reference_run


def _emulate_seconds(result, run_s: float) -> float:
    """The emulator's own wall time (prepare, launch, read back), as `run` measures it
    apart from the reference interpreter's (the whole run's time if it is missing)."""
    value = getattr(result, "emulate_s", None)
    return float(value) if value is not None else run_s


def _compute_kinds(device) -> set[str]:
    return {u.kind for u in device.compute_units()}


def _emulated_compute(result, device) -> int:
    """Busy cycles of the busiest compute unit: what the kernel spent computing at least;
    the rest of its cycles the compute engine waited (the stall part)."""
    kinds = _compute_kinds(device)
    busy = [f.busy for name, f in result.units.items()
            if device.units.get(name) is not None and device.units[name].kind in kinds]
    return int(max(busy, default=0))


def _predicted_compute(trace: dict, device) -> int | None:
    """The cost model's compute time: for every pipeline, iterations x the steady time of
    its stages on compute engines (nested pipelines likewise), summed over programs."""
    programs = trace.get("programs")
    if programs is None:
        return None
    kinds = _compute_kinds(device)

    def engine_is_compute(engine: str) -> bool:
        return engine in kinds or engine.rsplit(".", 1)[-1] in kinds

    def pipeline(p: dict) -> int:
        total = 0
        for stage in p["stages"]:
            nested = sum(pipeline(n) for n in stage["nested"])
            own = stage["steady"] if engine_is_compute(stage["engine"]) and not stage["nested"] \
                else 0
            total += p["iterations"] * own + (p["iterations"] * nested)
        return total

    return int(sum(prog.get("calls", 1) * sum(pipeline(p) for p in prog["pipelines"])
                   for prog in programs))


def _device_memory_bytes(result, device) -> dict[str, int]:
    """Bytes the emulated schedule moved out of and into device memory (to compare with
    the bound's compulsory traffic: a schedule that re-reads data shows here)."""
    memory = device.device_memory().name
    moved = {"memory_read_bytes": 0, "memory_write_bytes": 0}
    for path, nbytes in result.datapath_bytes.items():
        source, _, target = path.partition("->")
        if source == memory:
            moved["memory_read_bytes"] += int(nbytes)
        elif target == memory:
            moved["memory_write_bytes"] += int(nbytes)
    return moved


def _stall_totals(result) -> dict[str, int]:
    """Emulated cycles summed over units, by kind of wait (the emulator's own figures)."""
    totals = {"busy": 0, "stalled_input": 0, "stalled_output": 0, "stalled_shared": 0}
    for figures in result.units.values():
        for key in totals:
            totals[key] += int(getattr(figures, key, 0))
    return totals


def _plain(value):
    """JSON-ready copy of plain data (tuples to lists, numpy scalars to Python)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
