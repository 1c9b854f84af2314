"""`spyre_sched.run`: compile (or take a bundle), emulate, and check against the reference.

    result = spyre_sched.run("examples/add_96x64.mlir")          # compile + emulate + compare
    result = spyre_sched.run("out/")                             # a bundle folder as it is
    result.outputs, result.cycles, result.predicted_cycles, result.units, result.max_error
    result.bound_ratio, result.timings        # error / allowed bound; seconds per stage
    spyre_sched.run("out2/", reference=result.reference_run)   # same inputs, reference reused

The emulator runs the bundle's DataflowIR (never the KTIR); the reference interpreter runs
the KTIR the bundle records (`kernel.mlir`, checked against its hash) on the same inputs.
Results must be bit-identical, except the elements a float sum reaches: the schedule may
sum in another order, chunk by chunk in the accumulator type, so those are compared
within the bound the reference computes for each element (the reordered sum's bound
carried through the ops after it: docs/numerics.md, `emulator.numerics.error_bounds`).
A NaN or infinity of the reference is compared exactly; an element whose bound is
infinite is counted as not checked. The outputs are the pointer arguments the kernel
writes and the ranges of memory it stores to through constant addresses. The verdict
(`result.verdict`) is MATCH only when every element was checked, at least one was, and
none failed; else MISMATCH or UNCHECKED (docs/emulator.md).
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from spyre_sched.errors import ExecutionError, ParseError, SpyreSchedError, UnsupportedError

@dataclass
class ReferenceRun:
    """The reference interpreter's outputs on some inputs, with per output the bound of how
    far an executor that sums float reductions in another order, in `accumulator`, may lie
    from each element (docs/numerics.md; 0: bit for bit)."""

    outputs: dict[str, np.ndarray]
    bounds: dict[str, np.ndarray]
    accumulator: str
    wall_s: float = 0.0
    cpu_s: float = 0.0
    summation_depth: int | None = None
    """The most accumulator roundings the bundle takes any term of a sum through, as the
    bounds assumed it (None: any order)."""


@dataclass
class ReferenceRuns:
    """Reference runs of one kernel on the same inputs and the same device definitions
    (pre-mapping patterns and scratchpad size), by accumulator and summation depth, for a
    caller that checks many bundles of that kernel: `run(..., reference=runs)` uses the
    run made for exactly this bundle's accumulator and depth (so its bounds, and the
    verdict, are those a fresh run gives) and adds the one it makes (its arrays made
    read-only: every later check shares them). That the kernel, inputs and device
    definitions are the same is the caller's to ensure."""

    runs: dict[tuple[str, int | None], ReferenceRun] = field(default_factory=dict)


class _Stopwatch:
    """Wall and CPU seconds of a `with` block, added to `timings[name]`."""

    def __init__(self, timings: dict, name: str):
        self.timings, self.name = timings, name

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def __exit__(self, *exc):
        entry = self.timings.setdefault(self.name, {"wall_s": 0.0, "cpu_s": 0.0})
        entry["wall_s"] += time.perf_counter() - self.wall
        entry["cpu_s"] += time.process_time() - self.cpu


@dataclass
class UnitFigures:
    busy: int
    stalled_input: int
    stalled_output: int
    stalled_shared: int
    utilisation: float
    finished_at: int = 0


