"""Pass, indirect-addresses: every move of a box of a gather view gets its address buffer.

A transfer between a `ktdf.gather_view` G and a scratchpad buffer moves the box of G's
coordinates it names; which memory rows that is depends on index values. Right before
it, in the same DMA stage, this pass adds the address-generation step: a transfer of the
index tensor's values for that box into an `addresses` buffer of the same pipeline (one
buffer per index tensor, tiled like the data buffer along the variables its subscripts
use, so it is as many entries as the tile gathers rows). The lowering hands the buffer
to the indirect transfer, which turns each entry into an address, checked against the
view's coordinate set. Being a `ktdf.buffer`, the address buffer is counted by
`footprints` and by the solver under the scratchpad bound, rotates with the pipeline's
modulo, and grows with the tile extents the solver picks (the gather granularity).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.dialects.agen import linear_form
from spyre_sched.schedule.common import (
    add_linear,
    constant_value,
    device_of,
    fail,
    index_constant,
    programs,
)
from spyre_sched.schedule.ir_build import add_resource, rebuild

NAME = "indirect-addresses"


def gather_of(value: SSAValue) -> ktdf.GatherViewOp | None:
    owner = value.owner
    return owner if isinstance(owner, ktdf.GatherViewOp) else None


def index_subscripts(gather: ktdf.GatherViewOp, j: int) -> list[tuple[int | None, dict[int, int], int]]:
    """Per subscript of index tensor j: (the variable it follows or None, {outer operand:
    coefficient}, constant), checked linear by `indirect-views`."""
    imap = gather.index_maps.data[j].data
    nd = len(gather.extents.get_values())
    out = []
    for expr in imap.results:
        form = linear_form(ktdp.symbols_as_dims(expr, nd, imap.num_symbols))
        assert form is not None
        var = next((d for d in form[0] if d < nd), None)
        outer = {d - nd: c for d, c in form[0].items() if d >= nd}
        out.append((var, outer, form[1]))
    return out


@dataclass(frozen=True)
class IndirectAddresses(ModulePass):
    """Add the index fetch and address buffer before each transfer of a gather view."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _, fn in programs(op):
            for transfer in [o for o in fn.walk() if isinstance(o, ktdf.DataTransferOp)]:
                for side, gview in ((0, gather_of(transfer.source)), (1, gather_of(transfer.dest))):
                    if gview is not None:
                        _add_addresses(transfer, gview, side, op)


def _data_tiling(transfer: ktdf.DataTransferOp, other: SSAValue, sizes: list,
                 module: ModuleOp) -> tuple[ktdf.PipelineOp, AffineMap, list[str | int], Attribute]:
    """The pipeline a gather's transfer runs in, and how its rows are tiled there: the
    data buffer's access map, tile dims and memory, or, for a copy into a pinned
    scratchpad slot, the transfer's own box (each dim's tile extent decision) in the
    scratchpad of `module`'s device."""
    private = other.owner
    if isinstance(private, ktdf.PrivateOp):
        yielded = list(private.body.block.last_op.operands)  # type: ignore[union-attr]
        maker = yielded[list(private.res).index(other)].owner
        pipe = private.parent_op()
        assert isinstance(maker, ktdf.BufferOp) and isinstance(pipe, ktdf.PipelineOp)
        return pipe, maker.access_map.data, maker.tile_dim_values(), \
            maker.result.type.memory_space  # type: ignore[attr-defined]
    pipe = transfer.parent_op()
    while pipe is not None and not isinstance(pipe, ktdf.PipelineOp):
        pipe = pipe.parent_op()
    if not (isinstance(private, ktdp.ConstructMemoryViewOp) and isinstance(pipe, ktdf.PipelineOp)
            and pipe.private is not None):
        raise fail(transfer, NAME, "not supported yet: an indirect transfer that does not "
                   "stage its rows in a scratchpad buffer or slot")
    return pipe, AffineMap.identity(len(sizes)), [_tile_dim(transfer, s) for s in sizes], \
        StringAttr(device_of(module, NAME).memory_kind_for("ct_local"))


