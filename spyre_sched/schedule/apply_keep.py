"""Step apply-keep (after `solve`): rewrite each solved `ktdf.keep_resident` choice into
the IR the lowering reads (docs/scheduleir.md, "Keeping an input resident").

- `value = 0` (re-read): the resident buffer is dropped from its pipeline and the marks
  removed; every compute keeps loading its own tiles.
- `value = 1` (keep): the first compute's DMA writes its tile into the resident buffer
  at the tile's position (`index` of each `base + index` subscript) instead of into its
  staging buffer; the later computes lose their DMA of that input (the stage is dropped
  when nothing else is left in it); every read of a staging buffer at `[s...]` reads the
  resident buffer at `[index + s ...]`; the staging buffers are dropped.

The `ktdf.keep_resident` op is removed either way: the solved IR shows the chosen form.
The lowering then orders the resident buffer like any other: the DMA and the first
compute's loads by that compute's tile pipeline, the later computes' loads by the
run-once pipeline's stage order.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineSetAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StringAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineSet
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.schedule.common import (
    PINNED_ATTR,
    constant_value,
    device_of,
    element_bytes,
    fail,
    int_attr,
    programs,
)
from spyre_sched.schedule.keep_across import REGIONS_ATTR
from spyre_sched.schedule.ir_build import (
    drop_resources,
    drop_stage,
    erase_dead,
    rebuild,
    refresh_units,
)
from spyre_sched.schedule.keep_resident import (
    KEEP_ATTR,
    KEEP_ROLE_ATTR,
    dma_stage,
    full_shape,
    maker_of,
    owning_pipeline,
    tile_position,
)

RESIDENT_ATTR = "ktdf.resident"
"""On the `ct_local` view of a region kept across programs: its keep decision."""
PLACED_ATTR = "ktdf.resident_at"
"""On every program a kept region spans, once placed: decision -> [first byte, end) in
the tile's scratchpad (inside `ktdf.pinned_bytes`)."""

NAME = "apply-keep"


def _marked(fn: Operation, name: str) -> list[Operation]:
    return [op for op in fn.walk() if isinstance(op.attributes.get(KEEP_ATTR), StringAttr)
            and op.attributes[KEEP_ATTR].data == name]  # type: ignore[union-attr]


def _unmark(op: Operation) -> None:
    op.attributes.pop(KEEP_ATTR, None)
    op.attributes.pop(KEEP_ROLE_ATTR, None)


def _private_result(maker: Operation) -> SSAValue:
    private = maker.parent_op()
    assert isinstance(private, ktdf.PrivateOp)
    yielded = private.body.block.last_op
    assert yielded is not None
    index = [v.owner for v in yielded.operands].index(maker)
    return private.res[index]


def _position_at(position: list[SSAValue], stage: Operation, out: list[Operation]) -> list[SSAValue]:
    """The tile position, recomputed (appended to `out`) where it was computed inside the
    DMA stage: usable outside it."""
    def local(v: SSAValue) -> bool:
        owner = v.owner
        return isinstance(owner, Operation) and stage.is_ancestor(owner)
    return [rebuild(v, {}, out, local) for v in position]


def _shifted(position: list[SSAValue], offsets, out: list[Operation]) -> list[SSAValue]:
    """position + offsets, dim by dim (an offset of 0 adds nothing)."""
    result = []
    for p, o in zip(position, offsets):
        if constant_value(p) == 0 and isinstance(o, SSAValue):
            result.append(o)
            continue
        if isinstance(o, int) or isinstance(o, IntegerAttr):
            value = o if isinstance(o, int) else o.value.data
            if value == 0:
                result.append(p)
                continue
            c = arith.ConstantOp(IntegerAttr(value, IndexType()))
            out.append(c)
            o = c.result
        add = arith.AddiOp(p, o)
        out.append(add)
        result.append(add.result)
    return result


def _redirect_reads(staging: SSAValue, resident: SSAValue, position: list[SSAValue],
                    stage: Operation) -> None:
    for use in list(staging.uses):
        reader = use.operation
        if not isinstance(reader, ktdf.DataTransferOp) or reader.source != staging:
            continue
        ops: list[Operation] = []
        at = _position_at(position, stage, ops)
        offsets = _shifted(at, reader.mixed_source_offsets(), ops)
        mode = reader.mode if reader.mode != "copy" else None
        new = ktdf.DataTransferOp(resident, offsets, reader.mixed_source_sizes(), reader.dest,
                                  reader.mixed_dest_offsets(), reader.mixed_dest_sizes(), mode)
        new.attributes.update(reader.attributes)
        for op in reversed(list(ops)):  # recomputed positions the shift did not need
            if not any(r.uses for r in op.results):
                ops.remove(op)
                op.erase()
        Rewriter.insert_op(ops, InsertPoint.before(reader))
        Rewriter.replace_op(reader, new)