@dataclass
class RunResult:
    outputs: dict[str, np.ndarray]
    reference: dict[str, np.ndarray]
    cycles: int
    predicted_cycles: int | None
    units: dict[str, UnitFigures]
    max_error: dict[str, float]
    """Largest |emulated - reference| per output (0.0: bit-identical)."""
    matches: bool
    """True only for the verdict MATCH: every output element that could be compared was
    compared, at least one was, and none differs beyond its rule."""
    mismatches: list[str]
    decisions: dict
    datapath_bytes: dict[str, int]
    bandwidth: dict[str, float]
    per_program: dict[str, int]
    tolerance: dict[str, str] = field(default_factory=dict)
    verdict: str = "MATCH"
    """MATCH; MISMATCH (an element differs beyond its rule: `mismatches`); UNCHECKED (none
    differs, but an element had no finite bound or no element was compared at all:
    `unchecked` says which). Only MATCH is a pass (`run` exits 0)."""
    unchecked: list[str] = field(default_factory=list)
    checks: dict[str, OutputCheck] = field(default_factory=dict)
    """Per output (an argument, or a `global@0x...` address range the kernel stores to):
    how many elements were compared bit for bit, within a finite bound, not at all."""
    trace_path: str | None = None
    bundle: str | None = None
    kernel: str = ""
    device: str = ""
    bound_ratio: dict[str, float | None] = field(default_factory=dict)
    """Per output: the largest |emulated - reference| / allowed bound over its toleranced
    elements (those a reordered sum reaches); None when every element is bit-exact."""
    timings: dict[str, dict] = field(default_factory=dict)
    """Per stage ("compile", "emulate", "reference"; "launch" is the part of "emulate"
    after the bundle is prepared): {"wall_s", "cpu_s"} (and "reused":
    true when the caller's reference run was used); compile is absent for a bundle."""
    compiled_prediction: int | None = None
    """The compile-time figure (schedule.json `predicted_cycles`): `predicted_cycles` is the
    prediction evaluated for this launch's arguments when the bundle records per-call
    cycles; the two differ only where a call depends on the launch."""
    prediction_assumes: list[str] = field(default_factory=list)
    """What the compile-time figure (and the solver's objective) assumed about calls only
    a launch decides (a run-time loop counted once, a launch-time branch counted as made)."""
    reference_run: ReferenceRun | None = field(default=None, repr=False)
    """The reference outputs with their bounds: pass it as `run(..., reference=)` to check
    another schedule of the same kernel on the same inputs without running it again."""

    @property
    def compile_s(self) -> float | None:
        return self.timings.get("compile", {}).get("wall_s")

    @property
    def emulate_s(self) -> float | None:
        """Wall seconds of the emulation (prepare, place the inputs, launch, read back)."""
        return self.timings.get("emulate", {}).get("wall_s")

    @property
    def reference_s(self) -> float | None:
        return self.timings.get("reference", {}).get("wall_s")

    def critical_unit(self) -> tuple[str, UnitFigures] | None:
        """The unit that finished last: its busy and stall time split the emulated cycles."""
        if not self.units:
            return None
        name = max(self.units, key=lambda k: (self.units[k].finished_at, k))
        return name, self.units[name]

    def split(self) -> dict:
        """Emulated cycles split into the last unit's busy time and its stall terms."""
        found = self.critical_unit()
        if found is None:
            return {}
        name, u = found
        idle = max(self.cycles - u.busy - u.stalled_input - u.stalled_output - u.stalled_shared, 0)
        return {"unit": name, "busy": u.busy, "stalled_input": u.stalled_input,
                "stalled_output": u.stalled_output, "stalled_shared": u.stalled_shared,
                "idle": idle}

    def as_dict(self) -> dict:
        busy = sum(u.busy for u in self.units.values())
        return {
            "kernel": self.kernel,
            "device": self.device,
            "bundle": self.bundle,
            "matches": self.matches,
            "verdict": self.verdict,
            "mismatches": self.mismatches,
            "unchecked": self.unchecked,
            "elements": {k: c.counts() for k, c in self.checks.items()},
            "decisions": self.decisions,
            "predicted_cycles": self.predicted_cycles,
            "compiled_prediction": self.compiled_prediction,
            "prediction_assumes": self.prediction_assumes,
            "cycles": self.cycles,
            "emulated_split": self.split(),
            "per_program": self.per_program,
            "max_error": self.max_error,
            "bound_ratio": self.bound_ratio,
            "tolerance": self.tolerance,
            "timings": self.timings,
            "units": {k: vars(v) for k, v in self.units.items()},
            "unit_busy_total": busy,
            "datapath_bytes": self.datapath_bytes,
            "bandwidth_bytes_per_cycle": {k: round(v, 3) for k, v in self.bandwidth.items()},
            "trace": self.trace_path,
        }


