"""Pass keep-resident: offer the solver to keep an input in scratchpad instead of
re-reading it from device memory in every compute of a program.

A program with several computes (rmsnorm: the sum of squares, then the scaled product;
layernorm: the sum, the sum of squared deviations, then the normalised output) is one
run-once pipeline with a stage per compute, and each compute's tile pipeline loads its
own tiles of X from device memory into its own staging buffers: X crosses the device
memory port once per compute, 2-3x the compulsory traffic. When the program's tile of X
fits in scratchpad next to everything else, the later computes can read the tiles the
first one loaded instead.

This pass finds such inputs: DMA transfers from one device-memory view at the same
tile position (`base + index` per dim, the same bases) into `input` staging buffers of
the same shape, in different stages of one run-once pipeline. It does not rewrite them;
it adds the choice (`ktdf.keep_resident {decision = "pN.keep.OPERAND"}`, 0 = re-read,
1 = keep) and the `resident` buffer the kept form needs (the program's whole tile of the
input, in the run-once pipeline's private), and marks what the choice changes with
`ktdf.keep = "<decision>"`:

- the resident buffer (its bytes count only when kept),
- every staging buffer of the group (their bytes count only when re-read),
- the first compute's DMA (`ktdf.keep_role = "fill"`: when kept it fills the resident
  buffer at the tile's position instead of its staging buffer, still pipelined with that
  compute) and the later ones' (`"reread"`: their bytes count only when re-read).

The solver weighs the resident buffer's footprint against the traffic it saves; the
`apply-keep` step (after `solve`) rewrites the IR to the chosen form. An input whose
tile alone does not fit the scratchpad (with the kernel's pinned bytes) is not offered.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.schedule.common import PINNED_ATTR, device_of, element_bytes, programs
from spyre_sched.schedule.ir_build import add_resource

NAME = "keep-resident"
KEEP_ATTR = "ktdf.keep"
"""On the resident buffer, the staging buffers and the transfers a keep decision changes:
the decision's name."""
KEEP_ROLE_ATTR = "ktdf.keep_role"
"""On those transfers: `fill` (the first compute's load) or `reread` (a later one's)."""


@dataclass
class Reader:
    """One compute's load of the input: its DMA transfer, the staging buffer it fills
    (the private's result and the op making it), the tile position per dim, and the
    index of the run-once pipeline's stage that holds it."""

    transfer: ktdf.DataTransferOp
    staging: SSAValue
    buffer: ktdf.BufferOp
    position: list[SSAValue]
    stage: int


def maker_of(value: SSAValue) -> Operation | None:
    """The op inside a `ktdf.private` that makes the resource `value` (a private's
    result), or None."""
    private = value.owner
    if not isinstance(private, ktdf.PrivateOp):
        return None
    index = list(private.res).index(value)
    yielded = private.body.block.last_op
    assert yielded is not None
    return yielded.operands[index].owner  # type: ignore[return-value]


def owning_pipeline(value: SSAValue) -> ktdf.PipelineOp:
    private = value.owner
    assert isinstance(private, ktdf.PrivateOp)
    pipe = private.parent_op()
    assert isinstance(pipe, ktdf.PipelineOp)
    return pipe


def tile_position(t: ktdf.DataTransferOp) -> tuple[tuple[SSAValue, ...], list[SSAValue]] | None:
    """(bases, indices) of a transfer reading a kernel view at `base + index` in every
    dim (how the scheduler writes a tile's coordinates), or None."""
    bases, indices = [], []
    for v in t.mixed_source_offsets():
        if not isinstance(v, SSAValue) or not isinstance(v.owner, arith.AddiOp):
            return None
        bases.append(v.owner.lhs)
        indices.append(v.owner.rhs)
    return tuple(bases), indices


def portable(value: SSAValue, stage: Operation) -> bool:
    """Can `value` (a tile position computed in `stage`) be used, or recomputed without
    regions, elsewhere in the program? Block arguments inside `stage` cannot."""
    if isinstance(value, BlockArgument):
        owner = value.owner.parent_op()
        return owner is None or not (owner is stage or stage.is_ancestor(owner))
    op = value.owner
    assert isinstance(op, Operation)
    if not stage.is_ancestor(op):
        return True
    return not op.regions and all(portable(v, stage) for v in op.operands)


def full_shape(buffer: ktdf.BufferOp, decisions: dict[str, ktdf.DecisionOp]) -> tuple[int, ...] | None:
    """The buffer's shape at the whole extent of every tiled dim (the program's tile)."""
    full = []
    for d in buffer.tile_dim_values():
        if isinstance(d, str):
            op = decisions.get(d)
            if not isinstance(op, ktdf.ReserveSizeOp):
                return None
            full.append(op.extent.value.data)
        else:
            full.append(d)
    shape = []
    for expr in buffer.access_map.data.results:
        if not isinstance(expr, AffineDimExpr):
            return None
        shape.append(full[expr.position])
    return tuple(shape)


