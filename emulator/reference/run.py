"""Launch a kernel on the reference interpreter: place arguments, run every tile, read back.

Pointer arguments are placed in argument order, each 128-byte aligned, in global memory, or
in the scratchpad their views name when the kernel pins an input there (`ct_local`). The
array given for a pointer is the memory at it, in C order (`spyre_sched.frontend.arguments`
states the rule); the kernel receives element offsets. Outputs (roles out / inout) come
back keyed by argument name, in the shape of the array given for them, else the
argument's inferred shape.
"""

from __future__ import annotations

import dataclasses
import math
import os
import weakref
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerType, MemRefType

from emulator.numerics import element_type, from_memory, round_to, to_memory
from emulator.reference import affine_sets, linalg, ops_ktdp, ops_upstream  # noqa: F401
from emulator.reference.device_defines import as_the_device_defines
from emulator.reference.error_tracking import ErrorTracking, read_output
from emulator.reference.exchange import Exchange
from emulator.reference.interpreter import TileExecutor
from emulator.reference.layout import ArgumentLayout, layout_of
from emulator.reference.machine import Machine
from emulator.reference.memory import DEFAULT_SCRATCHPAD_BYTES, DeviceMemory, align_up
from emulator.reference.ops_ktdp import RuntimeArg
from emulator.reference.tile_scheduler import run_round_robin
from emulator.reference.types import element_name
from spyre_sched.dialects import ktdp as ktdp_ops
from spyre_sched.dialects.ktdp import (
    ConstructDistributedMemoryViewOp,
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    RuntimeArgType,
    StoreOp,
)
from spyre_sched.errors import ExecutionError, UnsupportedError
from spyre_sched.frontend import Kernel, load_kernel, parse_kernel
from spyre_sched.frontend.arguments import ArgumentInfo, infer_arguments
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.resources import touched_address_range

POINTER_ROLES = ("in", "out", "inout", "unused")


def as_kernel(kernel: Kernel | str | Path) -> Kernel:
    """A Kernel, a path to a .mlir file, or KTIR text."""
    if isinstance(kernel, Kernel):
        return kernel
    if isinstance(kernel, Path) or ("\n" not in kernel and os.path.exists(kernel)):
        return load_kernel(kernel)
    return parse_kernel(kernel, "<input>")


# ---- per-kernel set-up, done once per kernel ------------------------------------------

#: run-time bindings whose bounded arguments a kernel keeps (oldest dropped first)
_BOUNDED_CACHE_SIZE = 32


@dataclass
class KernelSetup:
    """What a launch derives from the kernel alone, computed on its first run and reused
    by every later run of the same kernel object (with any inputs and run-time values):
    argument inference, the device memory that views at constant addresses own, the
    layout of each argument spread over several scratchpads, the polyhedral model (built
    only when an argument is too large to hold whole), and the index-tensor ranges
    `make_inputs` uses.
    Like the interpreter's per-op caches (`interpreter.op_static`, `block_plan`), it
    assumes the kernel's IR is not changed once the kernel has run."""

    arguments: list[ArgumentInfo]
    #: run-time bindings (sorted (name, value) pairs) -> the arguments bounded by them
    bounded: dict[tuple, list[ArgumentInfo]] = dataclasses.field(default_factory=dict)
    constant_end: int | None = None
    scratchpad_constant_end: int | None = None
    address_outputs: list | None = None  # stored_address_ranges
    address_inputs: list | None = None  # loaded_address_ranges
    layouts: dict[int, ArgumentLayout | None] = dataclasses.field(default_factory=dict)
    model: KernelModel | None = None
    index_ranges: dict[int, tuple[int, int]] | None = None

    def layout(self, func, position: int) -> ArgumentLayout | None:
        if position not in self.layouts:
            self.layouts[position] = layout_of(func, position)
        return self.layouts[position]

    def kernel_model(self, func) -> KernelModel:
        if self.model is None:
            self.model = KernelModel(func)
        return self.model


_SETUPS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def kernel_setup(kernel: Kernel) -> KernelSetup:
    """The kernel's `KernelSetup` (made on first use; kept while its function op lives)."""
    setup = _SETUPS.get(kernel.func)
    if setup is None:
        setup = _SETUPS[kernel.func] = KernelSetup(infer_arguments(kernel.func))
    return setup


#: the most simulated memory (arguments, scratchpads, generated inputs) a run may use,
#: unless the caller says otherwise (`memory_cap=`, the CLI's --memory-cap): a run that
#: would need more is refused before anything is allocated, with the figures
DEFAULT_MEMORY_CAP = 4 << 30


def _refuse_above_cap(what: str, parts: list[tuple[str, int]], cap: int,
                      kernel: Kernel) -> None:
    total = sum(n for _, n in parts)
    if total <= cap:
        return
    shown = ", ".join(f"{name} {n} bytes" for name, n in parts if n)
    raise ExecutionError(
        f"{what} needs {total} bytes ({shown}), more than the memory cap of {cap} bytes; "
        "raise it (--memory-cap) or shrink the kernel's tensors", _where(kernel))


#: the space of an argument whose views spread it over several scratchpads
DISTRIBUTED = "distributed"


@dataclass(frozen=True)
class WindowedInput:
    """An input tensor too large to hold, given by the only elements the kernel touches:
    `values` are the row-major elements `lo`..`lo + len(values) - 1` of a tensor of
    `shape` (make_inputs builds one when the whole tensor exceeds the memory cap)."""

    shape: tuple[int, ...]
    lo: int
    values: np.ndarray

    @property
    def dtype(self) -> np.dtype:
        return self.values.dtype