def _same_kernel(prepared, kernel) -> None:
    """The bundle runs the kernel the reference runs: its name and grid as the job plan
    states them (the grid decides the per-core conditions), else it is refused."""
    where = str(prepared.path / "jobplan.json")
    if prepared.kernel != kernel.name:
        raise ParseError(f"kernel: \"{prepared.kernel}\", but the kernel it is compared with is "
                         f"@{kernel.name}", where)
    if list(prepared.grid) != list(kernel.grid):
        raise ParseError(f"grid: {list(prepared.grid)}, but the kernel @{kernel.name} has grid "
                         f"{list(kernel.grid)}", where)


def _same_output_shapes(prepared, want: dict[str, np.ndarray], runtime_args: dict,
                        callers: set[str]) -> None:
    """Each output's shape as the job plan states it (what a runtime reads back) is the
    reference's, else the bundle is refused rather than compared at another shape. An
    array the caller passed may be longer than the memory the kernel reaches (the argument
    memory rule checks it); the emulation then writes into an array of the caller's shape."""
    from emulator.runtime import argument_shape

    for i, arg in enumerate(prepared.arguments):
        name = arg["name"]
        if arg.get("kind") != "pointer" or arg.get("role") not in ("out", "inout") \
                or name not in want or name in callers:
            continue
        shape = argument_shape(arg, runtime_args)
        if shape is not None and tuple(shape) != tuple(want[name].shape):
            raise ParseError(f"arguments[{i}].shape: %{name} is {list(shape)}, but the kernel's "
                             f"%{name} is {list(want[name].shape)}",
                             str(prepared.path / "jobplan.json"))


def _only_poison(values: np.ndarray) -> bool:
    """Every byte of the array is the poison byte unwritten memory holds (an array whose
    values keep their storage bytes: f16, f32, integers)."""
    from emulator.numerics.poison import POISON_BYTE

    raw = np.ascontiguousarray(values).view(np.uint8)
    return raw.size > 0 and bool((raw == POISON_BYTE).all())


def _allocate_argument(runtime, name: str, shape, element: str) -> int:
    """Device memory for argument `name`, or an error naming it when it does not fit."""
    try:
        return runtime.allocate(shape, element)
    except ExecutionError as err:
        count = int(np.prod([int(d) for d in shape]))
        raise ExecutionError(f"argument '{name}': its memory ({count} elements of {element}) "
                             f"does not fit the emulated device: {err.message}") from None


def compile_bundle(kernel_path: str | Path, out: Path, device: str, objective: str,
                   strategy: str, allow_races: bool = False, func: str | None = None,
                   arguments: dict | None = None) -> None:
    """Compile a kernel into a bundle folder through the compiler's public functions."""
    try:
        from spyre_sched import api
        from spyre_sched.lower import bundle as bundle_writer
    except ImportError as err:
        raise UnsupportedError(
            f"compiling a kernel needs the scheduler, solver and lowering ({err.name} is not "
            "available in this build): give `run` a bundle folder instead") from None
    schedule = api.compile(str(kernel_path), device=device, objective=objective,
                           strategy=strategy, allow_races=allow_races, func=func,
                           arguments=arguments)
    from spyre_sched.located_parser import source_bytes

    # The kernel's exact bytes go into the bundle (kernel.mlir, hashed in schedule.json).
    bundle_writer.write_bundle(schedule, out, kernel_text=source_bytes(kernel_path))


def _accumulator(prepared) -> str:
    """The accumulator type of the bundle's sums with the largest unit roundoff (f32 when
    the bundle has none): what the reordered-sum bounds are computed for."""
    from emulator.numerics.error_bounds import UNIT_ROUNDOFF

    worst = "f32"
    for program in prepared.programs.values():
        for name in program.image.accumulators():
            if UNIT_ROUNDOFF.get(name, 0) > UNIT_ROUNDOFF.get(worst, 0):
                worst = name
    return worst


def _summation_depth(prepared) -> int | None:
    """The most accumulator roundings any term of one of the bundle's float sums goes
    through (docs/numerics.md, "The depth a bundle states"): the largest of its programs'
    (a sum is computed within one program; the terms it reads from another carry their
    own bounds). None, allowing any order, when a program's cannot be bounded."""
    depths = [program.image.summation_depth() for program in prepared.programs.values()]
    if not depths or any(d is None for d in depths):
        return None
    return max(depths)


