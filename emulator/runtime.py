"""The device-level runtime of the emulator: allocate tensors, prepare a bundle once,
launch it many times.

    rt = Runtime("spyre")
    a = rt.allocate_tensor(A)                 # element offset of A in device memory
    c = rt.allocate((96, 64), "f16")
    prepared = rt.prepare("out/")             # parse, verify, bind to the device: once
    result = rt.launch(prepared, {"A": a, "B": b, "C": c})
    rt.read_tensor(c, (96, 64), "f16")

A launch walks the bundle's job plan (`docs/bundle.md`): evaluate the symbols from the
actual addresses and run-time arguments, write them, run each program on the
discrete-event device model (`emulator.device`). The runtime reads only the bundle and
the device description.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr

from spyre_sched.collector import garbage_collection_paused
from spyre_sched.device import load_device
from spyre_sched.device.model import Device
from spyre_sched.errors import ExecutionError, ParseError, UnsupportedError

from emulator.bundle_fields import (check_agreement, check_orchestrator, check_plan,
                                    check_schedule, check_symbols)
from emulator.bundle_files import BundleFiles
from emulator.device.ir_file import parse_ir_file, parse_ir_text
from emulator.device.machine import EmulatedDevice
from emulator.device.measure import Measurements
from emulator.device.memory import DEFAULT_MEMORY_CAP, EAGER_LIMIT, contiguous_strides
from emulator.device.program import ProgramImage
from emulator.job_plan import Execution, evaluate, launched_programs  # noqa: F401 (evaluate: re-exported)
from emulator.numerics import element_type, from_memory, to_bits, to_memory
from emulator.trace import TraceRecorder

ALIGNMENT = 128
#: the first byte the allocator hands out (not 0, so a schedule that forgot a symbol and
#: used address 0 does not happen to be right)
HEAP_START = 1 << 16
#: a launch that runs longer than this many cycles is stopped (a livelock, not a deadlock)
DEFAULT_MAX_CYCLES = 1 << 40
#: a launch whose emulation takes longer than this many seconds of wall-clock time is
#: stopped (checked every few thousand events and every 65536 issue cycles of a loop)
DEFAULT_MAX_SECONDS = 60.0

@dataclass
class Program:
    name: str
    file: Path
    image: ProgramImage


@dataclass
class PreparedBundle:
    """A bundle parsed, verified and bound to the device: independent of any arguments."""

    path: Path
    kernel: str
    arguments: list[dict]
    programs: dict[str, Program]
    symbols: dict[int, dict]
    execute: list[dict]
    schedule: dict
    buffers: dict[str, list[tuple[str, int, int, str]]] = field(default_factory=dict)
    grid: list[int] = field(default_factory=lambda: [1])
    device: str | None = None
    """The device the bundle was compiled for (jobplan.json `device`)."""
    kernel_path: Path | None = None
    """The bundle's copy of the KTIR kernel (checked against the manifest), if it has one."""

    @property
    def predicted_cycles(self) -> int | None:
        return self.schedule.get("predicted_cycles")

    @property
    def decisions(self) -> dict:
        return self.schedule.get("decisions") or {}

    @property
    def predicted_per_call(self) -> dict[str, int] | None:
        """The schedule's cycles for one call of each program (None: not recorded)."""
        table = self.schedule.get("predicted_per_call")
        if not isinstance(table, dict):
            return None
        return {str(k): int(v) for k, v in table.items()}


@dataclass
class LaunchResult:
    cycles: int
    measurements: Measurements
    per_program: dict[str, int]
    """Cycles of each program call ("local_schedule_0#0": ...)."""
    trace: TraceRecorder | None = None
    outputs: dict[str, np.ndarray] = field(default_factory=dict)
    """Every out/inout tensor argument, read back after the launch (row-major, the job
    plan's shape)."""
    predicted_cycles: int | None = None
    """The schedule's prediction for this launch's arguments (`predict`); None when the
    bundle records no per-call cycles."""