@dataclass
class Placement:
    arg: ArgumentInfo
    #: "global", a tile id, "own" (every tile's own scratchpad) or DISTRIBUTED (each part
    #: of the layout in the scratchpad its view names, at the same offset)
    space: object
    offset: int  # element offset
    shape: tuple[int, ...]  # the array's shape (upper bounds where dynamic)
    #: where the parts of a tensor spread over several scratchpads go (DISTRIBUTED only)
    layout: ArgumentLayout | None = None
    #: (lo, hi): only these element addresses are allocated (an input whose whole tensor
    #: would exceed the memory cap, of which the kernel touches a part); None: all
    window: tuple[int, int] | None = None

    def keys(self, num_tiles: int) -> list:
        """The memories this argument occupies."""
        if self.space == "own":
            return list(range(num_tiles))
        if self.space == DISTRIBUTED:
            return sorted({part.tile for part in self.layout.parts})
        return [self.space]

    def _pieces(self, shape, num_tiles: int):
        """(memory key, flat tensor indices or None for all, element addresses or None for
        a contiguous block) for every memory the tensor is written to or read from."""
        if self.space == DISTRIBUTED:
            for part in self.layout.parts:
                yield (part.tile, *self.layout.part_addresses(part, shape))
        else:
            for key in self.keys(num_tiles):
                yield key, None, None

    def write(self, memory: DeviceMemory, raw: np.ndarray, num_tiles: int) -> None:
        """Place the input's elements (`raw`, flat, in storage form). A block of memory is
        adopted, not copied (`DeviceMemory.adopt`): `raw` may be the caller's array, which
        the run never writes."""
        if self.window is not None:  # raw holds the window's elements only
            start = self.offset + self.window[0]
            memory.adopt(self.space, start * raw.itemsize, raw)
            return
        for key, index, address in self._pieces(self.shape, num_tiles):
            if address is None:
                memory.adopt(key, self.offset * raw.itemsize, raw)
            elif len(address):  # a distributed part: element by element, into the buffer
                first = self.offset + int(address.min())
                last = self.offset + int(address.max())
                memory.before_write(key, first * raw.itemsize, (last + 1) * raw.itemsize - 1)
                elements, _ = memory.elements_at(key, raw.dtype, first, last)
                elements[self.offset + address] = raw[index]

    def read(self, memory: DeviceMemory, dtype, shape, num_tiles: int) -> np.ndarray:
        count = int(np.prod(shape)) if shape else 1
        dtype = np.dtype(dtype)
        pieces = list(self._pieces(shape, num_tiles))
        if len(pieces) == 1 and pieces[0][2] is None and count:  # one contiguous block
            key, first, last = pieces[0][0], self.offset, self.offset + count - 1
            array, base = memory.elements_at(key, dtype, first, last)
            block = array[first - base : last - base + 1]
            if memory.adopted(key, first * dtype.itemsize, (last + 1) * dtype.itemsize - 1):
                return block.copy()  # never written: still the caller's input array
            # no copy: the run is over, nothing writes this memory again (the output
            # keeps the buffer alive)
            return block
        raw = np.zeros(count, dtype=dtype)
        for key, index, address in pieces:
            elements = memory.elements(key, dtype)
            if address is None:
                raw[:] = elements[self.offset : self.offset + count]
            else:
                raw[index] = elements[self.offset + address]
        return raw


def _where(kernel: Kernel) -> object:
    return kernel.location_of(kernel.func)


def _space_of(arg: ArgumentInfo, kernel: Kernel) -> object:
    spaces = set(arg.memory_spaces)
    if not spaces or "global" in spaces:
        return "global"
    if len(spaces) > 1:
        if "ct_local(own)" in spaces:
            raise UnsupportedError(
                f"argument %{arg.name} is viewed both in the executing tile's own "
                f"scratchpad and in named ones {sorted(spaces)}", _where(kernel))
        return DISTRIBUTED
    (space,) = spaces
    if space == "ct_local(own)":
        if arg.role in ("out", "inout"):
            raise UnsupportedError(
                f"output %{arg.name} lives in each tile's own scratchpad: it has no single "
                "value to return", _where(kernel))
        return "own"
    return int(space.split()[-1].rstrip(")"))


def _expected_shape(arg: ArgumentInfo, given: np.ndarray | None, kernel: Kernel):
    """The shape of the array for a pointer argument: the given one when the memory rule
    accepts it (`ArgumentInfo.memory_problem`), else the argument's (upper bounds where
    dynamic)."""
    if arg.lowest < 0:
        raise ExecutionError(
            f"the views of %{arg.name} reach {-arg.lowest} element(s) before the pointer; the "
            "array passed for a pointer is the memory from the pointer on", _where(kernel))
    shape = arg.shape or ()
    upper = arg.upper_bounds or shape
    if given is not None:
        problem = arg.memory_problem(tuple(given.shape))
        if problem:
            raise ExecutionError(f"input %{arg.name} {problem}", _where(kernel))
        return tuple(given.shape)
    if any(u is None for u in upper):
        raise ExecutionError(
            f"the shape of %{arg.name} is not bounded; pass it as an input", _where(kernel))
    return tuple(int(u) for u in upper)