@dataclass
class OutputCheck:
    """How one output compared with the reference (docs/numerics.md, "Rule 3"): every
    element is compared bit for bit (`exact`), within a finite bound (`bounded`) or not
    at all (`unchecked`: its bound is infinite); `failed` of them broke their rule."""

    elements: int
    exact: int
    bounded: int
    unchecked: int
    failed: int
    max_error: float
    """Largest |emulated - reference| over all the elements (0.0: bit-identical)."""
    bound_ratio: float | None
    """Largest |emulated - reference| / bound over the `bounded` elements (None: none)."""
    tolerance: str
    problem: str | None = None

    def counts(self) -> dict[str, int]:
        return {"elements": self.elements, "exact": self.exact, "bounded": self.bounded,
                "unchecked": self.unchecked, "failed": self.failed}


def display_name(name: str) -> str:
    """An argument as `%name`; a stored address range (`global@0x...`) as it is."""
    return name if "@" in name else f"%{name}"


def compare(name: str, got: np.ndarray, want: np.ndarray, bound: np.ndarray | None,
            accumulator: str = "f32", summation_depth: int | None = None) -> OutputCheck:
    """One output against the reference. `bound`: the reference's per-element bounds (None
    or 0: bit for bit), from `reference.run_with_error_bounds`; the rule is
    `numerics.compare_with_bound`, its classes `numerics.comparison_classes`."""
    from emulator.numerics import compare_with_bound, comparison_classes

    label = display_name(name)
    if got.shape != want.shape:
        return OutputCheck(want.size, 0, 0, 0, want.size, float("inf"), None, "shape",
                           f"{label}: shape {list(got.shape)} but the reference has "
                           f"{list(want.shape)}")
    if bound is not None and not np.any(bound):
        bound = None
    passes, diff, ratio = compare_with_bound(got, want, bound)
    exact, bounded, unchecked = comparison_classes(want, bound)
    counts = [int(np.count_nonzero(m)) for m in (exact, bounded, unchecked)]
    worst = float(diff.max()) if diff.size else 0.0
    relative = float(ratio[bounded].max()) if counts[1] else None
    depth = ("" if summation_depth is None
             else f", at most {summation_depth} roundings per term")
    tolerance = (f"reordered sums, {accumulator} accumulator{depth}" if counts[1]
                 else "bit-exact")
    bad = ~passes
    failed = int(np.count_nonzero(bad))
    check = OutputCheck(int(want.size), *counts, failed, worst, relative, tolerance)
    if failed:
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        if exact[first]:
            rule = "bit-exact required"
        elif bounded[first]:
            rule = f"allowed {float(np.broadcast_to(bound, want.shape)[first]):.3g}"
        else:
            rule = "not checked, but a NaN the reference does not have"
        check.problem = (
            f"{label}: {failed} of {got.size} elements differ beyond the comparison rule; "
            f"first at {list(first)}: emulated {got[first]!r}, reference {want[first]!r} "
            f"({rule})")
    return check


def check_line(name: str, check: OutputCheck) -> str:
    """The report's line for one output: the largest error, then how every element was
    compared (a way no element was compared by is said as 0), then how many failed."""
    error = f"max error {check.max_error:g}"
    if check.bound_ratio is not None:
        error += f", {check.bound_ratio:.2f} of the allowed bound"
    bounded = f"{check.bounded} within a finite bound"
    if check.bounded:
        bounded += f" ({check.tolerance})"
    line = (f"output {display_name(name)}: {error}; {check.elements} elements: "
            f"{check.exact} compared bit for bit, {bounded}, {check.unchecked} not checked "
            "(no finite bound)")
    return line + (f"; {check.failed} fail" if check.failed else "")


