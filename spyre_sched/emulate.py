"""`spyre_sched.run`: compile (or take a bundle), emulate, and check against the reference.

    result = spyre_sched.run("examples/add_96x64.mlir")          # compile + emulate + compare
    result = spyre_sched.run("out/")                             # a bundle folder as it is
    result.outputs, result.cycles, result.predicted_cycles, result.units, result.max_error

The emulator runs the bundle's DataflowIR (never the KTIR); the reference interpreter runs
the KTIR the bundle records (`kernel.mlir`, checked against its hash) on the same inputs.
Results must be bit-identical, except outputs of kernels with reductions: the schedule may
sum in another order, chunk by chunk in the accumulator type, so those are compared
within the bound of docs/emulator.md ("Comparing with the reference").
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from spyre_sched.errors import ExecutionError, ParseError, SpyreSchedError, UnsupportedError

#: ops whose result depends on the order of a sum (their schedule may change it)
REDUCING_OPS = ("linalg.reduce", "spyreop.slice_reduction", "spyreop.layernormscale",
                "spyreop.layernormscale_fused", "spyreop.layernormnorm")
#: unit roundoff of accumulator types
UNIT_ROUNDOFF = {"f16": 2.0 ** -11, "bf16": 2.0 ** -8, "df16": 2.0 ** -10, "f32": 2.0 ** -24,
                 "f64": 2.0 ** -53}


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
    mismatches: list[str]
    decisions: dict
    datapath_bytes: dict[str, int]
    bandwidth: dict[str, float]
    per_program: dict[str, int]
    tolerance: dict[str, str] = field(default_factory=dict)
    trace_path: str | None = None
    bundle: str | None = None
    kernel: str = ""
    device: str = ""

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
            "mismatches": self.mismatches,
            "decisions": self.decisions,
            "predicted_cycles": self.predicted_cycles,
            "cycles": self.cycles,
            "emulated_split": self.split(),
            "per_program": self.per_program,
            "max_error": self.max_error,
            "tolerance": self.tolerance,
            "units": {k: vars(v) for k, v in self.units.items()},
            "unit_busy_total": busy,
            "datapath_bytes": self.datapath_bytes,
            "bandwidth_bytes_per_cycle": {k: round(v, 3) for k, v in self.bandwidth.items()},
            "trace": self.trace_path,
        }


def _kernel_hash_ok(bundle: Path, schedule: dict) -> Path:
    kernel = bundle / (schedule.get("kernel_file") or "kernel.mlir")
    if not kernel.exists():
        raise ParseError("the bundle has no kernel.mlir to compare with", str(bundle))
    want = schedule.get("kernel_sha256")
    if want:
        got = hashlib.sha256(kernel.read_bytes()).hexdigest()
        if got != want:
            raise ParseError(f"{kernel.name} does not match the hash in schedule.json "
                             f"({got[:12]}... vs {want[:12]}...): the bundle was not compiled "
                             "from it", str(kernel))
    return kernel


def compile_bundle(kernel_path: str | Path, out: Path, device: str, objective: str,
                   strategy: str) -> None:
    """Compile a kernel into a bundle folder through the compiler's public functions."""
    try:
        from spyre_sched import api
        from spyre_sched.lower import bundle as bundle_writer
    except ImportError as err:
        raise UnsupportedError(
            f"compiling a kernel needs the scheduler, solver and lowering ({err.name} is not "
            "available in this build): give `run` a bundle folder instead") from None
    schedule = api.compile(str(kernel_path), device=device, objective=objective, strategy=strategy)
    # The kernel's exact bytes go into the bundle (kernel.mlir, hashed in schedule.json).
    bundle_writer.write_bundle(schedule, out, kernel_text=Path(kernel_path).read_bytes())


