"""Launch a kernel on the reference interpreter: place arguments, run every tile, read back.

Pointer arguments are placed in argument order, each 128-byte aligned, in global memory, or
in the scratchpad their views name when the kernel pins an input there (`ct_local`). The
kernel receives element offsets. Outputs (roles out / inout) come back keyed by argument name.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import IndexType

from emulator.numerics import element_type, from_memory, round_to, to_memory
from emulator.reference import affine_sets, linalg, ops_ktdp, ops_upstream  # noqa: F401
from emulator.reference.exchange import Exchange
from emulator.reference.interpreter import TileExecutor
from emulator.reference.layout import ArgumentLayout, layout_of
from emulator.reference.machine import Machine
from emulator.reference.memory import DEFAULT_SCRATCHPAD_BYTES, DeviceMemory, align_up
from emulator.reference.ops_ktdp import RuntimeArg
from emulator.reference.tile_scheduler import run_round_robin
from spyre_sched.dialects.ktdp import (
    ConstructDistributedMemoryViewOp,
    ConstructIndirectAccessTileOp,
    ConstructMemoryViewOp,
    RuntimeArgType,
)
from spyre_sched.errors import ExecutionError, UnsupportedError
from spyre_sched.frontend import Kernel, load_kernel, parse_kernel
from spyre_sched.frontend.arguments import ArgumentInfo, infer_arguments

POINTER_ROLES = ("in", "out", "inout", "unused")


def as_kernel(kernel: Kernel | str | Path) -> Kernel:
    """A Kernel, a path to a .mlir file, or KTIR text."""
    if isinstance(kernel, Kernel):
        return kernel
    if isinstance(kernel, Path) or ("\n" not in kernel and os.path.exists(kernel)):
        return load_kernel(kernel)
    return parse_kernel(kernel, "<input>")


#: what one argument may occupy in the simulated memory (this machine has 24 GiB)
MAX_ARGUMENT_BYTES = 4 << 30


#: the space of an argument whose views spread it over several scratchpads
DISTRIBUTED = "distributed"


@dataclass
class Placement:
    arg: ArgumentInfo
    #: "global", a tile id, "own" (every tile's own scratchpad) or DISTRIBUTED (each part
    #: of the layout in the scratchpad its view names, at the same offset)
    space: object
    offset: int  # element offset
    shape: tuple[int, ...]  # allocated shape (upper bounds where dynamic)
    layout: ArgumentLayout | None = None  # the views' strided layout; None: row-major

    def strided(self) -> bool:
        return self.layout is not None and not self.layout.is_row_major(self.shape)

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
        elif self.strided():
            index, address = self.layout.element_addresses(shape)
            for key in self.keys(num_tiles):
                yield key, index, address
        else:
            for key in self.keys(num_tiles):
                yield key, None, None

    def write(self, memory: DeviceMemory, raw: np.ndarray, num_tiles: int) -> None:
        for key, index, address in self._pieces(self.shape, num_tiles):
            elements = memory.elements(key, raw.dtype)
            if address is None:
                elements[self.offset : self.offset + raw.size] = raw
            else:
                elements[self.offset + address] = raw[index]

    def read(self, memory: DeviceMemory, dtype, shape, num_tiles: int) -> np.ndarray:
        count = int(np.prod(shape)) if shape else 1
        pieces = list(self._pieces(shape, num_tiles))
        if len(pieces) == 1 and pieces[0][2] is None:  # one contiguous block
            return memory.elements(pieces[0][0], dtype)[self.offset : self.offset + count].copy()
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
    """The shape to allocate for a pointer argument (checking a given input against it)."""
    shape = arg.shape or ()
    upper = arg.upper_bounds or shape
    if given is not None:
        ok = len(given.shape) == len(shape) and all(
            (d == g) if d is not None else (u is None or g <= u)
            for d, u, g in zip(shape, upper, given.shape)
        )
        if not ok:
            want = "x".join("?" if d is None else str(d) for d in shape) or "scalar"
            raise ExecutionError(
                f"input %{arg.name} has shape {list(given.shape)}, the kernel expects [{want}]",
                _where(kernel))
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


def _runtime_value(arg, type_, runtime_args: dict, kernel: Kernel) -> RuntimeArg:
    if arg.name not in runtime_args:
        raise ExecutionError(f"missing run-time argument %{arg.name}", _where(kernel))
    value = int(runtime_args[arg.name])
    g, u = type_.granularity.data, type_.upperbound.data
    if value <= 0 or value % g or value > u:
        raise ExecutionError(
            f"run-time argument %{arg.name} = {value} must be a positive multiple of its "
            f"granularity {g} and at most its upperbound {u}", _where(kernel))
    return RuntimeArg(value, g, u)


def run(
    kernel: Kernel | str | Path,
    inputs: dict[str, np.ndarray],
    runtime_args: dict[str, int] | None = None,
    scratchpad_bytes: int | None = None,
    device=None,
) -> dict[str, np.ndarray]:
    """Execute `kernel` on every compute tile; return its outputs keyed by argument name.

    The scratchpad size per tile is `scratchpad_bytes`, else that of `device` (a
    `spyre_sched.device` Device, or a device name / path), else 2 MiB.
    """
    kernel = as_kernel(kernel)
    if scratchpad_bytes is None and device is not None:
        if isinstance(device, (str, Path)):
            from spyre_sched.device import load_device

            device = load_device(device)
        scratchpad_bytes = device.scratchpad_bytes
    runtime_args = dict(runtime_args or {})
    inputs = dict(inputs)
    args = infer_arguments(kernel.func)
    block = kernel.func.body.block
    names = {a.name for a in args}
    for key in list(inputs) + list(runtime_args):
        if key not in names:
            raise ExecutionError(
                f"'{key}' is not an argument of @{kernel.name} (its arguments: "
                f"{', '.join('%' + a.name for a in args)})", _where(kernel))

    # Arguments: values for scalars and run-time arguments, placements for pointers.
    bound: list[object] = [None] * len(args)
    placements: list[Placement] = []
    cursors: dict[object, int] = {}
    num_tiles = kernel.num_tiles
    for arg in args:
        type_ = block.args[arg.position].type
        if isinstance(type_, RuntimeArgType):
            bound[arg.position] = _runtime_value(arg, type_, runtime_args, kernel)
            continue
        if arg.role not in POINTER_ROLES:
            source = runtime_args if arg.name in runtime_args else inputs
            if arg.name not in source:
                raise ExecutionError(f"missing scalar argument %{arg.name}", _where(kernel))
            value = source[arg.name]
            bound[arg.position] = int(value) if isinstance(type_, IndexType) else np.asarray(value)
            continue
        given = inputs.get(arg.name)
        if given is None and arg.role in ("in", "inout"):
            raise ExecutionError(f"missing input %{arg.name}", _where(kernel))
        if given is not None:
            given = _check_dtype(arg, np.asarray(given), kernel)
            inputs[arg.name] = given
        shape = _expected_shape(arg, given, kernel)
        space = _space_of(arg, kernel)
        size = element_type(arg.element_type).size
        placement = Placement(arg, space, 0, shape, layout_of(kernel.func, arg.position))
        if space == DISTRIBUTED and placement.layout is None:
            raise UnsupportedError(
                f"argument %{arg.name} is spread over several scratchpads by views with "
                "run-time sizes or strides, or an offset pointer: the runner can only place "
                "a distributed tensor whose views start at the argument with static "
                "layouts", _where(kernel))
        count = (placement.layout.size() if placement.strided() or space == DISTRIBUTED
                 else int(np.prod(shape)))
        if count * size > MAX_ARGUMENT_BYTES:
            raise ExecutionError(
                f"argument %{arg.name} spans {count * size} bytes of memory through its "
                f"views; the reference interpreter holds at most {MAX_ARGUMENT_BYTES} per "
                "argument", _where(kernel))
        keys = placement.keys(num_tiles)
        start = max(cursors.get(k, 0) for k in keys)
        for k in keys:
            cursors[k] = align_up(start + max(count, 1) * size)
        placement.offset = start // size
        placements.append(placement)
        bound[arg.position] = start // size

    capacity = scratchpad_bytes or DEFAULT_SCRATCHPAD_BYTES
    for key, end in cursors.items():
        if key != "global" and end > capacity:
            raise ExecutionError(
                f"the arguments pinned in tile {key}'s scratchpad need {end} bytes, more "
                f"than its {capacity}", _where(kernel))
    memory = DeviceMemory(cursors.get("global", 0), num_tiles, capacity)
    machine = Machine(kernel, memory, kernel.grid, Exchange(num_tiles))
    for p in placements:
        et = element_type(p.arg.element_type)
        given = inputs.get(p.arg.name)
        if given is not None:
            p.write(memory, to_memory(et, given).reshape(-1), num_tiles)
        if p.arg.shape and any(d is None for d in p.arg.shape) and p.space != "own":
            machine.watched[(p.space, p.offset)] = []

    executors = [TileExecutor(machine, t) for t in range(num_tiles)]
    run_round_robin(
        [(ex.tile, ex.run_block(block, bound)) for ex in executors], kernel.location_of
    )

    for p in placements:
        if p.arg.name in inputs and (p.space, p.offset) in machine.watched:
            spanned = _final_shape(p, machine)
            if any(s > g for s, g in zip(spanned, p.shape)):
                raise ExecutionError(
                    f"input %{p.arg.name} has shape {list(p.shape)} but the kernel's views of "
                    f"it span {list(spanned)} at run time", _where(kernel))

    outputs = {}
    for p in placements:
        if p.arg.role not in ("out", "inout"):
            continue
        shape = _final_shape(p, machine)
        et = element_type(p.arg.element_type)
        raw = p.read(memory, np.dtype(et.storage_dtype), shape, num_tiles)
        outputs[p.arg.name] = from_memory(et, raw).reshape(shape)
    return outputs


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
    kernel: Kernel | str | Path, seed: int = 0, runtime_args: dict[str, int] | None = None
) -> dict[str, np.ndarray]:
    """Seeded random inputs for every in/inout pointer argument: floats uniform in [-2, 2]
    rounded to the element type; index tensors within the coordinates they select;
    other integers small and non-negative. Dynamic extents take their upper bound."""
    kernel = as_kernel(kernel)
    rng = np.random.default_rng(seed)
    ranges = _index_ranges(kernel)
    out = {}
    for arg in infer_arguments(kernel.func):
        if arg.role not in ("in", "inout"):
            continue
        shape = tuple(
            d if d is not None else u for d, u in zip(arg.shape or (), arg.upper_bounds or ())
        )
        if any(d is None for d in shape):
            raise ExecutionError(
                f"cannot make an input for %{arg.name}: its shape is unbounded", _where(kernel))
        et = element_type(arg.element_type)
        if et.is_float:
            out[arg.name] = round_to(et, rng.uniform(-2.0, 2.0, size=shape))
        else:
            lo, hi = ranges.get(arg.position, (0, 7))
            if et.width == 1:
                lo, hi = 0, 1
            out[arg.name] = rng.integers(lo, hi + 1, size=shape).astype(et.value_dtype)
    return out


def _index_ranges(kernel: Kernel) -> dict[int, tuple[int, int]]:
    """Argument position -> (lo, hi) of the coordinates an index tensor selects."""
    block = kernel.func.body.block
    ranges: dict[int, tuple[int, int]] = {}
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
            if not isinstance(source, ConstructMemoryViewOp) or source.offset.owner is not block:
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
            if not bounds:
                continue
            lo, hi = min(b[0] for b in bounds), max(b[1] for b in bounds)
            pos = source.offset.index
            old = ranges.get(pos)
            ranges[pos] = (lo, hi) if old is None else (max(lo, old[0]), min(hi, old[1]))
    return ranges