def _check_dtype(arg: ArgumentInfo, given: np.ndarray, kernel: Kernel) -> np.ndarray:
    et = element_type(arg.element_type)
    if given.dtype == et.value_dtype:
        return given
    if given.dtype == et.storage_dtype:  # raw codes (df16 / bf16 as uint16)
        return from_memory(et, given)
    raise ExecutionError(
        f"input %{arg.name} has dtype {given.dtype}; the kernel's element type "
        f"{et.name} needs {et.value_dtype}"
        + (f" (values) or {et.storage_dtype} (raw codes)" if et.storage_dtype != et.value_dtype else ""),
        _where(kernel))


@dataclass(frozen=True)
class AddressOutput:
    """A range of memory a kernel reaches through views at constant addresses (no pointer
    argument): an output (or input) like an argument's, keyed `name` (`global@0x...` or
    `ct_local(core 3)@0x...`, its first byte), `count` elements of `element_type` from
    element offset `offset` of `memory` ("global", or a core's scratchpad by its id)."""

    name: str
    offset: int
    count: int
    element_type: str
    memory: object = "global"

    @property
    def first_byte(self) -> int:
        return self.offset * element_type(self.element_type).size


def _constant_views(kernel: Kernel, scratchpads: bool = False, own: bool = False):
    """(view op, first element, last element) of every global view at a constant address
    whose extent is known (with `scratchpads`: of every view at a constant address in a
    scratchpad its `ct_id` names; with `own` too, in the executing tile's own): the
    elements its coordinate set can reach."""
    from spyre_sched.polyhedral.affine_values import AffineValues
    from spyre_sched.polyhedral.point_sets import bounding_box

    values = AffineValues(kernel.func)
    for op in kernel.func.walk():
        if not isinstance(op, ConstructMemoryViewOp):
            continue
        memories = _memories_of(op)
        if not (memories == [] and own) and (not memories
                                              or (memories != ["global"]) != scratchpads):
            continue
        offset = values.form(op.offset).constant
        sizes = [values.form(v).constant for v in op.sizes]
        dyn_strides = iter([values.form(v).constant for v in op.strides])
        strides = [next(dyn_strides) if st == DYNAMIC_INDEX else st
                   for st in op.static_strides.get_values()]
        if offset is None or None in sizes or None in strides:
            continue
        cset = op.coordinate_set.data
        lo, hi = bounding_box(cset, sizes[: cset.num_symbols])
        if (hi < lo).any():
            continue
        # a view's element address counts from its coordinate set's minimum
        spans = [(h - l) * st for l, h, st in zip(lo.tolist(), hi.tolist(), strides)]
        first = offset + sum(min(span, 0) for span in spans)
        last = offset + sum(max(span, 0) for span in spans)
        if last < 0:
            continue  # it reaches nothing of the memory (an offset far below 0)
        yield op, max(first, 0), last


def _memories_of(view: ConstructMemoryViewOp) -> list:
    """["global"], [the core whose scratchpad the view names], the cores a view printed
    after spyre-sched's normal form names per tile (`ktdf.owner_by_tile`), or [] (the
    executing tile's own scratchpad: another memory in each tile)."""
    space = view.memory_space
    if space.space == "global":
        return ["global"]
    owners = view.attributes.get("ktdf.owner_by_tile")
    if owners is not None and space.tile is not None:
        return sorted({int(c) for c in owners.get_values()})
    return [] if space.tile is None else [space.tile]


def constant_address_end(kernel: Kernel) -> int:
    """Bytes of device memory that views at constant addresses reach (0 if none): the
    producers' own tests often address device memory directly (`arith.constant 1024`)."""
    end = 0
    for op, _, last in _constant_views(kernel):
        size = element_type(element_name(op.result.type)).size
        end = max(end, (last + 1) * size)
    return end


def _scratchpad_placements(kernel: Kernel) -> dict[str, int]:
    """Argument -> element offset, for the pointer arguments a kernel printed after
    spyre-sched's `place-scratchpad-arguments` records as placed in scratchpads (their
    views read that place at a constant offset; the argument itself is unused)."""
    attr = kernel.func.attributes.get("ktdf.scratchpad_arguments")
    if attr is None:
        return {}
    return {name: entry.data["offset"].value.data for name, entry in attr.data.items()}


def scratchpad_constant_end(kernel: Kernel) -> int:
    """Bytes of a scratchpad that the kernel's own views at constant offsets reach, in
    any scratchpad (a named core's or the executing tile's own): a tensor the caller pins
    in a scratchpad is placed past them (KTIR: that region is the kernel's)."""
    end = 0
    for op, _, last in _constant_views(kernel, scratchpads=True, own=True):
        end = max(end, (last + 1) * element_type(element_name(op.result.type)).size)
    return end


def stored_address_ranges(kernel: Kernel | str | Path) -> list[AddressOutput]:
    """The outputs a kernel has besides its arguments: for every view at a constant
    address, in device memory or in a scratchpad its `ct_id` names (a tensor the kernel
    leaves pinned there), that a `ktdp.store` goes through, the elements it can reach
    (overlapping or adjacent ranges of one memory and element type merged), by memory and
    address. Both executors read them after a run and `spyre_sched.run` compares them
    like outputs."""
    kernel = as_kernel(kernel)
    stored = set()
    for op in kernel.func.walk():
        if isinstance(op, ktdp_ops.StoreOp):
            stored.update(_parts_of(op.tile.owner))
    return [a for a, _ in _address_ranges(kernel, stored)]


