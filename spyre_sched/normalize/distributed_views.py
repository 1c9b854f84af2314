"""Normal-form pass `resolve-distributed-views`: a distributed view that reads as one
plain view becomes that view (`spyre_sched/polyhedral/distributed.py` decides which:
the parts coalesce into one view, each tile touches only the part in its own scratchpad,
or every access stays in one part). No data moves: the new view addresses every
coordinate an access reaches exactly where the part holding it does, so producers storing
into a distributed scratchpad view and consumers loading from it stay in scratchpads.

For an own-scratchpad view each access tile's base is shifted by its tile's part corner
(`base_k - (a_k * tile + b_k)`), so the coordinates it reaches are local to the part. A
load or store whose tiles each reach one part in another core's scratchpad (parts of one
layout) goes through a view whose core is given per tile (`ktdf.owner_by_tile`), its base
shifted the same way, or, where the parts are blocks of one extent, by `(base - k0) mod B`.
The parts the distributed view was built from are left for `drop-dead-values`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.lower_affine import affine_expr_ops

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.normalize.common import box_set, kernel_of, note_origin
from spyre_sched.polyhedral.distributed import Resolution, Unresolved, resolve
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.schedule.common import fail

NAME = "resolve-distributed-views"


def _own_space(space) -> ktdp.MemorySpaceAttr | ktdp.SpyreMemorySpaceAttr:
    """The same kind of scratchpad space without a core: the executing tile's own."""
    return type(space)(space.kind, NoneAttr())


def _view(like: ktdp.ConstructMemoryViewOp, offset: SSAValue, box, space) -> ktdp.ConstructMemoryViewOp:
    mtype = like.result.type
    assert isinstance(mtype, MemRefType)
    sizes = [hi - lo + 1 for lo, hi in box]
    return ktdp.ConstructMemoryViewOp.build(
        operands=[offset, [], []],
        properties={
            "static_sizes": DenseArrayBase.from_list(i64, sizes),
            "static_strides": like.static_strides,
            "coordinate_set": AffineSetAttr(box_set(list(box))),
            "memory_space": space,
        },
        result_types=[MemRefType(mtype.element_type, sizes)],
    )