def _keep_transfer(t: ktdf.DataTransferOp, role: str, resident: SSAValue, name: str) -> None:
    """The kept form of one marked DMA: a fill writes `resident` (a buffer or a region's
    view) at the tile's position, a re-read goes (with its stage when nothing else is
    left in it); the loads of its staging buffer read `resident` instead; the staging
    buffer goes."""
    staging = t.dest
    pipe = owning_pipeline(staging)
    stage = dma_stage(t)
    found = tile_position(t)
    if stage is None or found is None or not isinstance(maker_of(staging), ktdf.BufferOp):
        raise fail(t, NAME, f"keep decision {name}: the transfer is no longer the "
                            "tile load the scheduler marked")
    position = found[1]
    _redirect_reads(staging, resident, position, stage)
    if role == "fill":
        fill = ktdf.DataTransferOp(t.source, t.mixed_source_offsets(), t.mixed_source_sizes(),
                                   resident, position, t.mixed_dest_sizes())
        Rewriter.replace_op(t, fill)
    else:
        feeding = [v for v in t.operands if isinstance(v.owner, Operation)]
        Rewriter.erase_op(t)
        erase_dead(feeding)
    drop_resources(pipe, {staging})
    if role != "fill" and not any(isinstance(o, ktdf.DataTransferOp) for o in stage.walk()):
        drop_stage(pipe, stage)


def apply_keep(fn: Operation, choice: ktdf.KeepResidentOp) -> None:
    name = choice.decision.data
    value = ktdf.decision_value(choice)
    if value is None:
        raise fail(choice, NAME, f"keep decision {name} is still open (run solve first)")
    marked = _marked(fn, name)
    residents = [op for op in marked if isinstance(op, ktdf.BufferOp) and op.role.data == "resident"]
    transfers = [op for op in marked if isinstance(op, ktdf.DataTransferOp)]
    if len(residents) != 1 or not transfers:
        raise fail(choice, NAME, f"keep decision {name}: expected one resident buffer and its "
                                 "transfers marked ktdf.keep")
    resident_op = residents[0]
    resident = _private_result(resident_op)
    top = owning_pipeline(resident)
    if value == 0:
        for op in marked:
            _unmark(op)
        drop_resources(top, {resident})
        Rewriter.erase_op(choice)
        return
    for t in sorted(transfers, key=lambda t: t.attributes[KEEP_ROLE_ATTR].data != "fill"):  # type: ignore[union-attr]
        role = t.attributes[KEEP_ROLE_ATTR].data  # type: ignore[union-attr]
        _keep_transfer(t, role, resident, name)
    _unmark(resident_op)
    Rewriter.erase_op(choice)