def loaded_address_ranges(kernel: Kernel | str | Path) -> list[AddressOutput]:
    """The inputs a kernel has besides its arguments: for every view at a constant
    address, in device memory or in a scratchpad its `ct_id` names, that a `ktdp.load`
    reads through (its tile's view, a part of it, or an index tensor of an indirect
    tile), the elements it can reach, merged like `stored_address_ranges`. A range that
    overlaps one of another element type is left out (its bytes are read as two things;
    nothing says which values they hold). `make_inputs` makes values for them and both
    executors place them before the run, so a kernel that copies from such memory is
    compared on data, not on the poison memory starts with."""
    return [a for a, _ in _address_inputs(as_kernel(kernel))]


def _address_inputs(kernel: Kernel) -> list[tuple[AddressOutput, list]]:
    """`loaded_address_ranges`, each with the views it covers."""
    loaded, everything = set(), set()
    for op in kernel.func.walk():
        if isinstance(op, ktdp_ops.LoadOp):
            loaded.update(_parts_of(op.tile.owner))
        elif isinstance(op, ConstructIndirectAccessTileOp):
            loaded.update(v.owner for v in op.index_views
                          if isinstance(v.owner, ConstructMemoryViewOp))
        elif isinstance(op, ConstructMemoryViewOp):
            everything.add(op)
    found = _address_ranges(kernel, loaded)
    others = _address_ranges(kernel, everything)
    keep = []
    for a, views in found:
        first, last = a.first_byte, a.first_byte + a.count * element_type(a.element_type).size
        clash = any(b.element_type != a.element_type and b.memory == a.memory
                    and b.first_byte < last
                    and first < b.first_byte + b.count * element_type(b.element_type).size
                    for b, _ in others)
        if not clash:
            keep.append((a, views))
    return keep


def _parts_of(tile) -> set:
    """The memory views an access tile reaches: its view, or a distributed view's parts."""
    view = getattr(tile, "view", None)
    owner = view.owner if view is not None else None
    parts = ([v.owner for v in owner.views]
             if isinstance(owner, ConstructDistributedMemoryViewOp) else [owner])
    return {p for p in parts if isinstance(p, ConstructMemoryViewOp)}


def _address_ranges(kernel: Kernel, views: set) -> list[tuple[AddressOutput, list]]:
    """The elements the views at constant addresses among `views` (in device memory or a
    named core's scratchpad) can reach, overlapping or adjacent ranges of one memory and
    element type merged, by memory and address; each with the views it covers."""
    ranges: dict[tuple, list[tuple[int, int, object]]] = {}
    for op, first, last in [*_constant_views(kernel), *_constant_views(kernel, True)]:
        if op in views:
            for memory in _memories_of(op):
                key = (memory, element_name(op.result.type))
                ranges.setdefault(key, []).append((first, last, op))
    found = []
    for (memory, et), spans in ranges.items():
        merged: list[list] = []
        for first, last, op in sorted(spans, key=lambda span: span[:2]):
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
                merged[-1][2].append(op)
            else:
                merged.append([first, last, [op]])
        size = element_type(et).size
        where = "global" if memory == "global" else f"ct_local(core {memory})"
        found += [(AddressOutput(f"{where}@{first * size:#x}", first, last - first + 1, et,
                                 memory), ops)
                  for first, last, ops in merged]
    return sorted(found, key=lambda a: (str(a[0].memory), a[0].first_byte, a[0].name))


def _bounded_arguments(kernel: Kernel, runtime_args: dict) -> list[ArgumentInfo]:
    """The kernel's arguments; a dynamic extent with no static upper bound (a run-time
    argument that declares none) is bounded by the run-time values given, if any."""
    setup = kernel_setup(kernel)
    args = list(setup.arguments)  # the caller's own list; the entries are frozen
    if not any(a.upper_bounds and None in a.upper_bounds for a in args):
        return args
    block = kernel.func.body.block
    bindings = {}
    for info in args:
        type_ = block.args[info.position].type
        if isinstance(type_, RuntimeArgType) and info.name in runtime_args:
            bindings[info.name] = _runtime_value(info, type_, runtime_args, kernel).value
        elif info.name in runtime_args and isinstance(runtime_args[info.name], int):
            bindings[info.name] = runtime_args[info.name]
    if not bindings:
        return args
    key = tuple(sorted((name, (type(v).__name__, v)) for name, v in bindings.items()))
    cached = setup.bounded.get(key)
    if cached is not None:
        return list(cached)
    bound = {a.position: a for a in infer_arguments(
        kernel.func, KernelModel(kernel.func, bindings=bindings))}
    result = []
    for info in args:
        if info.upper_bounds and None in info.upper_bounds:
            given = bound[info.position].upper_bounds or ()
            if len(given) != len(info.upper_bounds):
                # its layout itself depends on the values (a stride given at run time)
                info = bound[info.position]
            else:
                uppers = tuple(u if u is not None else g
                               for u, g in zip(info.upper_bounds, given))
                info = dataclasses.replace(info, upper_bounds=uppers)
        result.append(info)
    if len(setup.bounded) >= _BOUNDED_CACHE_SIZE:
        setup.bounded.pop(next(iter(setup.bounded)))  # the oldest binding
    setup.bounded[key] = result
    return list(result)