def _constant(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def _shift_bases(tile_op: ktdp.ConstructAccessTileOp, view: SSAValue, tile_id: SSAValue,
                 corner: tuple[tuple, ...]
                 ) -> tuple[list[Operation], ktdp.ConstructAccessTileOp]:
    """The index arithmetic for each base less its tile's part corner, and the access tile
    on `view` at those bases (one plain index per dimension, as the kernel's own access
    tiles). A corner is ("linear", a, b): a * tile + b, or ("blocks", k0, B): the block of
    extent B from k0 that holds the base, so the local base is (base - k0) mod B."""
    old = tile_op.base_map.data
    ops: list[Operation] = []
    bases: list[SSAValue] = []
    for result, (kind, a, b) in zip(old.results, corner):
        made, value = affine_expr_ops(result, [], list(tile_op.indices))
        ops += made
        if kind == "linear" and a == 0 and b == 0:
            bases.append(value)
            continue
        first, second = _constant(a), _constant(b)
        if kind == "linear":
            times = arith.MuliOp(tile_id, first.result)
            at = arith.AddiOp(times.result, second.result)
            local = arith.SubiOp(value, at.result)
            ops += [first, second, times, at, local]
        else:
            above = arith.SubiOp(value, first.result)
            local = arith.RemSIOp(above.result, second.result)  # above >= 0 in the part
            ops += [first, second, above, local]
        bases.append(local.result)
    rank = len(bases)
    base = AffineMap(0, rank, tuple(AffineExpr.symbol(k) for k in range(rank)))
    new = ktdp.ConstructAccessTileOp.build(
        operands=[view, bases, list(tile_op.tile_symbols)],
        properties={**tile_op.properties, "base_map": AffineMapAttr(base)},
        attributes=dict(tile_op.attributes),
        result_types=[tile_op.result.type],
    )
    return ops, new


def _tile_id(fn) -> SSAValue:
    """The kernel's linear tile id (a new `ktdp.get_compute_tile_id` at the top if the
    kernel has no one-result one)."""
    for op in fn.walk():
        if isinstance(op, ktdp.GetComputeTileIdOp) and len(op.ids) == 1 \
                and op.parent_block() is fn.body.block:
            return op.ids[0]
    new = ktdp.GetComputeTileIdOp(1)
    Rewriter.insert_op(new, InsertPoint.at_start(fn.body.block))
    return new.ids[0]


def _rewrite(fn, op: ktdp.ConstructDistributedMemoryViewOp, how: Resolution) -> None:
    parts = [v.owner for v in op.views]
    assert all(isinstance(p, ktdp.ConstructMemoryViewOp) for p in parts)
    at = InsertPoint.before(op)
    new_ops: list[Operation] = []
    if how.kind == "part":
        op.result.replace_all_uses_with(parts[how.part].result)
        Rewriter.erase_op(op)
        return
    if how.kind == "split":
        raise fail(op, NAME, "not supported yet: an access through a distributed view that "
                   "reaches several of its parts after its loops were split at their edges")
    if how.kind == "access":
        for tile_op, k in how.tile_parts:
            assert isinstance(tile_op, Operation)
            tile_op.operands = [parts[k].result, *tile_op.operands[1:]]
        if not op.result.uses:
            Rewriter.erase_op(op)
            return
        raise fail(next(iter(op.result.uses)).operation, NAME,
                   "not supported yet: a distributed view used other than by access tiles")
    first = parts[0]
    if how.kind == "owners":
        _through_owners(fn, op, how, first)
        return
    if how.kind == "coalesce":
        offset = first.offset
        if how.offset_shift:
            shift = _constant(how.offset_shift)
            sub = arith.SubiOp(first.offset, shift.result)
            new_ops += [shift, sub]
            offset = sub.result
        view = _view(first, offset, how.box, first.memory_space)
    else:
        zero = _constant(how.offset)
        new_ops.append(zero)
        view = _view(first, zero.result, how.box, _own_space(first.memory_space))
    new_ops.append(view)
    for new in new_ops:
        Rewriter.insert_op(new, at)
    note_origin(new_ops, op)
    view.result.name_hint = op.result.name_hint
    if how.kind == "own":
        tile_id = _tile_id(fn)
        for use in list(op.result.uses):
            tile_op = use.operation
            if not isinstance(tile_op, ktdp.ConstructAccessTileOp):
                raise fail(tile_op, NAME, "not supported yet: a distributed view used by "
                           f"{tile_op.name}")
            index_ops, shifted = _shift_bases(tile_op, view.result, tile_id,
                                              tuple(("linear", a, b) for a, b in how.corner))
            note_origin([*index_ops, shifted], tile_op)
            Rewriter.insert_op(index_ops, InsertPoint.before(tile_op))
            Rewriter.replace_op(tile_op, shifted)
            shifted.result.name_hint = tile_op.result.name_hint
    op.result.replace_all_uses_with(view.result)
    Rewriter.erase_op(op)


def _through_owners(fn, op: ktdp.ConstructDistributedMemoryViewOp, how: Resolution,
                    first: ktdp.ConstructMemoryViewOp) -> None:
    """Each access tile reads or stores through a view of one part's layout whose core
    is its tile's (`ktdf.owner_by_tile`; `ct_id` is tile 0's), at its base less its
    part's corner."""
    tile_id = _tile_id(fn)
    for tile_op, table, corner in how.owners:
        assert isinstance(tile_op, ktdp.ConstructAccessTileOp)
        zero = _constant(how.offset)
        space = type(first.memory_space)(first.memory_space.kind, IntAttr(table[0]))
        view = _view(first, zero.result, how.box, space)
        view.attributes[ktdf.OWNER_BY_TILE_ATTR] = DenseArrayBase.from_list(i64, list(table))
        view.result.name_hint = op.result.name_hint
        index_ops, shifted = _shift_bases(tile_op, view.result, tile_id, corner)
        made = [zero, view, *index_ops]
        note_origin([*made, shifted], tile_op)
        Rewriter.insert_op(made, InsertPoint.before(tile_op))
        Rewriter.replace_op(tile_op, shifted)
        shifted.result.name_hint = tile_op.result.name_hint
    if op.result.uses:
        raise fail(next(iter(op.result.uses)).operation, NAME,
                   "not supported yet: a distributed view used other than by access tiles")
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class ResolveDistributedViews(ModulePass):
    """Distributed views that read as one plain view -> that view."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            views = [o for o in fn.walk() if isinstance(o, ktdp.ConstructDistributedMemoryViewOp)]
            if not views:
                continue
            model = KernelModel(fn)
            plans = []
            for view in views:
                try:
                    plans.append((view, resolve(model, view)))
                except Unresolved as err:
                    raise fail(err.op or view, NAME, err.message) from None
            for view, how in plans:
                _rewrite(fn, view, how)