def run(schedule_or_kernel, inputs: dict[str, np.ndarray] | None = None, *,
        device: str | None = None, objective: str = "latency", strategy: str = "solver",
        runtime_args: dict[str, int] | None = None, seed: int = 0,
        trace: str | os.PathLike | None = None,
        reference: ReferenceRun | ReferenceRuns | None = None,
        memory_cap: int | None = None, max_cycles: int | None = None,
        max_seconds: float | None | str = "default", allow_races: bool = False,
        func: str | None = None) -> RunResult:
    """Emulate a bundle folder (or compile a kernel into one first) and compare its outputs
    with the reference interpreter's on the same inputs (missing inputs: seeded random).

    `reference`: the `ReferenceRun` of an earlier result (`result.reference_run`) of the
    same kernel on the same inputs, used instead of running the reference again (it is
    run again only if this bundle accumulates in another type); or a `ReferenceRuns`, whose
    run for exactly this bundle's accumulator and summation depth is used (and to which
    a run made here is added). `result.timings` gives the wall and CPU seconds of
    compile, emulation and reference.

    Limits (each refused or stopped with an ExecutionError that says how to raise it):
    `memory_cap`, the host bytes the emulated memories and the reference's simulated
    memory may take (default 4 GiB each); `max_cycles`, the device cycles of the launch
    (default 2**40); `max_seconds`, the wall-clock seconds of the emulated launch (default
    60; None: no limit). A kernel with a proven race between tiles is not compiled
    unless `allow_races` (`api.compile`). `func`: the kernel function, for a file that
    defines several (a bundle names its own)."""
    import emulator.reference as reference_interpreter
    from emulator.reference.run import WindowedInput
    from emulator.device.memory import DEFAULT_MEMORY_CAP
    from emulator.runtime import (DEFAULT_MAX_CYCLES, DEFAULT_MAX_SECONDS, Runtime, argument_shape,
                                  bundle_device, with_folded_arguments)
    from emulator.trace import TraceRecorder
    from spyre_sched.frontend import load_kernel

    if reference is not None and not isinstance(reference, (ReferenceRun, ReferenceRuns)):
        raise ExecutionError("run: reference= takes the ReferenceRun of an earlier result "
                             "(result.reference_run): outputs with their error bounds, or "
                             "a ReferenceRuns")
    memory_cap = DEFAULT_MEMORY_CAP if memory_cap is None else memory_cap
    max_cycles = DEFAULT_MAX_CYCLES if max_cycles is None else max_cycles
    max_seconds = DEFAULT_MAX_SECONDS if max_seconds == "default" else max_seconds
    source = schedule_or_kernel
    timings: dict[str, dict] = {}
    kernel_file = None
    with tempfile.TemporaryDirectory(prefix="spyre-run-") as tmp:
        if isinstance(source, (str, Path)) and Path(source).is_dir():
            bundle = Path(source)
        elif isinstance(getattr(source, "schedule_ir", None), str):  # a compiled Schedule
            from spyre_sched.lower.bundle import write_bundle

            bundle = Path(tmp) / "bundle"
            text = getattr(source, "kernel_text", None)
            path = getattr(source, "kernel_path", None)
            kernel_bytes = (Path(path).read_bytes() if path and Path(path).is_file()
                            else text.encode() if isinstance(text, str) else None)
            with _Stopwatch(timings, "compile"):  # the lowering into a bundle
                write_bundle(source, bundle, kernel_text=kernel_bytes)
            device = device or getattr(source, "device_file", None) \
                or getattr(source, "device", None)
        elif isinstance(source, (str, Path)) and Path(source).is_file():
            kernel_file = Path(source)  # errors point at the user's file, not the copy
            bundle = Path(tmp) / "bundle"
            with _Stopwatch(timings, "compile"):
                compile_bundle(source, bundle, device or "spyre", objective, strategy,
                               allow_races, func, dict(runtime_args or {}))
        else:
            raise ExecutionError(f"run: {source!r} is neither a bundle folder, a kernel file "
                                 "nor a compiled schedule")
        target = device or bundle_device(bundle)
        with _Stopwatch(timings, "emulate"):
            runtime = Runtime(target, memory_cap=memory_cap)
            prepared = runtime.prepare(bundle)  # every file checked against the manifest
        if prepared.kernel_path is None:
            raise ParseError("the bundle has no kernel.mlir to compare with", str(bundle))
        kernel = load_kernel(kernel_file or prepared.kernel_path, func=prepared.kernel)
        _same_kernel(prepared, kernel)
        accumulator = _accumulator(prepared)
        depth = _summation_depth(prepared)
        # the scalars folded at compile time: the reference runs with the same values, and
        # another value given for one is refused before anything runs
        rt_args = with_folded_arguments(prepared, dict(runtime_args or {}), inputs)
        given = dict(inputs or {})
        made = reference_interpreter.make_inputs(kernel, seed, rt_args, memory_cap=memory_cap)
        for name, value in made.items():
            given.setdefault(name, value)
        known = reference if isinstance(reference, ReferenceRuns) else None
        if known is not None:
            reference = known.runs.get((accumulator, depth))
        # an earlier reference's bounds serve when they allow at least this bundle's depth
        # (any order, or a deeper one: looser, and still true); else they are recomputed
        if reference is not None and reference.accumulator == accumulator and (
                reference.summation_depth is None
                or depth is not None and reference.summation_depth >= depth):
            timings["reference"] = {"wall_s": reference.wall_s, "cpu_s": reference.cpu_s,
                                    "reused": True}
        else:
            with _Stopwatch(timings, "reference"):
                want, bounds = reference_interpreter.run_with_error_bounds(
                    kernel, given, accumulator, runtime_args=rt_args, device=runtime.device,
                    memory_cap=memory_cap, max_roundings=depth)
            reference = ReferenceRun(want, bounds, accumulator, timings["reference"]["wall_s"],
                                     timings["reference"]["cpu_s"], depth)
            if known is not None:
                for array in (*want.values(), *bounds.values()):
                    array.flags.writeable = False  # shared by every later check
                known.runs[(accumulator, depth)] = reference
        want = reference.outputs
        # an array given for an argument (by the caller, or made here for an input) is
        # read back whole, whatever extent the job plan states for this launch
        _same_output_shapes(prepared, want, rt_args, set(given))
        # "emulate" is the whole of it (preparing the bundle too); "launch" this part only,
        # what a runtime that prepared the bundle once pays per launch
        with _Stopwatch(timings, "emulate"), _Stopwatch(timings, "launch"):
            args: dict[str, int] = {}
            # name -> (element offset, shape, element type, scratchpad core or None)
            outputs_at: dict[str, tuple[int, tuple[int, ...], str, int | None]] = {}
            # name -> (placement, shape, element type): outputs pinned in scratchpads
            from_scratchpads: dict[str, tuple[dict, tuple[int, ...], str]] = {}
            # (element offset, values, element type): written once every argument has its
            # room, so device memory's host array is sized once (`Memory.expect`)
            writes: list[tuple[int, object, str]] = []
            # views at constant addresses own device memory up to where they reach: the
            # arguments are placed after it; the ranges stored through them are outputs
            runtime.reserve(reference_interpreter.constant_address_end(kernel))
            for a in reference_interpreter.loaded_address_ranges(kernel):
                if a.name in given:  # memory read through constant addresses
                    runtime.write_tensor(a.offset, np.asarray(given[a.name]).reshape(-1),
                                         a.element_type,
                                         core=None if a.memory == "global" else a.memory)
            for a in reference_interpreter.stored_address_ranges(kernel):
                outputs_at[a.name] = (a.offset, (a.count,), a.element_type,
                                      None if a.memory == "global" else a.memory)
            for arg in prepared.arguments:
                name = arg["name"]
                if arg.get("kind") != "pointer":
                    value = np.asarray(given[name]) if name in given else None
                    if name in rt_args or value is None:
                        continue
                    if value.ndim == 0:
                        rt_args[name] = int(value)
                    else:
                        # memory the reference reads at an argument the schedule never
                        # reads as memory (its one view shadowed by another part of a
                        # distributed view): placed all the same, the argument its offset
                        rt_args[name] = runtime.allocate_tensor(value)
                    continue
                element = arg["element_type"]
                placement = arg.get("scratchpad")
                if placement is not None:
                    # pinned in scratchpads where the compiler placed it
                    args[name] = int(placement["offset"])
                    if name in given:
                        values = np.asarray(given[name])
                        runtime.place_in_scratchpads(placement, values, element,
                                                     int(np.prod(prepared.grid)))
                        shape = values.shape
                    else:
                        shape = want[name].shape if name in want else tuple(arg["shape"])
                    if arg.get("role") in ("out", "inout"):
                        from_scratchpads[name] = (placement, tuple(shape), element)
                    continue
                if isinstance(given.get(name), WindowedInput):
                    # an input too large to make whole: the memory at the pointer is
                    # placed whole (or refused as too large), the window the kernel
                    # reads holds its values
                    window = given[name]
                    args[name] = _allocate_argument(runtime, name, window.shape, element)
                    writes.append((args[name] + window.lo, window.values, element))
                    shape = window.shape
                elif name in given:
                    values = np.asarray(given[name])
                    args[name] = runtime.allocate(values.shape, element)
                    writes.append((args[name], values, element))
                    shape = values.shape
                elif name in want:  # the memory at the pointer, as the reference read it
                    shape = want[name].shape
                    args[name] = runtime.allocate(shape, element)
                else:
                    # run-time extents are expressions over the run-time arguments
                    shape = argument_shape(arg, rt_args)
                    if shape is None:
                        raise ExecutionError(
                            f"run: the shape of %{name} is not known for this launch")
                    args[name] = runtime.allocate(shape, element)
                if arg.get("role") in ("out", "inout"):
                    outputs_at[name] = (args[name], tuple(shape), element, None)
            for offset, values, element in writes:
                runtime.write_tensor(offset, values, element)
            recorder = TraceRecorder(runtime.device.clock_hz) if trace else None
            launched = runtime.launch(prepared, args, rt_args, trace=recorder,
                                      max_cycles=max_cycles, max_seconds=max_seconds)
            outputs = {name: runtime.read_tensor(off, shape, el, core=core)
                       for name, (off, shape, el, core) in outputs_at.items()}
            outputs.update({name: runtime.read_from_scratchpads(placement, shape, el)
                            for name, (placement, shape, el) in from_scratchpads.items()})
        trace_path = None
        if recorder is not None:
            trace_path = str(recorder.write(trace, {"kernel": prepared.kernel, "device": runtime.device.name,
                                                    "cycles": launched.cycles}))

    checks, mismatches, unchecked = {}, [], []
    for name, ref in want.items():
        if name not in outputs:
            mismatches.append(f"{display_name(name)}: the bundle does not write this output")
            continue
        check = checks[name] = compare(name, outputs[name], ref,
                                       reference.bounds.get(name), accumulator,
                                       reference.summation_depth)
        if check.problem:
            mismatches.append(check.problem)
        if check.unchecked:
            unchecked.append(
                f"{display_name(name)}: {check.unchecked} of {check.elements} elements not "
                "checked: their bound is infinite (a reordered sum that met a NaN or an "
                "infinity or whose partial sums may overflow, or an op the bound reaches a "
                "pole of, e.g. a division by an interval holding 0)")
    if want and not mismatches and all(_only_poison(ref) for ref in want.values()):
        unchecked.append(
            "every output element holds the poison pattern memory starts with: the kernel "
            "wrote nothing it computed (or copied memory nothing wrote), so equal outputs "
            "say nothing")
    if not any(c.exact + c.bounded for c in checks.values()) and not mismatches:
        unchecked.append(
            "no output element was compared: the kernel has no output (no argument it "
            "writes, no address range it stores to) or only empty ones" if not want else
            "no output element was compared")
    verdict = "MISMATCH" if mismatches else "UNCHECKED" if unchecked else "MATCH"
    m = launched.measurements
    units = {name: UnitFigures(s.busy, s.stalled_input, s.stalled_output, s.stalled_shared,
                               round(s.busy / m.cycles, 4) if m.cycles else 0.0, s.finished_at)
             for name, s in m.units.items()}
    return RunResult(outputs=outputs, reference=want, cycles=launched.cycles,
                     predicted_cycles=(launched.predicted_cycles if launched.predicted_cycles
                                       is not None else prepared.predicted_cycles),
                     compiled_prediction=prepared.predicted_cycles,
                     prediction_assumes=list(prepared.schedule.get("predicted_assumes") or []),
                     units=units, max_error={k: c.max_error for k, c in checks.items()},
                     matches=verdict == "MATCH", mismatches=mismatches, verdict=verdict,
                     unchecked=unchecked, checks=checks, decisions=prepared.decisions,
                     datapath_bytes=m.datapath_bytes, bandwidth=m.bandwidth(),
                     per_program=launched.per_program,
                     tolerance={k: c.tolerance for k, c in checks.items()}, trace_path=trace_path,
                     bundle=str(source) if isinstance(source, (str, Path)) and Path(source).is_dir() else None,
                     kernel=prepared.kernel, device=runtime.device.name,
                     bound_ratio={k: c.bound_ratio for k, c in checks.items()}, timings=timings,
                     reference_run=reference)