def _runtime_value(arg, type_, runtime_args: dict, kernel: Kernel) -> RuntimeArg:
    if arg.name not in runtime_args:
        raise ExecutionError(f"missing run-time argument %{arg.name}", _where(kernel))
    given = runtime_args[arg.name]
    g, u = type_.granularity_value, type_.upperbound_value
    if not isinstance(type_.value_type, IndexType | IntegerType):
        return RuntimeArg(given, g, u)  # a float run-time argument: no bounds to check
    if isinstance(given, float) and not given.is_integer():
        raise ExecutionError(
            f"run-time argument %{arg.name} is an integer, not {given}", _where(kernel))
    value = int(given)
    if value <= 0 or (g is not None and value % g) or (u is not None and value > u):
        rules = (["a positive integer"] + ([f"a multiple of its granularity {g}"] if g else [])
                 + ([f"at most its upperbound {u}"] if u else []))
        raise ExecutionError(
            f"run-time argument %{arg.name} = {value} must be {', '.join(rules)}",
            _where(kernel))
    return RuntimeArg(value, g, u)


def run(
    kernel: Kernel | str | Path,
    inputs: dict[str, np.ndarray],
    runtime_args: dict[str, int] | None = None,
    scratchpad_bytes: int | None = None,
    device=None,
    memory_cap: int = DEFAULT_MEMORY_CAP,
) -> dict[str, np.ndarray]:
    """Execute `kernel` on every compute tile; return its outputs keyed by argument name.

    The scratchpad size per tile is `scratchpad_bytes`, else that of `device` (a
    `spyre_sched.device` Device, or a device name / path), else 2 MiB. A run whose
    simulated memory would exceed `memory_cap` bytes is refused before allocating.
    """
    return _launch(kernel, inputs, runtime_args, scratchpad_bytes, device, memory_cap)[0]