def bundle_device(bundle: str | Path) -> str:
    """The device a bundle was compiled for (its job plan's `device`), the manifest and the
    job plan checked first: what `Runtime(...)` should emulate to run it."""
    files = BundleFiles(bundle)
    plan = files.json("jobplan.json")
    check_plan(plan, str(Path(bundle) / "jobplan.json"))
    return plan["device"]


def _is_float_type(name) -> bool:
    """`name` is a float element type (f16, bf16, f32, df16...)."""
    try:
        return element_type(str(name)).is_float
    except UnsupportedError:
        return False


class Runtime:
    """One emulated device: its memory persists across launches."""

    def __init__(self, device: Device | str | Path = "spyre", memory_cap: int = DEFAULT_MEMORY_CAP):
        """`memory_cap`: the most host memory the emulated memories may take (bytes); a
        bundle that would need more is refused at prepare, with the figures."""
        self.device = device if isinstance(device, Device) else load_device(device)
        self.emu = EmulatedDevice(self.device, memory_cap)
        self.global_memory = self.emu.memory(self.device.device_memory().name)
        self._next_byte = HEAP_START

    # ---- tensors ----------------------------------------------------------------------

    def allocate(self, shape, element: str) -> int:
        """Room for a row-major tensor in device memory; returns its element offset."""
        et = element_type(element)
        nbytes = max(int(np.prod(shape)) * et.size, 1)
        start = -(-self._next_byte // ALIGNMENT) * ALIGNMENT
        if start + nbytes > self.global_memory.size:
            raise ExecutionError(f"device memory {self.global_memory.name} is full: "
                                 f"{nbytes} more bytes do not fit")
        self._next_byte = start + nbytes
        self.global_memory.expect(self._next_byte)
        return start // et.size

    def reserve(self, end_byte: int) -> None:
        """Keep device memory below `end_byte` out of `allocate`: a kernel's views at
        constant addresses own it."""
        self._next_byte = max(self._next_byte, end_byte)

    def write_tensor(self, offset: int, values, element: str, core: int | None = None) -> None:
        """Write a row-major tensor at element `offset` of device memory, or of core
        `core`'s scratchpad."""
        et = element_type(element)
        raw = to_memory(et, np.asarray(values))
        memory = (self.global_memory if core is None
                  else self.emu.memory(self.device.scratchpad(core).name))
        memory.write(offset * et.size, raw.shape, contiguous_strides(raw.shape, et.size),
                     raw, what=f"tensor write at element {offset}")

    def read_tensor(self, offset: int, shape, element: str, core: int | None = None) -> np.ndarray:
        """Read a row-major tensor at element `offset` of device memory, or of core
        `core`'s scratchpad."""
        et = element_type(element)
        shape = tuple(int(d) for d in shape)
        memory = (self.global_memory if core is None
                  else self.emu.memory(self.device.scratchpad(core).name))
        raw = memory.read(offset * et.size, shape, contiguous_strides(shape, et.size),
                          et.storage_dtype, what=f"tensor read at element {offset}")
        return from_memory(et, raw)

    def place_in_scratchpads(self, placement: dict, values, element: str, tiles: int) -> None:
        """Place a tensor the kernel views in scratchpads where the compiler put it (a job
        plan argument's `scratchpad`): whole and row-major at its offset in one core's
        scratchpad, or in each of the `tiles` cores' own; or each part's box of it in its
        core's scratchpad, strided as the part's view reads it."""
        et = element_type(element)
        raw = to_memory(et, np.asarray(values))
        for memory, box, start, strides, what in self._scratchpad_pieces(
                placement, raw.shape, tiles, et.size):
            piece = raw[box]
            memory.write(start, piece.shape, strides or contiguous_strides(piece.shape, et.size),
                         piece, what=f"argument placed at {what}")

    def read_from_scratchpads(self, placement: dict, shape, element: str) -> np.ndarray:
        """The tensor `place_in_scratchpads` placed, as the scratchpads hold it now (a
        tensor in every core's own scratchpad has no one value: refused)."""
        et = element_type(element)
        shape = tuple(int(d) for d in shape)
        if placement.get("core") is None and not placement.get("parts"):
            raise ExecutionError("a tensor in every core's own scratchpad has no single value "
                                 "to read back")
        out = np.zeros(shape, dtype=np.dtype(et.storage_dtype))
        for memory, box, start, strides, what in self._scratchpad_pieces(
                placement, shape, 1, et.size):
            piece = out[box]
            piece[...] = memory.read(start, piece.shape,
                                     strides or contiguous_strides(piece.shape, et.size),
                                     et.storage_dtype, what=f"argument read at {what}")
        return from_memory(et, out)

    def _scratchpad_pieces(self, placement: dict, shape: tuple[int, ...], tiles: int,
                           size: int):
        """(scratchpad memory, the tensor's box, first byte, byte strides or None for
        row-major, where it is for messages) of every piece of a scratchpad placement, for
        elements of `size` bytes."""
        offset = int(placement["offset"])
        parts = placement.get("parts") or []
        if not parts:
            core = placement.get("core")
            for c in ([int(core)] if core is not None else range(tiles)):
                yield (self.emu.memory(self.device.scratchpad(c).name), (), offset * size,
                       None, f"element {offset} of core {c}")
            return
        origin = [int(v) for v in placement["origin"]]
        for part in parts:
            lo = [max(int(a), o) for a, o in zip(part["lo"], origin)]
            hi = [min(int(b), o + n - 1) for b, o, n in zip(part["hi"], origin, shape)]
            if any(h < low for low, h in zip(lo, hi)):
                continue
            box = tuple(slice(low - o, h - o + 1) for low, h, o in zip(lo, hi, origin))
            start = offset + sum((low - int(a)) * int(d)
                                 for low, a, d in zip(lo, part["lo"], part["strides"]))
            core = int(part["core"])
            yield (self.emu.memory(self.device.scratchpad(core).name), box, start * size,
                   tuple(int(d) * size for d in part["strides"]),
                   f"element {start} of core {core}")

    def allocate_tensor(self, values, element: str | None = None) -> int:
        values = np.asarray(values)
        element = element or {np.dtype(np.float16): "f16", np.dtype(np.float32): "f32",
                              np.dtype(np.int32): "i32", np.dtype(np.int8): "i8",
                              np.dtype(np.float64): "f64"}.get(values.dtype)
        if element is None:
            raise ExecutionError(f"name the element type of a {values.dtype} tensor")
        offset = self.allocate(values.shape, element)
        self.write_tensor(offset, values, element)
        return offset

    # ---- prepare ----------------------------------------------------------------------

    def prepare(self, bundle: str | Path) -> PreparedBundle:
        """Check the bundle (every file against its manifest, every field the runtime uses,
        the files against each other: `emulator.bundle_files`, `emulator.bundle_fields`),
        then parse, verify and bind each program to the device."""
        path = Path(bundle)
        files = BundleFiles(path)
        where = str(path / "jobplan.json")
        plan = files.json("jobplan.json")
        check_plan(plan, where)
        symbols_doc = files.json("symbols.json")
        symbols = check_symbols(symbols_doc, str(path / "symbols.json"))
        schedule = files.json("schedule.json")
        check_schedule(schedule, str(path / "schedule.json"))
        check_agreement(plan, symbols_doc, schedule, path)
        orchestrator = str(path / "global.mlir")
        global_module, _ = parse_ir_text(files.text("global.mlir"), orchestrator)
        check_orchestrator(global_module, plan, orchestrator)
        named = plan["device"]
        if "/" not in named and not named.endswith(".mlir") and named != self.device.name:
            raise ExecutionError(f"the bundle was compiled for device {named}, but this "
                                 f"runtime emulates {self.device.name}", where)
        kernel_path = None
        kernel_file = schedule.get("kernel_file")
        if kernel_file is not None:  # null: compiled from ScheduleIR alone, no kernel
            files.read(kernel_file, ("schedule.json", "kernel_file"))
            want = schedule.get("kernel_sha256")
            if want is not None and want != files.hashes[kernel_file]:
                raise ParseError(f"kernel_sha256 disagrees with {kernel_file}'s hash in "
                                 "manifest.json", str(path / "schedule.json"))
            kernel_path = files.path(kernel_file)
        programs: dict[str, Program] = {}
        for i, step in enumerate(plan["prepare"]):
            name, file = step["program"], step["file"]
            text = files.text(file, ("jobplan.json", f"prepare[{i}].file"))
            programs[name] = Program(name, files.path(file),
                                     self._load_program(name, files.path(file), text,
                                                        kernel=plan["kernel"]))
        buffers: dict[str, list] = {}
        for b in schedule.get("buffers") or []:
            buffers.setdefault(b["program"], []).append(
                (b["memory"], int(b["offset"]), int(b["bytes"]), str(b.get("name", "?"))))
        for pin in schedule.get("pinned") or []:
            # a row names its program: what outlives a program (a region kept across
            # programs) is declared only in the programs that must leave it alone
            for name in ([pin["program"]] if pin.get("program") in programs else programs):
                buffers.setdefault(name, []).append(
                    (pin["memory"], int(pin["offset"]), int(pin["bytes"]), str(pin.get("what", "pinned"))))
        self._refuse_above_cap("the bundle", programs.values())
        return PreparedBundle(path, plan["kernel"], list(plan["arguments"]), programs, symbols,
                              plan["execute"], schedule, buffers, list(plan["grid"]),
                              plan["device"], kernel_path)

    def prepare_program(self, file: str | Path, name: str | None = None) -> ProgramImage:
        """One DataflowIR file, outside any bundle (its symbols are given at launch)."""
        file = Path(file)
        image = self._load_program(name or file.stem, file)
        self._refuse_above_cap(f"program {image.name}", [Program(image.name, file, image)])
        return image

    def _refuse_above_cap(self, what: str, programs) -> None:
        """Refuse, before anything runs, programs whose scratchpads (booked whole here;
        allocated when first touched, at most whole) would take more host memory than the
        cap allows."""
        used: set[str] = set()
        for program in programs:
            used |= program.image.memories_used(self.emu)
        fresh = [self.emu.memories[name] for name in sorted(used)]
        fresh = [m for m in fresh if m.size <= EAGER_LIMIT and not m.allocated]
        if fresh:
            sizes = sorted({m.size for m in fresh})
            each = f" of {sizes[0]} bytes" if len(sizes) == 1 else ""
            self.emu.host.refuse_above(
                f"emulating {what} on {self.device.name}",
                [(f"{len(fresh)} scratchpads{each} its programs use", sum(m.size for m in fresh))])

    def _load_program(self, name: str, file: Path, text: str | None = None,
                      kernel: str | None = None) -> ProgramImage:
        """`text`: the file's bytes as the bundle's manifest checked them; `kernel`: the
        kernel the bundle is of, which the program must name too."""
        module, locations = parse_ir_file(file) if text is None else parse_ir_text(text, str(file))
        device_attr = module.attributes.get("dataflow.device")
        kernel_attr = module.attributes.get("dataflow.kernel")
        inner = _inner_function(module, name, str(file))
        image = ProgramImage.of(name, inner, locations)
        named = device_attr.data if isinstance(device_attr, StringAttr) else None
        if named and "/" not in named and not named.endswith(".mlir") and named != self.device.name:
            raise ExecutionError(f"program {name} was compiled for device {named}, but this "
                                 f"runtime emulates {self.device.name}", str(file))
        if kernel is not None and isinstance(kernel_attr, StringAttr) and kernel_attr.data != kernel:
            raise ParseError(f"dataflow.kernel is \"{kernel_attr.data}\", but the bundle is of "
                             f"kernel \"{kernel}\" (jobplan.json)", str(file))
        image.bind(self.device)
        image.resolve_routes(self.emu)
        image.device_name = named
        return image

    # ---- launch -----------------------------------------------------------------------

    def launch(self, prepared: PreparedBundle, args: dict[str, int],
               runtime_args: dict[str, int] | None = None, trace: TraceRecorder | None = None,
               max_cycles: int = DEFAULT_MAX_CYCLES,
               max_seconds: float | None = DEFAULT_MAX_SECONDS) -> LaunchResult:
        """Run the job plan's execute part. `args`: pointer arguments as element offsets
        (from `allocate`) or as numpy arrays (placed in device memory first), scalars and
        run-time arguments as integers. Budgets: the launch stops with an ExecutionError
        naming the unit and its loop or instruction once it passes `max_cycles` device
        cycles (all its programs together) or `max_seconds` of wall-clock time (None: no
        limit)."""
        args = dict(args)
        kinds = {a["name"]: a for a in prepared.arguments}
        tiles = int(np.prod(prepared.grid))
        # (written once every array has its room: device memory is sized once)
        writes: list[tuple[int, np.ndarray, str]] = []
        for name, value in list(args.items()):
            if isinstance(value, np.ndarray) and name in kinds and kinds[name].get("kind") == "pointer":
                element = kinds[name]["element_type"]
                placement = kinds[name].get("scratchpad")
                if placement is not None:  # where the compiler placed it
                    self.place_in_scratchpads(placement, value, element, tiles)
                    args[name] = int(placement["offset"])
                else:
                    args[name] = self.allocate(value.shape, element)
                    writes.append((args[name], value, element))
        for a in prepared.arguments:
            # memory the compiler added for an intermediate, unless the caller gave some
            if a.get("role") == "workspace" and a["name"] not in args:
                shape = argument_shape(a, {**(runtime_args or {}), **args})
                if shape is None:
                    raise ExecutionError(f"launch: the shape of workspace %{a['name']} is not "
                                         "known for this launch", "jobplan.json")
                args[a["name"]] = self.allocate(shape, a["element_type"])
        for offset, value, element in writes:
            self.write_tensor(offset, value, element)
        env = self._argument_env(prepared, args, runtime_args or {})
        predicted = self._predict(prepared, env)
        total: Measurements | None = None
        per_program: dict[str, int] = {}
        now = 0
        deadline = None if max_seconds is None else time.monotonic() + max_seconds

        def run_call(program: str, symbols: dict[int, int], cores, label: str) -> None:
            nonlocal total, now
            image = prepared.programs[program].image
            result = self.run_program(image, symbols, trace=trace,
                                      buffers=prepared.buffers.get(program, []),
                                      start=now, max_cycles=max_cycles - now, cores=cores,
                                      deadline=deadline, max_seconds=max_seconds)
            per_program[label] = result.cycles
            now += result.cycles
            total = result if total is None else total.merge(result)

        Execution(prepared.grid, run_call, prepared.symbols, self._check_symbol).run(prepared.execute, env)
        if total is None:
            if not launched_programs(prepared.execute):
                raise ExecutionError("the job plan launches no program", "jobplan.json")
            total = Measurements(0, {}, {})  # run-time loops and conditions ran nothing
        outputs = {}
        for a in prepared.arguments:
            if a.get("kind") == "pointer" and a.get("role") in ("out", "inout") and a.get("shape"):
                shape = argument_shape(a, env)
                if shape is not None and a.get("scratchpad") is not None:
                    outputs[a["name"]] = self.read_from_scratchpads(a["scratchpad"], shape,
                                                                    a["element_type"])
                elif shape is not None:
                    outputs[a["name"]] = self.read_tensor(env[a["name"]], shape, a["element_type"])
        return LaunchResult(total.cycles, total, per_program, trace, outputs, predicted)

    def predict(self, prepared: PreparedBundle, args: dict[str, int],
                runtime_args: dict[str, int] | None = None) -> int | None:
        """The schedule's predicted cycles for a launch with these arguments, without
        running it: the job plan walked as a launch walks it (run-time loops, launch-time
        and per-core conditions evaluated), each call counted at its program's per-call
        cycles (schedule.json `predicted_per_call`). None when the bundle has no such table
        (hand-written bundles); then `prepared.predicted_cycles` is all there is."""
        return self._predict(prepared, self._argument_env(prepared, args, runtime_args or {}))

    def _predict(self, prepared: PreparedBundle, env: dict[str, int]) -> int | None:
        per_call = prepared.predicted_per_call
        if per_call is None:
            return None
        total, missing = 0, []

        def count(program: str, symbols, cores, label: str) -> None:
            nonlocal total
            if program in per_call:
                total += per_call[program]
            else:
                missing.append(program)

        Execution(prepared.grid, count, prepared.symbols, lambda entry, value: None).run(
            prepared.execute, env)
        return None if missing else total

    def _argument_env(self, prepared: PreparedBundle, args: dict, runtime_args: dict) -> dict[str, int]:
        runtime_args = with_folded_arguments(prepared, runtime_args, args)
        env: dict[str, int] = {}
        known = {a["name"] for a in prepared.arguments}
        for key in list(args) + list(runtime_args):
            if known and key not in known:
                raise ExecutionError(f"'{key}' is not an argument of {prepared.kernel} "
                                     f"(its arguments: {', '.join(sorted(known))})")
        for a in prepared.arguments:
            name = a["name"]
            source = runtime_args if name in runtime_args else args
            if name not in source:
                raise ExecutionError(f"argument '{name}' of {prepared.kernel} is not set in this launch")
            value = source[name]
            if a.get("kind") == "scalar" and _is_float_type(a.get("type")):
                # A float scalar reaches the units as its bit pattern in its type (a "bits"
                # symbol; docs/bundle.md), never as an address or a shape.
                if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
                    raise ExecutionError(f"argument '{name}' must be a number ({a['type']}), "
                                         f"got {type(value).__name__}")
                env[name] = int(to_bits(a["type"], np.array([value]))[0])
                continue
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise ExecutionError(f"argument '{name}' must be an integer (an element offset for "
                                     f"a pointer), got {type(value).__name__}")
            value = int(value)
            if a.get("kind") == "pointer" and value < 0:
                raise ExecutionError(f"pointer argument '{name}' is negative ({value})")
            if a.get("kind") == "runtime" and value <= 0:
                # KTIR (docs/ktir.md): a run-time argument is a positive multiple of its
                # granularity, at most its upperbound; the reference refuses 0 too
                raise ExecutionError(f"run-time argument '{name}' = {value} must be a positive "
                                     "integer (KTIR run-time arguments are positive)")
            bound = a.get("upperbound")
            if bound is not None and not 0 <= value <= int(bound):
                raise ExecutionError(f"run-time argument '{name}' = {value} is outside [1, {bound}]")
            gran = a.get("granularity")
            if gran and value % int(gran):
                raise ExecutionError(f"run-time argument '{name}' = {value} is not a multiple of "
                                     f"its granularity {gran}")
            env[name] = value
        for name, value in {**args, **runtime_args}.items():
            env.setdefault(name, int(value))
        return env

    def _check_symbol(self, entry: dict, value: int) -> None:
        sid = entry.get("id")
        if entry.get("kind") == "address":
            memory = self.emu.memories.get(entry.get("memory", ""))
            if memory is None:
                memory = self.global_memory
            if not 0 <= value < memory.size:
                raise ExecutionError(f"symbol {sid} ({entry.get('text', '')}) = {value} is not an "
                                     f"address in {memory.name} (size {memory.size} bytes)")
        elif value < 0:
            raise ExecutionError(f"symbol {sid} ({entry.get('text', '')}) = {value} is negative")

    def run_program(self, image: ProgramImage, symbols: dict[int, int], *,
                    trace: TraceRecorder | None = None, buffers=(), start: int = 0,
                    max_cycles: int = DEFAULT_MAX_CYCLES,
                    cores: frozenset[int] | None = None, deadline: float | None = None,
                    max_seconds: float | None = None) -> Measurements:
        """Launch one program with the given symbol values (launch semantics of
        docs/dataflowir.md); raises ExecutionError on a fault. It stops past `start +
        max_cycles` cycles, or past `deadline` (time.monotonic(); `max_seconds` is that
        budget, for the message; given alone, it starts now)."""
        if deadline is None and max_seconds is not None:
            deadline = time.monotonic() + max_seconds
        missing = sorted(image.symbol_ids - set(symbols))
        if missing:
            raise ExecutionError(f"program {image.name}: symbol(s) {', '.join(map(str, missing))} "
                                 "are not set for this launch")
        self._declare_buffers(buffers)
        try:
            launch = self.emu.new_launch(trace, max_cycles=start + max_cycles)
            launch.sim.now = start
            launch.sim.deadline, launch.sim.max_seconds = deadline, max_seconds
            # (the collector's passes walk the long-lived heap for nothing: 20-25 % of a
            # full-size FFN's launch)
            with garbage_collection_paused():
                image.spawn(launch, symbols, cores)
                with np.errstate(all="ignore"):  # the numerics define inf/NaN results
                    launch.sim.run()
            left = launch.leftover_fifos()
            if left:
                raise ExecutionError(f"program {image.name} ended with data left in FIFOs: "
                                     + "; ".join(left), f"cycle {launch.sim.now}")
        finally:
            self.emu.settle()
            self._declare_buffers(())
        measured = Measurements.of(launch.sim, launch.shared, launch.fifos.values())
        measured.cycles -= start
        for stats in measured.units.values():
            stats.finished_at -= start
        return measured

    def _declare_buffers(self, buffers) -> None:
        """Scratchpad buffers of the program being launched (same offsets in every core)."""
        for memory in self.emu.memories.values():
            memory.clear_buffers()
        for mem_name, offset, nbytes, name in buffers:
            targets = [m for n, m in self.emu.memories.items()
                       if n == mem_name or n.endswith("." + mem_name)]
            for memory in targets:
                memory.declare_buffer(offset, nbytes, name)


def with_folded_arguments(prepared: PreparedBundle, runtime_args: dict,
                          other: dict | None = None) -> dict:
    """`runtime_args` with the value of every scalar folded into the bundle at compile time
    (jobplan.json `folded`) added. The programs were scheduled for that value only: a
    launch (or a reference run) given another value for it, in `runtime_args` or `other`,
    is refused rather than run and compared against a kernel that was not compiled."""
    merged = dict(runtime_args)
    for a in prepared.arguments:
        if a.get("kind") != "scalar" or "folded" not in a:
            continue
        name, folded = a["name"], a["folded"]
        for given in (runtime_args, other or {}):
            if name not in given:
                continue
            value = given[name]
            try:
                same = bool(np.asarray(value) == folded) and np.asarray(value).size == 1
            except (TypeError, ValueError):
                same = False
            if not same:
                shown = value if np.ndim(value) == 0 else f"an array of shape {np.shape(value)}"
                raise ExecutionError(
                    f"argument '{name}' = {shown}, but the bundle was compiled with {name} = "
                    f"{folded} folded into it (compile --arg {name}={folded}): compile the "
                    "kernel again with the value to run",
                    str(prepared.path / "jobplan.json"))
        merged[name] = folded
    return merged


def argument_shape(argument: dict, env: dict[str, int]) -> tuple[int, ...] | None:
    """A pointer argument's shape in this launch: a run-time extent is an expression over
    the arguments (docs/bundle.md); None when some extent is unknown."""
    shape = argument.get("shape")
    if not shape:
        return None
    dims = []
    for d in shape:
        if d is None or (isinstance(d, int) and d < 0):
            return None
        dims.append(evaluate(d, env, f"shape of argument '{argument.get('name')}'"))
    return tuple(dims)


def _inner_function(module: ModuleOp, name: str, where: str) -> func.FuncOp:
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp)]
    body = [f for f in funcs if f.sym_name.data == f"{name}_body"]
    if not body:
        # A module with one argument-free function holding program units is accepted too.
        body = [f for f in funcs if not f.function_type.inputs.data and f.body.blocks]
    if len(body) != 1:
        raise ParseError(f"expected one argument-free function @{name}_body holding the "
                         f"DataflowIR, found {len(body)}", where)
    return body[0]