def report(result: RunResult) -> str:
    """The human-readable report `spyre-sched run` prints."""
    lines = [f"kernel @{result.kernel} on {result.device}"
             + (f" (bundle {result.bundle})" if result.bundle else "")]
    if result.decisions:
        lines.append("decisions: " + ", ".join(f"{k}={v}" for k, v in sorted(result.decisions.items())))
    predicted = "n/a" if result.predicted_cycles is None else str(result.predicted_cycles)
    ratio = ""
    if result.predicted_cycles:
        ratio = f" (predicted/emulated {result.predicted_cycles / max(result.cycles, 1):.3f})"
    lines.append(f"cycles: emulated {result.cycles}, predicted {predicted}{ratio}")
    if result.prediction_assumes:
        # the compile-time figure counted calls only this launch decides
        lines.append(f"  predicted for this launch's arguments; at compile time "
                     f"{result.compiled_prediction}, which assumed: "
                     + "; ".join(result.prediction_assumes))
    split = result.split()
    if split:
        lines.append(f"  last unit to finish: {split['unit']}: busy {split['busy']}, stalled on input "
                     f"{split['stalled_input']}, on output {split['stalled_output']}, on shared "
                     f"bandwidth {split['stalled_shared']}, idle {split['idle']}")
    if len(result.per_program) > 1:
        lines.append("programs: " + ", ".join(f"{k} {v}" for k, v in result.per_program.items()))
    by_engine: dict[str, list[UnitFigures]] = {}
    for name, figures in result.units.items():
        by_engine.setdefault(name.rsplit(".", 1)[-1], []).append(figures)
    lines.append("units (mean over instances: busy / stalled on input / on output / on shared bandwidth, % of cycles):")
    for engine, figs in sorted(by_engine.items()):
        n, c = len(figs), max(result.cycles, 1)
        mean = lambda attr: sum(getattr(f, attr) for f in figs) / n / c * 100  # noqa: E731
        lines.append(f"  {engine:10s} x{n:<3d} busy {mean('busy'):5.1f}%  in {mean('stalled_input'):5.1f}%  "
                     f"out {mean('stalled_output'):5.1f}%  shared {mean('stalled_shared'):5.1f}%")
    total_bytes = sum(v for k, v in result.datapath_bytes.items())
    lines.append(f"bytes moved: {total_bytes} over {len(result.datapath_bytes)} datapaths")
    for name in sorted(result.checks):
        lines.append(check_line(name, result.checks[name]))
    if result.timings:
        parts = []
        for stage in ("compile", "emulate", "reference"):
            t = result.timings.get(stage)
            if t:
                parts.append(f"{stage} {t['wall_s']:.2f} s (CPU {t['cpu_s']:.2f} s"
                             + (", reused" if t.get("reused") else "") + ")")
        lines.append("time: " + ", ".join(parts))
    if result.trace_path:
        lines.append(f"trace: {result.trace_path} (open in ui.perfetto.dev)")
    if result.verdict == "MATCH":
        lines.append("result: MATCH (emulated outputs equal the reference"
                     + (", within the bounds of reordered sums)"
                        if any(r is not None for r in result.bound_ratio.values()) else ")"))
    else:
        lines.append(f"result: {result.verdict}")
        lines.extend("  " + m for m in [*result.mismatches, *result.unchecked])
    return "\n".join(lines)


__all__ = ["ReferenceRun", "RunResult", "UnitFigures", "compare", "report", "run",
           "SpyreSchedError"]