def run_with_error_bounds(
    kernel: Kernel | str | Path,
    inputs: dict[str, np.ndarray],
    accumulator: str,
    runtime_args: dict[str, int] | None = None,
    scratchpad_bytes: int | None = None,
    device=None,
    memory_cap: int = DEFAULT_MEMORY_CAP,
    max_roundings: int | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """`run`, plus per output the bound of how far an executor that sums float reductions
    in another order, in `accumulator`, may lie from each element (0: bit for bit). The
    rule is docs/numerics.md's; `emulator.numerics.compare_with_bound` applies it.
    `max_roundings`: the most accumulator roundings the executor's order takes any term of
    a sum through (a bundle's summation depth); None allows any order."""
    return _launch(kernel, inputs, runtime_args, scratchpad_bytes, device, memory_cap,
                   accumulator, max_roundings)


def _launch(kernel, inputs, runtime_args, scratchpad_bytes, device, memory_cap,
            accumulator: str | None = None, max_roundings: int | None = None):
    # Floating-point exceptions give their IEEE results and never a warning: every
    # numerics routine says so with its own errstate; one for the whole launch lets the
    # hot paths (`ops_upstream._arith`) skip theirs.
    with np.errstate(all="ignore"):
        return _launch_quietly(kernel, inputs, runtime_args, scratchpad_bytes, device,
                               memory_cap, accumulator, max_roundings)


def _launch_quietly(kernel, inputs, runtime_args, scratchpad_bytes, device, memory_cap,
                    accumulator: str | None = None, max_roundings: int | None = None):
    kernel = as_kernel(kernel)
    if isinstance(device, (str, Path)):
        from spyre_sched.device import load_device

        device = load_device(device)
    if device is not None:
        if scratchpad_bytes is None:
            scratchpad_bytes = device.scratchpad_bytes
        kernel = as_the_device_defines(kernel, device)  # e.g. its silu: x * sigmoid(x)
    runtime_args = dict(runtime_args or {})
    inputs = dict(inputs)
    args = _bounded_arguments(kernel, runtime_args)
    block = kernel.func.body.block
    names = {a.name for a in args}
    setup = kernel_setup(kernel)
    if setup.address_inputs is None:
        setup.address_inputs = loaded_address_ranges(kernel)
    names |= {a.name for a in setup.address_inputs}
    for key in list(inputs) + list(runtime_args):
        if key not in names:
            at = [a.name for a in setup.address_inputs]
            raise ExecutionError(
                f"'{key}' is not an argument of @{kernel.name} (its arguments: "
                f"{', '.join('%' + a.name for a in args) or 'none'}; its inputs at constant "
                f"addresses: {', '.join(at) or 'none'}"
                + ("; memory read through a constant address is an input only where no "
                   "view of another element type overlaps it" if "@0x" in key else "")
                + ")", _where(kernel))
    for arg in args:
        if arg.name in runtime_args and arg.role in POINTER_ROLES:
            raise ExecutionError(
                f"run-time argument %{arg.name} names a pointer argument (a tensor, "
                f"{arg.role}); run-time arguments give scalars and !ktdp.runtime_arg values, "
                "tensors come as input arrays", _where(kernel))

    # Arguments: values for scalars and run-time arguments, placements for pointers.
    needs: list[tuple[str, int]] = []
    bound: list[object] = [None] * len(args)
    placements: list[Placement] = []
    # Views at constant element addresses (no pointer argument) own device memory from 0
    # up to the highest address they can reach; pointer arguments are placed after it.
    cursors: dict[object, int] = {}
    setup = kernel_setup(kernel)
    if setup.constant_end is None:
        setup.constant_end = constant_address_end(kernel)
    fixed_end = setup.constant_end
    _refuse_above_cap("views at constant addresses", [("device memory from 0", fixed_end)],
                      memory_cap, kernel)
    if fixed_end:
        cursors["global"] = align_up(fixed_end)
    num_tiles = kernel.num_tiles
    placed = _scratchpad_placements(kernel)
    if setup.scratchpad_constant_end is None:
        setup.scratchpad_constant_end = scratchpad_constant_end(kernel)
    # arguments pinned in scratchpads go past the kernel's own regions there
    scratch_start = align_up(setup.scratchpad_constant_end)
    for arg in args:
        type_ = block.args[arg.position].type
        if isinstance(type_, RuntimeArgType):
            bound[arg.position] = _runtime_value(arg, type_, runtime_args, kernel)
            continue
        if arg.role not in POINTER_ROLES:
            if isinstance(type_, MemRefType):
                # a view passed in is not something a launch can give: a kernel takes
                # pointers (index) and builds its views itself
                raise ExecutionError(
                    f"argument %{arg.name} is a {type_}: the reference runs kernels whose "
                    "arguments are pointers (index) or scalars, and builds views from them "
                    "with ktdp.construct_memory_view", _where(kernel))
            source = runtime_args if arg.name in runtime_args else inputs
            if arg.name not in source and arg.name in placed:
                # a pointer spyre-sched placed in scratchpads (a kernel printed after
                # that pass): its views read the place, its value is the offset
                bound[arg.position] = placed[arg.name]
                continue
            if arg.name not in source:
                raise ExecutionError(f"missing scalar argument %{arg.name}: give its value "
                                     f"(`--arg {arg.name}=VALUE`; `runtime_args` in the Python "
                                     "API)", _where(kernel))
            value = source[arg.name]
            bound[arg.position] = int(value) if isinstance(type_, IndexType) else np.asarray(value)
            continue
        given = inputs.get(arg.name)
        if given is None and arg.role in ("in", "inout"):
            raise ExecutionError(f"missing input %{arg.name}", _where(kernel))
        if isinstance(given, WindowedInput):
            inputs[arg.name] = WindowedInput(given.shape, given.lo,
                                             _check_dtype(arg, given.values, kernel))
        elif given is not None:
            given = _check_dtype(arg, np.asarray(given), kernel)
            inputs[arg.name] = given
        shape = _expected_shape(arg, given, kernel)
        space = _space_of(arg, kernel)
        size = element_type(arg.element_type).size
        placement = Placement(arg, space, 0, shape,
                              setup.layout(kernel.func, arg.position) if space == DISTRIBUTED
                              else None)
        if space == DISTRIBUTED and placement.layout is None:
            raise UnsupportedError(
                f"argument %{arg.name} is spread over several scratchpads by views with "
                "run-time sizes or strides, or an offset pointer: the runner can only place "
                "a distributed tensor whose views start at the argument with static "
                "layouts", _where(kernel))
        count = placement.layout.size() if space == DISTRIBUTED else math.prod(shape)
        if (arg.role == "in" and space == "global"
                and (count * size > memory_cap or isinstance(given, WindowedInput))):
            # Too large to hold whole: allocate only the addresses the kernel touches.
            model = setup.kernel_model(kernel.func)
            placement.window = touched_address_range(model, arg.position)
            if isinstance(given, WindowedInput) and (
                    placement.window is None or given.lo != placement.window[0]
                    or len(given.values) != placement.window[1] - placement.window[0] + 1):
                raise ExecutionError(
                    f"input %{arg.name} gives elements {given.lo}.."
                    f"{given.lo + len(given.values) - 1}, but the kernel touches "
                    f"{'an unbounded part' if placement.window is None else placement.window}",
                    _where(kernel))
            if placement.window is not None:
                count = placement.window[1] - placement.window[0] + 1
        needs.append((f"%{arg.name}", max(count, 1) * size * len(placement.keys(num_tiles))))
        keys = placement.keys(num_tiles)
        start = max(cursors.get(k, 0 if k == "global" else scratch_start) for k in keys)
        for k in keys:
            cursors[k] = align_up(start + max(count, 1) * size)
        placement.offset = start // size - (placement.window[0] if placement.window else 0)
        placements.append(placement)
        bound[arg.position] = placement.offset

    capacity = scratchpad_bytes or DEFAULT_SCRATCHPAD_BYTES
    for key, end in cursors.items():
        if key != "global" and end > capacity:
            raise ExecutionError(
                f"the arguments pinned in tile {key}'s scratchpad need {end} bytes, more "
                f"than its {capacity}", _where(kernel))
    needs.append((f"scratchpads ({num_tiles} x {capacity})", num_tiles * capacity))
    _refuse_above_cap(f"running @{kernel.name} on the reference interpreter", needs,
                      memory_cap, kernel)
    memory = DeviceMemory(cursors.get("global", 0), num_tiles, capacity)
    machine = Machine(kernel, memory, kernel.grid, Exchange(num_tiles),
                      errors=None if accumulator is None
                      else ErrorTracking(accumulator, memory, max_roundings))
    for a in setup.address_inputs:  # memory read through constant addresses
        if a.name in inputs:
            et = element_type(a.element_type)
            raw = to_memory(et, np.asarray(inputs[a.name])).reshape(-1)
            if raw.size != a.count:
                raise ExecutionError(f"input {a.name} has {raw.size} elements; the kernel's "
                                     f"views at that address reach {a.count}", _where(kernel))
            try:
                memory.adopt(a.memory, a.first_byte, raw)
            except ValueError as err:  # past the end of a scratchpad
                raise ExecutionError(f"input {a.name}: {err}", _where(kernel)) from None
    for p in placements:
        et = element_type(p.arg.element_type)
        given = inputs.get(p.arg.name)
        if isinstance(given, WindowedInput):
            p.write(memory, to_memory(et, given.values).reshape(-1), num_tiles)
        elif given is not None:
            if p.window is not None:
                lo, hi = p.window
                given = np.asarray(given).reshape(-1)[lo : hi + 1]
            p.write(memory, to_memory(et, given).reshape(-1), num_tiles)
        if p.arg.shape and any(d is None for d in p.arg.shape) and p.space != "own":
            machine.watched[(p.space, p.offset)] = []

    executors = [TileExecutor(machine, t) for t in range(num_tiles)]
    run_round_robin(
        [(ex.tile, _run_tile(ex, block, bound)) for ex in executors], kernel.location_of
    )

    for p in placements:
        if p.arg.name in inputs and (p.space, p.offset) in machine.watched:
            spanned = _final_shape(p, machine)
            if any(s > g for s, g in zip(spanned, p.shape)):
                raise ExecutionError(
                    f"input %{p.arg.name} has shape {list(p.shape)} but the kernel's views of "
                    f"it span {list(spanned)} at run time", _where(kernel))

    outputs, bounds = {}, {}
    if setup.address_outputs is None:
        setup.address_outputs = stored_address_ranges(kernel)
    for a in setup.address_outputs:  # ranges stored through constant addresses
        et = element_type(a.element_type)
        raw = memory.elements(a.memory, np.dtype(et.storage_dtype))[a.offset:a.offset + a.count]
        outputs[a.name] = from_memory(et, raw.copy())
        if machine.errors is not None:
            shadow = machine.errors.view(et.size, create=False).elements(a.memory)
            bounds[a.name] = (np.zeros(a.count) if shadow is None
                              else shadow[a.offset:a.offset + a.count].copy())
    for p in placements:
        if p.arg.role not in ("out", "inout"):
            continue
        # the array given for it is the memory read back, whole (an inout's input array
        # made at a run-time shape's upper bound included); else what the views reached
        shape = p.shape if p.arg.name in inputs else _final_shape(p, machine)
        et = element_type(p.arg.element_type)
        raw = p.read(memory, np.dtype(et.storage_dtype), shape, num_tiles)
        outputs[p.arg.name] = from_memory(et, raw).reshape(shape)
        if machine.errors is not None:
            bounds[p.arg.name] = read_output(machine.errors, p, shape, num_tiles)
    return outputs, bounds


def _run_tile(executor: TileExecutor, block, bound):
    """One tile's coroutine: its values are dropped as soon as it returns, so the next tile
    reuses their memory (32 tiles' 1 MB results alive at once cost fresh pages each)."""
    try:
        return (yield from executor.run_block(block, bound))
    finally:
        executor.env.clear()
        if executor.errors is not None:
            executor.errors.clear()


def _final_shape(p: Placement, machine: Machine) -> tuple[int, ...]:
    """The allocated shape, or for a run-time shape the extents its views had."""
    seen = machine.watched.get((p.space, p.offset))
    given = p.arg.shape or ()
    if not seen or all(d is not None for d in given):
        return p.shape
    lo = hi = None
    for cset, symbols in seen:
        if cset.num_dims != len(p.shape):
            continue
        points_lo = affine_sets.minimum(cset, symbols)
        bounds = affine_sets.box_bounds(cset, symbols)
        top = [b[1] for b in bounds] if bounds is not None else None
        if top is None:
            from spyre_sched.polyhedral.point_sets import bounding_box

            top = [int(v) for v in bounding_box(cset, symbols)[1]]
        lo = points_lo if lo is None else [min(a, b) for a, b in zip(lo, points_lo)]
        hi = top if hi is None else [max(a, b) for a, b in zip(hi, top)]
    if lo is None:
        return p.shape
    return tuple(d if d is not None else h - l + 1 for d, l, h in zip(given, lo, hi))


# ---- seeded inputs ------------------------------------------------------------------


def make_inputs(
    kernel: Kernel | str | Path, seed: int = 0, runtime_args: dict[str, int] | None = None,
    memory_cap: int = DEFAULT_MEMORY_CAP,
) -> dict[str, np.ndarray]:
    """Seeded random inputs for every in/inout pointer argument: floats uniform in [-2, 2]
    rounded to the element type; index tensors within the coordinates they select;
    other integers small and non-negative. Dynamic extents take their upper bound."""
    kernel = as_kernel(kernel)
    rng = np.random.default_rng(seed)
    setup = kernel_setup(kernel)
    if setup.index_ranges is None:
        setup.index_ranges = _index_ranges(kernel)
    ranges = setup.index_ranges
    scattered = _scattered_indexes(kernel)
    out = {}
    shapes = {}
    for arg in _bounded_arguments(kernel, runtime_args or {}):
        if arg.role not in ("in", "inout"):
            continue
        shape = tuple(
            d if d is not None else u for d, u in zip(arg.shape or (), arg.upper_bounds or ())
        )
        if any(d is None for d in shape):
            raise ExecutionError(
                f"cannot make an input for %{arg.name}: its shape is unbounded (give the "
                "run-time sizes it depends on, e.g. --arg NAME=VALUE, or --inputs)",
                _where(kernel))
        shapes[arg.name] = (arg, shape)
    # A float input whose whole tensor would pass the memory cap is made as a window of
    # the elements the kernel touches: the same values the whole tensor would hold there
    # (the generator skips the rest: one 64-bit draw per float).
    windows: dict[str, tuple[int, int]] = {}
    for name, (arg, shape) in shapes.items():
        if 8 * math.prod(shape) > memory_cap and element_type(arg.element_type).is_float:
            touched = touched_address_range(setup.kernel_model(kernel.func), arg.position)
            if touched is not None:
                windows[name] = touched
    addresses = _address_inputs(kernel)
    # float64 draws before rounding: 8 bytes per element while an input is made
    _refuse_above_cap(
        "making the random inputs",
        [(f"%{name}", 8 * (windows[name][1] - windows[name][0] + 1 if name in windows
                           else math.prod(shape)))
         for name, (_, shape) in shapes.items()]
        + [(address.name, 8 * address.count) for address, _ in addresses], memory_cap, kernel)
    for arg, shape in shapes.values():
        et = element_type(arg.element_type)
        if arg.name in windows:
            lo, hi = windows[arg.name]
            rng.bit_generator.advance(lo)
            values = round_to(et, rng.uniform(-2.0, 2.0, size=hi - lo + 1))
            rng.bit_generator.advance(math.prod(shape) - hi - 1)
            out[arg.name] = WindowedInput(shape, lo, values)
        elif et.is_float:
            out[arg.name] = round_to(et, rng.uniform(-2.0, 2.0, size=shape))
        else:
            lo, hi = ranges.get(arg.position, (0, 7))
            if et.width == 1:
                lo, hi = 0, 1
            n = math.prod(shape)
            if arg.position in scattered and n <= hi - lo + 1:
                # a scatter's indices must be distinct (docs/ktir.md): a random selection
                picked = rng.permutation(hi - lo + 1)[:n] + lo
                out[arg.name] = picked.reshape(shape).astype(et.value_dtype)
                continue
            out[arg.name] = rng.integers(lo, hi + 1, size=shape).astype(et.value_dtype)
    # memory read through views at constant addresses (after the arguments: their values
    # do not change); index tensors within the coordinates they select
    scattered_views = _scattered_index_views(kernel)
    for address, views in addresses:
        et = element_type(address.element_type)
        if et.is_float:
            out[address.name] = round_to(et, rng.uniform(-2.0, 2.0, size=address.count))
            continue
        lo, hi = _address_index_range(kernel, views) or (0, 7)
        if scattered_views.intersection(views) and address.count <= hi - lo + 1:
            # a scatter's indices must be distinct, as for an argument
            picked = rng.permutation(hi - lo + 1)[:address.count] + lo
            out[address.name] = picked.astype(et.value_dtype)
        else:
            out[address.name] = rng.integers(lo, hi + 1, size=address.count).astype(
                et.value_dtype)
    return out


def _scattered_indexes(kernel: Kernel) -> set[int]:
    """Argument positions of the index tensors of indirect tiles that a store writes."""
    block = kernel.func.body.block
    return {view.offset.index for view in _scattered_index_views(kernel)
            if view.offset.owner is block}


def _scattered_index_views(kernel: Kernel) -> set:
    """The views of the index tensors of indirect tiles that a store writes."""
    found = set()
    for op in kernel.func.walk():
        if isinstance(op, ConstructIndirectAccessTileOp) and any(
                isinstance(u.operation, StoreOp) for u in op.result.uses):
            found.update(v.owner for v in op.index_views
                         if isinstance(v.owner, ConstructMemoryViewOp))
    return found


def _index_ranges(kernel: Kernel) -> dict[int, tuple[int, int]]:
    """Argument position -> (lo, hi) of the coordinates an index tensor selects."""
    block = kernel.func.body.block
    ranges: dict[int, tuple[int, int]] = {}
    for source, lo, hi in _index_selections(kernel):
        if source.offset.owner is not block:
            continue
        pos = source.offset.index
        old = ranges.get(pos)
        ranges[pos] = (lo, hi) if old is None else (max(lo, old[0]), min(hi, old[1]))
    return ranges


def _address_index_range(kernel: Kernel, views: list) -> tuple[int, int] | None:
    """(lo, hi) the index tensors among `views` (at constant addresses) all select."""
    found = None
    for source, lo, hi in _index_selections(kernel):
        if source in views:
            found = (lo, hi) if found is None else (max(lo, found[0]), min(hi, found[1]))
    return found


def _index_selections(kernel: Kernel):
    """(index tensor's view, lo, hi) for every index subscript of an indirect tile: the
    coordinates it selects along its dim of the gathered view (every part's bounds)."""
    for op in kernel.func.walk():
        if not isinstance(op, ConstructIndirectAccessTileOp):
            continue
        target = op.view.owner
        parts = (
            [v.owner for v in target.views]
            if isinstance(target, ConstructDistributedMemoryViewOp) else [target]
        )
        for k, j in enumerate(op.ind_dims.get_values()):
            if j < 0:
                continue
            source = op.index_views[j].owner
            if not isinstance(source, ConstructMemoryViewOp):
                continue
            bounds = []
            for part in parts:
                b = (
                    affine_sets.box_bounds(part.coordinate_set.data, [])
                    if isinstance(part, ConstructMemoryViewOp)
                    and part.coordinate_set.data.num_symbols == 0 else None
                )
                if b is None:
                    bounds = None
                    break
                bounds.append(b[k])
            if bounds:
                yield source, min(b[0] for b in bounds), max(b[1] for b in bounds)