def _reduction_info(kernel) -> tuple[bool, int]:
    """Whether the kernel reduces, and the longest extent it could reduce over."""
    from xdsl.dialects.builtin import ArrayAttr

    reduces = False
    for op in kernel.func.walk():
        if op.name in REDUCING_OPS:
            reduces = True
        elif op.name == "linalg.generic":
            iters = op.properties.get("iterator_types") or op.attributes.get("iterator_types")
            if isinstance(iters, ArrayAttr) and "reduction" in str(iters):
                reduces = True
    from spyre_sched.frontend.arguments import infer_arguments

    longest = 1
    for arg in infer_arguments(kernel.func):
        for d in arg.upper_bounds or arg.shape or ():
            if d:
                longest = max(longest, int(d))
    return reduces, longest


def _accumulator(prepared) -> str:
    """The accumulator type of the bundle's reductions with the largest unit roundoff."""
    worst = "f32"
    for program in prepared.programs.values():
        for name in program.image.accumulators():
            if UNIT_ROUNDOFF.get(name, 0) > UNIT_ROUNDOFF.get(worst, 0):
                worst = name
    return worst


def _ulp(values: np.ndarray) -> np.ndarray:
    v = np.abs(values.astype(np.float64))
    if values.dtype == np.float16:
        return np.spacing(np.abs(values)).astype(np.float64)
    return np.spacing(v.astype(np.float32)).astype(np.float64) if values.dtype == np.float32 else np.spacing(v)


def compare(name: str, got: np.ndarray, want: np.ndarray, reduces: bool, length: int,
            accumulator: str) -> tuple[float, str | None, str]:
    """(max error, a mismatch message or None, the tolerance used)."""
    if got.shape != want.shape:
        return float("inf"), f"%{name}: shape {list(got.shape)} but the reference has {list(want.shape)}", "shape"
    if got.dtype.kind == "f":
        same = (got == want) | (np.isnan(got) & np.isnan(want))
        same &= np.signbit(got) == np.signbit(want)
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        diff = np.where(same, 0.0, diff)
    else:
        same = got == want
        diff = np.where(same, 0, np.abs(got.astype(np.int64) - want.astype(np.int64))).astype(np.float64)
    worst = float(np.nanmax(np.where(np.isnan(diff), np.inf, diff))) if diff.size else 0.0
    if same.all():
        return 0.0, None, "bit-exact"
    if not reduces or got.dtype.kind != "f":
        bad = int((~same).sum())
        first = tuple(int(i) for i in np.argwhere(~same)[0])
        return worst, (f"%{name}: {bad} of {got.size} elements differ (bit-exact required); first "
                       f"at {list(first)}: emulated {got[first]!r}, reference {want[first]!r}"), "bit-exact"
    u = UNIT_ROUNDOFF.get(accumulator, 2.0 ** -24)
    gamma = length * u / (1 - length * u) if length * u < 1 else float("inf")
    bound = 2 * _ulp(want) + gamma * np.abs(want.astype(np.float64))
    tolerance = f"2 ulp + {length}*u({accumulator}) relative"
    over = ~same & ~(diff <= bound)
    if over.any():
        first = tuple(int(i) for i in np.argwhere(over)[0])
        return worst, (f"%{name}: {int(over.sum())} of {got.size} elements exceed the reduction "
                       f"bound ({tolerance}); first at {list(first)}: emulated {got[first]!r}, "
                       f"reference {want[first]!r}"), tolerance
    return worst, None, tolerance