def _region_view(fn: Operation, shape: tuple[int, ...], element, offset_bytes: int,
                 name: str, operand: str) -> SSAValue:
    """A `ct_local` view of the region at the start of `fn`: tile-local coordinates
    [0, shape), row-major, at `offset_bytes` in the tile's own scratchpad."""
    elt = element_bytes(element)
    strides = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        strides[k] = strides[k + 1] * shape[k + 1]
    dims = [AffineExpr.dimension(k) for k in range(len(shape))]
    constraints = []
    for d, s in zip(dims, shape):
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, d, AffineExpr.constant(0)))
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, AffineExpr.constant(s - 1) - d,
                                                AffineExpr.constant(0)))
    offset = arith.ConstantOp(IntegerAttr(offset_bytes // elt, IndexType()))
    view = ktdp.ConstructMemoryViewOp.build(
        operands=[offset.result, [], []],
        properties={"static_sizes": DenseArrayBase.from_list(i64, list(shape)),
                    "static_strides": DenseArrayBase.from_list(i64, strides),
                    "coordinate_set": AffineSetAttr(AffineSet(len(shape), 0, tuple(constraints))),
                    "memory_space": ktdp.MemorySpaceAttr(StringAttr("ct_local"), NoneAttr())},
        attributes={RESIDENT_ATTR: StringAttr(name)},
        result_types=[MemRefType(element, list(shape))])
    offset.result.name_hint = f"{operand}_kept_at"
    view.result.name_hint = f"{operand}_kept"
    body = fn.regions[0].blocks[0]
    Rewriter.insert_op([offset, view], InsertPoint.at_start(body))
    return view.result


def _drop_region(fn: Operation, name: str) -> None:
    old = fn.attributes.get(REGIONS_ATTR)
    if not isinstance(old, DictionaryAttr):
        return
    entries = {k: v for k, v in old.data.items() if k != name}
    if entries:
        fn.attributes[REGIONS_ATTR] = DictionaryAttr(entries)
    else:
        del fn.attributes[REGIONS_ATTR]


def apply_keep_across(progs: dict[int, Operation], first: int, choice: ktdf.KeepResidentOp,
                      granularity: int) -> None:
    """A keep choice that spans programs `first` .. `choice.last_program`."""
    name = choice.decision.data
    value = ktdf.decision_value(choice)
    if value is None:
        raise fail(choice, NAME, f"keep decision {name} is still open (run solve first)")
    assert choice.last_program is not None
    span = [progs[i] for i in sorted(progs) if first <= i <= choice.last_program.value.data]
    marked = [(fn, op) for fn in span for op in _marked(fn, name)]
    transfers = [(fn, op) for fn, op in marked if isinstance(op, ktdf.DataTransferOp)]
    fills = [(fn, t) for fn, t in transfers if t.attributes[KEEP_ROLE_ATTR].data == "fill"]  # type: ignore[union-attr]
    if len(fills) != 1 or len(transfers) < 2:
        raise fail(choice, NAME, f"keep decision {name}: expected one fill and re-reads in "
                                 "later programs marked ktdf.keep")
    if value == 0:
        for _, op in marked:
            _unmark(op)
        for fn in span:
            _drop_region(fn, name)
        Rewriter.erase_op(choice)
        return
    staging_op = maker_of(fills[0][1].dest)
    assert isinstance(staging_op, ktdf.BufferOp)
    element = staging_op.result.type.element_type  # type: ignore[attr-defined]
    shape = full_shape(staging_op, ktdf.decision_ops(fills[0][0]))
    if shape is None:
        raise fail(staging_op, NAME, f"keep decision {name}: the staging buffer has no "
                                     "whole-tile shape")
    nbytes = element_bytes(element)
    for s in shape:
        nbytes *= s
    placed = fills[0][0].attributes.get(REGIONS_ATTR)
    bounds = placed.data.get(name) if isinstance(placed, DictionaryAttr) else None
    if not isinstance(bounds, DenseArrayBase) or len(bounds.get_values()) != 2:
        raise fail(choice, NAME, f"keep decision {name}: its program has no "
                                 f"{REGIONS_ATTR} entry placing the region")
    start, end = (int(v) for v in bounds.get_values())
    if end - start != nbytes or start % granularity:
        raise fail(choice, NAME, f"keep decision {name}: the region [{start}, {end}) does "
                                 f"not hold the {nbytes}-byte tile at an aligned offset")
    views: dict[int, SSAValue] = {}
    for fn, t in sorted(transfers, key=lambda ft: ft[1].attributes[KEEP_ROLE_ATTR].data != "fill"):  # type: ignore[union-attr]
        role = t.attributes[KEEP_ROLE_ATTR].data  # type: ignore[union-attr]
        if id(fn) not in views:
            views[id(fn)] = _region_view(fn, shape, element, start, name,
                                         choice.operand.data)
        _keep_transfer(t, role, views[id(fn)], name)
    for fn in span:
        # the region outlives the program: no buffer of the span may take its bytes
        fn.attributes[PINNED_ATTR] = int_attr(max(_pinned(fn), end))
        _drop_region(fn, name)
        placed = fn.attributes.get(PLACED_ATTR)
        entries = dict(placed.data) if isinstance(placed, DictionaryAttr) else {}
        entries[name] = DenseArrayBase.from_list(i64, [start, end])
        fn.attributes[PLACED_ATTR] = DictionaryAttr(entries)
    Rewriter.erase_op(choice)


def _pinned(fn: Operation) -> int:
    attr = fn.attributes.get(PINNED_ATTR)
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


@dataclass(frozen=True)
class ApplyKeep(ModulePass):
    """Rewrite solved keep-resident choices into the kept or the re-reading form."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        progs = dict(programs(op))
        for index, fn in sorted(progs.items()):
            for choice in [c for c in fn.walk() if isinstance(c, ktdf.KeepResidentOp)]:
                if choice.last_program is not None:
                    device = device_of(op, NAME)
                    memory = device.scratchpad(0)
                    apply_keep_across(progs, index, choice,
                                      device.access_granularity(memory.name))
                else:
                    apply_keep(fn, choice)
        for _, fn in progs.items():
            refresh_units(fn)