def dma_stage(t: ktdf.DataTransferOp) -> ktdf.StageOp | None:
    """The stage of the staging buffer's pipeline that holds the transfer filling it."""
    pipe = owning_pipeline(t.dest)
    inner = t.parent_op()
    while inner is not None and not (isinstance(inner, ktdf.StageOp)
                                     and inner.parent_op() is pipe):
        inner = inner.parent_op()
    return inner


def _global_view(value: SSAValue) -> bool:
    owner = value.owner
    return isinstance(owner, ktdp.ConstructMemoryViewOp) and \
        "ct_local" not in str(owner.memory_space)


def _readers(top: ktdf.PipelineOp) -> dict[tuple, list[Reader]]:
    """The input loads under each stage of `top`, grouped by view and tile bases."""
    groups: dict[tuple, list[Reader]] = {}
    for k, stage in enumerate(top.stages):
        for t in stage.walk():
            if not isinstance(t, ktdf.DataTransferOp) or not _global_view(t.source):
                continue
            buffer = maker_of(t.dest)
            if not isinstance(buffer, ktdf.BufferOp) or buffer.role.data != "input":
                continue
            found = tile_position(t)
            if found is None:
                continue
            bases, position = found
            inner = dma_stage(t)
            if inner is None or not all(portable(v, inner) for v in position):
                continue
            groups.setdefault((t.source, bases), []).append(Reader(t, t.dest, buffer,
                                                                   position, k))
    return groups


def _same_tiles(readers: list[Reader], decisions) -> tuple[int, ...] | None:
    first = readers[0].buffer
    shape = full_shape(first, decisions)
    for r in readers:
        b = r.buffer
        if (full_shape(b, decisions) != shape or b.access_map != first.access_map
                or b.result.type.element_type != first.result.type.element_type
                or b.memory != first.memory or r.transfer.mode != "copy"):
            return None
    return shape


def offer_keep(fn: Operation, index: int, device) -> int:
    """Add a keep decision for every input of `fn` re-read by several computes; returns
    how many were added."""
    decisions = ktdf.decision_ops(fn)
    pinned_attr = fn.attributes.get(PINNED_ATTR)
    pinned = pinned_attr.value.data if pinned_attr is not None else 0  # type: ignore[attr-defined]
    body = fn.regions[0].blocks[0]
    tops = [p for p in body.ops if isinstance(p, ktdf.PipelineOp) and p.private is not None
            and p.modulo is None and len(p.stages) >= 2]
    added = 0
    for top in tops:
        for readers in _readers(top).values():
            stages = [r.stage for r in readers]
            if len(readers) < 2 or len(set(stages)) != len(stages):
                continue
            shape = _same_tiles(readers, decisions)
            if shape is None:
                continue
            first = readers[0].buffer
            mtype = first.result.type
            assert isinstance(mtype, MemRefType)
            nbytes = element_bytes(mtype.element_type)
            for s in shape:
                nbytes *= s
            memories = device.memories_of_kind(first.memory, device.core(0)) or \
                device.memories_of_kind(first.memory)
            scratch = device.memory_kind_for("ct_local")
            room = memories[0].size - (pinned if first.memory == scratch else 0) \
                if memories else 0
            if nbytes > room:
                continue  # the tile alone does not fit: re-reading is the only schedule
            operand = first.operand.data
            name = f"p{index}.keep.{operand}"
            n = 1
            while name in decisions:
                n += 1
                name = f"p{index}.keep.{operand}{n}"
            resident = ktdf.BufferOp("resident", operand, first.access_map,
                                     _tile_dims_full(first, decisions),
                                     MemRefType(mtype.element_type, list(shape),
                                                memory_space=mtype.memory_space))
            resident.attributes[KEEP_ATTR] = StringAttr(name)
            add_resource(top, resident)
            readers.sort(key=lambda r: r.stage)
            for k, r in enumerate(readers):
                r.buffer.attributes[KEEP_ATTR] = StringAttr(name)
                r.transfer.attributes[KEEP_ATTR] = StringAttr(name)
                r.transfer.attributes[KEEP_ROLE_ATTR] = StringAttr("fill" if k == 0 else
                                                                   "reread")
            choice = ktdf.KeepResidentOp(name, operand)
            Rewriter.insert_op(choice, InsertPoint.before(top))
            decisions[name] = choice
            added += 1
    return added


def _tile_dims_full(buffer: ktdf.BufferOp, decisions) -> list[int]:
    out = []
    for d in buffer.tile_dim_values():
        op = decisions.get(d) if isinstance(d, str) else None
        out.append(op.extent.value.data if isinstance(op, ktdf.ReserveSizeOp) else int(d))
    return out


@dataclass(frozen=True)
class KeepResident(ModulePass):
    """Offer the solver to keep inputs that several computes of a program read."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        for index, fn in list(programs(op)):
            offer_keep(fn, index, device)