def run(schedule_or_kernel, inputs: dict[str, np.ndarray] | None = None, *,
        device: str | None = None, objective: str = "latency", strategy: str = "solver",
        runtime_args: dict[str, int] | None = None, seed: int = 0,
        trace: str | os.PathLike | None = None) -> RunResult:
    """Emulate a bundle folder (or compile a kernel into one first) and compare its outputs
    with the reference interpreter's on the same inputs (missing inputs: seeded random)."""
    import emulator.reference as reference
    from emulator.runtime import Runtime, _read_json, argument_shape
    from emulator.trace import TraceRecorder
    from spyre_sched.frontend import load_kernel

    source = schedule_or_kernel
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
            write_bundle(source, bundle, kernel_text=kernel_bytes)
            device = device or getattr(source, "device", None)
        elif isinstance(source, (str, Path)) and Path(source).is_file():
            bundle = Path(tmp) / "bundle"
            compile_bundle(source, bundle, device or "spyre", objective, strategy)
        else:
            raise ExecutionError(f"run: {source!r} is neither a bundle folder, a kernel file "
                                 "nor a compiled schedule")
        schedule = _read_json(bundle / "schedule.json")
        kernel_path = _kernel_hash_ok(bundle, schedule)
        kernel = load_kernel(kernel_path)
        target = device or schedule.get("device") or "spyre"
        runtime = Runtime(target)
        prepared = runtime.prepare(bundle)
        rt_args = dict(runtime_args or {})
        given = dict(inputs or {})
        made = reference.make_inputs(kernel, seed, rt_args)
        for name, value in made.items():
            given.setdefault(name, value)
        want = reference.run(kernel, given, runtime_args=rt_args, device=runtime.device)

        args: dict[str, int] = {}
        outputs_at: dict[str, tuple[int, tuple[int, ...], str]] = {}
        for arg in prepared.arguments:
            name = arg["name"]
            if arg.get("kind") != "pointer":
                if name not in rt_args and name in given:
                    rt_args[name] = int(np.asarray(given[name]))
                continue
            element = arg["element_type"]
            if name in given:
                values = np.asarray(given[name])
                args[name] = runtime.allocate(values.shape, element)
                runtime.write_tensor(args[name], values, element)
                shape = values.shape
            else:
                # run-time extents are expressions over the run-time arguments
                shape = argument_shape(arg, rt_args)
                if shape is None:
                    raise ExecutionError(f"run: the shape of %{name} is not known for this launch")
                args[name] = runtime.allocate(shape, element)
            if arg.get("role") in ("out", "inout"):
                outputs_at[name] = (args[name], tuple(shape), element)
        recorder = TraceRecorder(runtime.device.clock_hz) if trace else None
        launched = runtime.launch(prepared, args, rt_args, trace=recorder)
        outputs = {name: runtime.read_tensor(off, want[name].shape if name in want else shape, el)
                   for name, (off, shape, el) in outputs_at.items()}
        trace_path = None
        if recorder is not None:
            trace_path = str(recorder.write(trace, {"kernel": prepared.kernel, "device": runtime.device.name,
                                                    "cycles": launched.cycles}))

    reduces, length = _reduction_info(kernel)
    accumulator = _accumulator(prepared)
    max_error, mismatches, tolerance = {}, [], {}
    for name, ref in want.items():
        if name not in outputs:
            mismatches.append(f"%{name}: the bundle does not write this output")
            continue
        err, problem, tol = compare(name, outputs[name], ref, reduces, length, accumulator)
        max_error[name] = err
        tolerance[name] = tol
        if problem:
            mismatches.append(problem)
    m = launched.measurements
    units = {name: UnitFigures(s.busy, s.stalled_input, s.stalled_output, s.stalled_shared,
                               round(s.busy / m.cycles, 4) if m.cycles else 0.0, s.finished_at)
             for name, s in m.units.items()}
    return RunResult(outputs=outputs, reference=want, cycles=launched.cycles,
                     predicted_cycles=prepared.predicted_cycles, units=units, max_error=max_error,
                     matches=not mismatches, mismatches=mismatches, decisions=prepared.decisions,
                     datapath_bytes=m.datapath_bytes, bandwidth=m.bandwidth(),
                     per_program=launched.per_program, tolerance=tolerance, trace_path=trace_path,
                     bundle=str(source) if isinstance(source, (str, Path)) and Path(source).is_dir() else None,
                     kernel=prepared.kernel, device=runtime.device.name)


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
    for name in sorted(result.max_error):
        lines.append(f"output %{name}: max error {result.max_error[name]:g} ({result.tolerance.get(name)})")
    if result.trace_path:
        lines.append(f"trace: {result.trace_path} (open in ui.perfetto.dev)")
    if result.matches:
        lines.append("result: MATCH (emulated outputs equal the reference)")
    else:
        lines.append("result: MISMATCH")
        lines.extend("  " + m for m in result.mismatches)
    return "\n".join(lines)


__all__ = ["RunResult", "UnitFigures", "compare", "report", "run", "SpyreSchedError"]
