"""Pass 7, hoist-invariant-transfers: fetch once what every iteration of a loop reads.

After nesting, the outer pipeline re-fetches each input tile on every iteration of the
tile loops around it. An input whose transfer does not depend on the outermost tile
loop (a bias row broadcast over rows, a weight vector, a constant table) reads the same
data on every iteration of that loop: its transfer moves to a stage that runs once,
before the loop nest, into a buffer holding everything the nest reads of it (the full
extent of the dims it does depend on). The loop nest becomes the second stage of that
run-once pipeline, so the buffer is in scope for it; the inner stages index the hoisted
buffer by the element's position in the whole dim (tile start + point).

Never hoisted: outputs, inputs that vary along the outermost tile loop (they differ
from one iteration to the next), and inputs whose whole extent would not fit the
scratchpad next to the program's other buffers at their smallest (hoisting must never
turn a schedulable kernel into an unschedulable one).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import PINNED_ATTR, device_of, element_bytes, programs
from spyre_sched.schedule.footprints import buffer_elements
from spyre_sched.schedule.ir_build import (
    depends_on,
    drop_resources,
    drop_stage,
    erase_dead,
    loop_dim,
    pipeline,
    rebuild,
    refresh_units,
)
from spyre_sched.schedule.nest_levels import _extent_of, _loops_around

NAME = "hoist-invariant-transfers"


def fill_of(pipe: ktdf.PipelineOp, buffer: SSAValue) -> tuple[ktdf.StageOp, ktdf.DataTransferOp] | None:
    """The stage and transfer filling `buffer` from outside (a DMA-in), if any."""
    for stage in pipe.stages:
        for t in stage.walk():
            if isinstance(t, ktdf.DataTransferOp) and t.dest == buffer \
                    and not isinstance(t.source.type, ktdf.FifoSlotType) \
                    and not _is_buffer(t.source):
                return stage, t
    return None


def _is_buffer(value: SSAValue) -> bool:
    return isinstance(value.owner, ktdf.PrivateOp)


def hoistable(pipe: ktdf.PipelineOp) -> list[tuple[SSAValue, ktdf.BufferOp, ktdf.StageOp,
                                                     ktdf.DataTransferOp]]:
    """Input buffers of `pipe` whose fill does not depend on the outermost tile loop."""
    loops = _loops_around(pipe)
    if not loops:
        return []
    outermost = loops[0].body.block.args[0]
    private = pipe.private
    assert private is not None
    made = [op for op in private.body.block.ops if not isinstance(op, ktdf.PrivateYieldOp)]
    found = []
    for value, op in zip(private.res, made):
        if not isinstance(op, ktdf.BufferOp) or op.role.data != "input":
            continue
        writer = fill_of(pipe, value)
        if writer is None:
            continue
        _, transfer = writer
        varying = [v for v in [*transfer.mixed_source_offsets(), *transfer.mixed_source_sizes()]
                   if isinstance(v, SSAValue)]
        if any(depends_on(v, {outermost}) for v in varying):
            continue
        found.append((value, op, *writer))
    return found


def _fits(fn: Operation, extra: dict[str, int], device) -> bool:
    """Would the program still fit its memories at the smallest tiles with `extra` more
    bytes per memory kind? (Hoisting must never make a schedulable kernel unschedulable.)"""
    decisions = ktdf.decision_ops(fn)
    need = dict(extra)
    for b in [o for o in fn.walk() if isinstance(o, ktdf.BufferOp)]:
        need[b.memory] = need.get(b.memory, 0) + buffer_elements(b, decisions, "min") * \
            element_bytes(b.result.type.element_type)
    scratch = device.memory_kind_for("ct_local")
    pinned = fn.attributes.get(PINNED_ATTR)
    need[scratch] = need.get(scratch, 0) + (pinned.value.data if pinned is not None else 0)  # type: ignore[attr-defined]
    core = device.core(0)
    for kind, total in need.items():
        memories = device.memories_of_kind(kind, core) or device.memories_of_kind(kind)
        if memories and total > memories[0].size:
            return False
    return True


def hoist(pipe: ktdf.PipelineOp, fn: Operation, device) -> None:
    """Hoist `pipe`'s invariant input fills into a run-once pipeline around its nest
    (those whose whole extent still fits next to everything else at its smallest)."""
    loops = _loops_around(pipe)
    extents = {loop_dim(l): _extent_of(l)[0] for l in loops}
    candidates = []
    for found in hoistable(pipe):
        buffer = found[1]
        used = {r.position for r in buffer.access_map.data.results}  # type: ignore[attr-defined]
        full = 1
        for d in used:
            value = buffer.tile_dim_values()[d]
            full *= extents.get(d, 1) if isinstance(value, str) else value
        extra = full * element_bytes(buffer.result.type.element_type)
        if _fits(fn, {buffer.memory: extra}, device):
            candidates.append(found)
    if not candidates:
        return
    zero = {l.body.block.args[0]: l.lb for l in loops}
    outer = loops[0]
    new_buffers = []
    transfers: list[Operation] = []
    replaced: dict[SSAValue, ktdf.BufferOp] = {}
    for value, buffer, stage, transfer in candidates:
        used = {r.position for r in buffer.access_map.data.results}  # type: ignore[attr-defined]
        dims = [(extents.get(d, 1) if isinstance(v, str) else v) if d in used else 1
                for d, v in enumerate(buffer.tile_dim_values())]
        shape = [dims[r.position] for r in buffer.access_map.data.results]  # type: ignore[attr-defined]
        mtype = buffer.result.type
        new = ktdf.BufferOp("input", buffer.operand.data, buffer.access_map, dims,
                            MemRefType(mtype.element_type, shape, memory_space=mtype.memory_space))
        new_buffers.append(new)
        replaced[value] = new
        ops: list[Operation] = []
        # An offset computed inside the nest (a constant or sum the stage made) is cloned
        # too: the transfer now runs before the nest, where those ops are not in scope.
        offsets = [rebuild(v, dict(zero), ops, lambda x: defined_inside(x, outer))
                   if isinstance(v, SSAValue) else v
                   for v in transfer.mixed_source_offsets()]
        transfers += ops
        transfers.append(ktdf.DataTransferOp(transfer.source, offsets, shape, new.result,
                                             [0] * len(shape), shape))
    # Inside the nest: drop the per-tile fill, read the hoisted buffer at global positions.
    units = candidates[0][2].units
    for value, buffer, stage, transfer in candidates:
        feeding = [v for v in transfer.operands if isinstance(v.owner, Operation)]
        Rewriter.erase_op(transfer)
        erase_dead(feeding)
    for value, buffer in replaced.items():
        for use in list(value.uses):
            reader = use.operation
            if isinstance(reader, ktdf.DataTransferOp):
                _read_globally(reader, value, buffer.result)
    drop_resources(pipe, set(replaced))
    # Only now the stages left without a transfer: dropping one rebuilds the private, which
    # gives every remaining resource a new value (the readers above must be moved first).
    emptied = {id(c[2]): c[2] for c in candidates}.values()
    for stage in emptied:
        if not any(isinstance(o, ktdf.DataTransferOp) for o in stage.walk()):
            drop_stage(pipe, stage)
    block, after = outer.parent_block(), outer.next_op
    assert block is not None
    outer.detach()
    wrapper = pipeline(new_buffers, [(units, transfers), ([], [outer])])
    if after is not None:
        Rewriter.insert_op(wrapper, InsertPoint.before(after))
    else:
        Rewriter.insert_op(wrapper, InsertPoint.at_end(block))


def defined_inside(value: SSAValue, loop: Operation) -> bool:
    """Is `value` the result of an op nested in `loop`?"""
    owner = value.owner
    if not isinstance(owner, Operation):
        return False
    return loop.is_ancestor(owner)


def _read_globally(reader: ktdf.DataTransferOp, old: SSAValue, new: SSAValue) -> None:
    """A reader of the hoisted buffer indexes it by tile start + point, per dim."""
    is_source = reader.source == old
    offsets = reader.mixed_source_offsets() if is_source else reader.mixed_dest_offsets()
    glob = [_global_position(reader, v) if isinstance(v, SSAValue) else v for v in offsets]
    mode = reader.mode if reader.mode != "copy" else None
    if is_source:
        rep = ktdf.DataTransferOp(new, glob, reader.mixed_source_sizes(), reader.dest,
                                  reader.mixed_dest_offsets(), reader.mixed_dest_sizes(), mode)
    else:
        rep = ktdf.DataTransferOp(reader.source, reader.mixed_source_offsets(),
                                  reader.mixed_source_sizes(), new, glob,
                                  reader.mixed_dest_sizes(), mode)
    Rewriter.replace_op(reader, rep)


def _global_position(op: Operation, point: SSAValue) -> SSAValue:
    """Where `point` (a loop index) is in the whole extent the hoisted buffer holds: the
    `linearize_index(tile, point)` of its point loop, or, for a tile loop nested in an
    outer level's tile loop of the same dim (three memory levels: an L1 tile walks an L2
    tile), the outer loop's global position plus `point` (an `arith.addi` before `op`)."""
    owner = point.owner
    loop = owner.parent_op() if hasattr(owner, "parent_op") else None  # block -> loop
    if isinstance(loop, scf.ForOp):
        for inner in loop.body.block.ops:
            if isinstance(inner, ktdf.LinearizeIndexOp) and inner.point_index == point:
                return inner.result
    if not isinstance(loop, scf.ForOp | ktdf.ParallelOp):
        return point
    dim = loop.attributes.get("ktdf.dim")
    if dim is None:
        return point
    outer = loop.parent_op()
    while outer is not None:
        if isinstance(outer, scf.ForOp | ktdf.ParallelOp) and outer.attributes.get("ktdf.dim") == dim:
            args = outer.body.block.args
            if isinstance(outer, ktdf.ParallelOp) and len(args) != 1:
                return point
            start = _global_position(op, args[0])
            add = arith.AddiOp(start, point)
            Rewriter.insert_op(add, InsertPoint.before(op))
            return add.result
        outer = outer.parent_op()
    return point


@dataclass(frozen=True)
class HoistInvariantTransfers(ModulePass):
    """Move transfers invariant along the outermost tile loop before the loop nest."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        for _, fn in list(programs(op)):
            for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)]:
                if pipe.private is not None and _loops_around(pipe):
                    hoist(pipe, fn, device)
            refresh_units(fn)