def _tile_dim(transfer: ktdf.DataTransferOp, size: SSAValue | int) -> str | int:
    if not isinstance(size, SSAValue):
        return int(size)
    owner = size.owner
    if isinstance(owner, ktdf.DeriveSizeOp) and isinstance(owner.size.owner, ktdf.ReserveSizeOp):
        return owner.size.owner.decision.data
    value = constant_value(size)
    if value is None:
        raise fail(transfer, NAME, "not supported yet: a gather into a scratchpad slot whose "
                   "box extent is neither a constant nor a tile extent")
    return value


def _add_addresses(transfer: ktdf.DataTransferOp, gview: ktdf.GatherViewOp, side: int,
                   module: ModuleOp) -> None:
    other = transfer.dest if side == 0 else transfer.source
    offsets = transfer.mixed_source_offsets() if side == 0 else transfer.mixed_dest_offsets()
    sizes = transfer.mixed_source_sizes() if side == 0 else transfer.mixed_dest_sizes()
    pipe, amap, tile_dims, space = _data_tiling(transfer, other, sizes, module)
    stage = transfer.parent_op()
    assert isinstance(stage, ktdf.StageOp)
    where = _fetch_stage(transfer, pipe, stage) if side == 1 else stage
    before: list[Operation] = []

    inside = {r for op in stage.walk() for r in op.results}

    def index_value(v) -> SSAValue:
        if isinstance(v, SSAValue):
            if where is not stage:  # recomputed in the stage that fetches
                return rebuild(v, {}, before, lambda x: x in inside)
            return v
        c = index_constant(int(v))
        before.append(c)
        return c.result

    for j, index_view in enumerate(gview.index_views):
        itype = index_view.type
        assert isinstance(itype, MemRefType)
        subs = index_subscripts(gview, j)
        results, shape, subscripts, extents = [], [], [], []
        for var, outer, const in subs:
            value = index_value(offsets[var]) if var is not None else index_value(0)
            value = add_linear(value, [(gview.outer[k], c) for k, c in outer.items()], const,
                               before)
            subscripts.append(value)
            if var is None:
                results.append(AffineExpr.constant(0))
                shape.append(1)
                extents.append(1)
            else:
                results.append(amap.results[var])
                shape.append(DYNAMIC_INDEX)
                extents.append(sizes[var])
        buffer = ktdf.BufferOp(
            "addresses", f"{index_view.name_hint or 'index'}_addresses",
            AffineMapAttr(AffineMap(amap.num_dims, 0, tuple(results))), tile_dims,
            MemRefType(itype.element_type, shape, memory_space=space or StringAttr("LX")))
        addresses = add_resource(pipe, buffer)
        fetch = ktdf.DataTransferOp(index_view, subscripts, extents, addresses,
                                    [0] * len(shape), extents)
        fetch.attributes["ktdf.addresses_for"] = StringAttr(f"{'target' if side else 'source'}:{j}")
        before.append(fetch)
    if where is stage:
        Rewriter.insert_op(before, InsertPoint.before(transfer))
    else:
        # first in the loading stage: its latency runs under the stage's loads, and the
        # stage still ends with a load, so the cores leave it spaced out by their turns
        # at device memory's bandwidth as they entered it
        Rewriter.insert_op(before, InsertPoint.at_start(where.body.block))


def _fetch_stage(transfer: ktdf.DataTransferOp, pipe: ktdf.PipelineOp,
                 stage: ktdf.StageOp) -> ktdf.StageOp:
    """Where a scatter's addresses are fetched: the pipeline's DMA stage that loads its
    inputs (the stores' DMA engine only reads the scratchpad; the loads' engine fills
    it, and the pipeline's tokens order that stage before the store)."""
    for other in pipe.stages:
        if other is stage:
            break
        if other.units == ["dma"] and any(isinstance(o, ktdf.DataTransferOp)
                                           for o in other.walk()):
            return other
    raise fail(transfer, NAME, "not supported yet: a scatter in a pipeline that loads "
               "nothing from device memory before it (its addresses would have no stage "
               "to be fetched in)")
