"""Pass `place-scratchpad-arguments` (on KTIR, before the legality check and the normal
form, so that every later pass sees the kernel's scratchpad bytes as constants): a pointer
argument whose every view lies in a scratchpad (`ct_local`: a named core's, the executing
tile's own, or the parts of a distributed view) gets its place chosen here, and its views
that place as a constant.

Such an argument is a tensor the caller pins in scratchpads before the launch. The
scheduler plans every scratchpad byte at compile time (its staging buffers must never
overlap a region the kernel pins), so the compiler chooses the address: past everything
the kernel pins at constant offsets, aligned like the scratchpad slots, the arguments one
after another, at the same offset in every scratchpad they use. The function records the
choice (`ktdf.scratchpad_arguments`: per argument its element offset, element type,
shape, role, and the core or the parts holding it); the job plan passes it on, and the
runtime places the tensor there as its views lay it out and reads an output back from
there.

An argument used any other way (an offset computed from it, a view in device memory too)
keeps its pointer, and the scheduler's refusal of a scratchpad view at an offset that is
not a constant stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    i64,
)
from xdsl.ir import BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.normalize.common import kernel_of
from spyre_sched.normalize.scratchpad_slots import aligned, pinned_end, view_reach
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.polyhedral.views import element_bytes
from spyre_sched.schedule.common import DEVICE_ATTR, device_of, fail

NAME = "place-scratchpad-arguments"


@dataclass(frozen=True)
class ScratchpadPart:
    """One view of a tensor spread over several scratchpads: the tensor elements at
    global coordinates lo..hi (a box) lie in core `core`'s scratchpad, element c at
    offset + sum((c - lo) * strides)."""

    core: int
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    strides: tuple[int, ...]


@dataclass(frozen=True)
class ScratchpadArgument:
    """Where the compiler placed a pointer argument pinned in scratchpads: at element
    `offset` of each scratchpad it uses. With no `parts`, the tensor lies there whole and
    row-major (the memory at the pointer), in core `core`'s scratchpad, or in every
    core's when `core` is None (the executing tile's own scratchpad); with parts, each
    part holds its box of the tensor (whose index 0 is global coordinate `origin`)."""

    name: str
    offset: int
    element_type: str
    shape: tuple[int, ...]
    role: str  # in | out | inout | unused
    core: int | None = None
    parts: tuple[ScratchpadPart, ...] = ()
    origin: tuple[int, ...] = ()


def _scratchpad_views(arg: BlockArgument, order: dict) -> list[ktdp.ConstructMemoryViewOp] | None:
    """The argument's views, in program order, when it is only ever the offset of static
    `ct_local` views of one element type (else None)."""
    views = []
    for use in arg.uses:
        op = use.operation
        if not isinstance(op, ktdp.ConstructMemoryViewOp) or op.offset is not arg \
                or op.memory_space.space != "ct_local" or op.sizes or op.strides:
            return None
        views.append(op)
    if not views:
        return None
    views.sort(key=order.__getitem__)
    if not all(isinstance(v.result.type, MemRefType) for v in views) \
            or len({v.result.type.element_type for v in views}) != 1:
        return None
    return views


def _role(views: list[ktdp.ConstructMemoryViewOp]) -> str:
    """in / out / inout / unused, from the loads and stores the views reach (through
    distributed views and access tiles)."""
    reads = writes = False
    work: list[SSAValue] = [v.result for v in views]
    seen: set[SSAValue] = set()
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        for use in value.uses:
            user = use.operation
            if isinstance(user, ktdp.LoadOp):
                reads = True
            elif isinstance(user, ktdp.StoreOp):
                writes = True
            else:
                work.extend(r for r in user.results
                            if isinstance(r.type, (MemRefType, ktdp.AccessTileType)))
    return {(True, False): "in", (False, True): "out", (True, True): "inout"}.get(
        (reads, writes), "unused")


def _shape(views: list[ktdp.ConstructMemoryViewOp]) -> tuple[int, ...]:
    """The tensor's shape: the distributed view the parts make, else the (first) view's."""
    for view in views:
        for use in view.result.uses:
            if isinstance(use.operation, ktdp.ConstructDistributedMemoryViewOp):
                rtype = use.operation.result.type
                if isinstance(rtype, MemRefType):
                    return tuple(rtype.get_shape())
    rtype = views[0].result.type
    assert isinstance(rtype, MemRefType)
    return tuple(rtype.get_shape())


def _layout(views: list[ktdp.ConstructMemoryViewOp]) -> tuple[int | None, tuple[ScratchpadPart, ...],
                                                            tuple[int, ...]] | None:
    """(core, parts, origin): one scratchpad (a named core's, or None: every tile's own)
    holding the tensor whole; or, when the views name different cores, the part each
    holds (boxes only). None: a layout the placement does not describe (own and named
    scratchpads mixed, a part that is not a box)."""
    cores = {v.memory_space.tile for v in views}
    if len(cores) == 1:
        return next(iter(cores)), (), ()
    if None in cores:
        return None
    parts = []
    for view in views:
        box = box_bounds(view.coordinate_set.data, [])
        if box is None:
            return None
        parts.append(ScratchpadPart(view.memory_space.tile, tuple(lo for lo, _ in box),
                                    tuple(hi for _, hi in box),
                                    tuple(view.static_strides.get_values())))
    origin = tuple(min(p.lo[k] for p in parts) for k in range(len(parts[0].lo)))
    return None, tuple(parts), origin


def _ints(values) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [int(v) for v in values])


def _record(arg: ScratchpadArgument) -> DictionaryAttr:
    fields = {
        "offset": IntegerAttr(arg.offset, 64),
        "element_type": StringAttr(arg.element_type),
        "shape": _ints(arg.shape),
        "role": StringAttr(arg.role),
        "core": IntegerAttr(-1 if arg.core is None else arg.core, 64),
    }
    if arg.parts:
        fields["origin"] = _ints(arg.origin)
        fields["parts"] = ArrayAttr([DictionaryAttr({
            "core": IntegerAttr(p.core, 64), "lo": _ints(p.lo), "hi": _ints(p.hi),
            "strides": _ints(p.strides)}) for p in arg.parts])
    return DictionaryAttr(fields)


def scratchpad_arguments(fn) -> list[ScratchpadArgument]:
    """The placements a kernel function records (`ktdf.scratchpad_arguments`)."""
    attr = fn.attributes.get(ktdf.SCRATCHPAD_ARGUMENTS_ATTR)
    if not isinstance(attr, DictionaryAttr):
        return []
    placed = []
    for name, entry in attr.data.items():
        assert isinstance(entry, DictionaryAttr)
        f = entry.data
        core = f["core"].value.data
        parts = tuple(ScratchpadPart(p.data["core"].value.data,
                                     tuple(p.data["lo"].get_values()),
                                     tuple(p.data["hi"].get_values()),
                                     tuple(p.data["strides"].get_values()))
                      for p in (f["parts"].data if "parts" in f else ()))
        placed.append(ScratchpadArgument(
            name, f["offset"].value.data, f["element_type"].data, tuple(f["shape"].get_values()),
            f["role"].data, None if core < 0 else core, parts,
            tuple(f["origin"].get_values()) if "origin" in f else ()))
    return placed


def _others(placed: dict) -> str:
    return f" and %{', %'.join(placed)}" if placed else ""


@dataclass(frozen=True)
class PlaceScratchpadArguments(ModulePass):
    """Pointer arguments viewed only in scratchpads -> constant offsets the function records."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            block = fn.body.block
            order = {o: k for k, o in enumerate(fn.walk())}
            candidates = [(arg, views, layout) for arg in block.args
                          if isinstance(arg.type, IndexType) and arg.name_hint
                          and (views := _scratchpad_views(arg, order)) is not None
                          and (layout := _layout(views)) is not None]
            if not candidates:
                continue
            capacity = (device_of(op, NAME).scratchpad_bytes
                        if DEVICE_ATTR in op.attributes else None)
            cursor = aligned(pinned_end(fn))
            placed = {p.name: _record(p) for p in scratchpad_arguments(fn)}
            for arg, views, (core, parts, origin) in candidates:
                etype = views[0].result.type.element_type
                width = element_bytes(etype)
                offset = cursor // width
                shape = _shape(views)
                # a tensor placed whole is the memory at the pointer: all of it, however
                # much of it the views reach
                span = max(max(view_reach(v) for v in views),
                           1 if parts else prod(shape)) * width
                if capacity is not None and cursor + span > capacity:
                    raise fail(views[0], NAME, (
                        f"argument %{arg.name_hint} is pinned in scratchpads: placed at byte "
                        f"{cursor} (past what the kernel pins itself{_others(placed)}), its "
                        f"{span} bytes end at byte {cursor + span}, past the "
                        f"{capacity}-byte scratchpad of a core"))
                cursor = aligned(cursor + span)
                argument = ScratchpadArgument(arg.name_hint, offset, str(etype), shape,
                                              _role(views), core, parts, origin)
                constant = arith.ConstantOp(IntegerAttr(offset, IndexType()))
                constant.result.name_hint = f"{arg.name_hint}_placed"
                Rewriter.insert_op(constant, InsertPoint.at_start(block))
                arg.replace_all_uses_with(constant.result)
                placed[argument.name] = _record(argument)
            fn.attributes[ktdf.SCRATCHPAD_ARGUMENTS_ATTR] = DictionaryAttr(placed)
