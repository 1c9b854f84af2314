"""Regions the normal form pins in every core's scratchpad, past everything the kernel
places there itself: the same offset in each core's scratchpad, each with a view and an
access tile made once at the top of the kernel (for the executing tile's own scratchpad,
and for named cores' ones). `lower-inter-tile` puts exchanged partials there;
`untile-loops` a value a loop carries from one iteration to the next."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    ShapedType,
    StringAttr,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.normalize.common import box_set
from spyre_sched.polyhedral.views import element_bytes

#: slots start on a stick boundary (128 bytes: the scratchpad's access granularity on the
#: shipped devices)
ALIGN = 128


def index_constant(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, IndexType()))


def view_reach(view: ktdp.ConstructMemoryViewOp) -> int:
    """Elements from a static view's offset to one past the last it addresses."""
    return 1 + sum((s - 1) * abs(d) for s, d in zip(view.static_sizes.get_values(),
                                                    view.static_strides.get_values()))


def scratchpad_span(view: ktdp.ConstructMemoryViewOp) -> tuple[int, int] | None:
    """Bytes [start, end) of its scratchpad a `ct_local` view spans, when its start is a
    constant and its sizes static (else None: the legality check refuses such a pinned
    region)."""
    offset = view.offset.owner
    mtype = view.result.type
    if not isinstance(offset, arith.ConstantOp) or not isinstance(mtype, MemRefType) \
            or view.sizes or view.strides:
        return None
    width = element_bytes(mtype.element_type)
    first = offset.value.value.data
    return first * width, (first + view_reach(view)) * width


def pinned_end(fn) -> int:
    """Bytes past the last element any `ct_local` view of the kernel addresses."""
    spans = [scratchpad_span(op) for op in fn.walk()
             if isinstance(op, ktdp.ConstructMemoryViewOp) and op.memory_space.space == "ct_local"]
    return max((span[1] for span in spans if span is not None), default=0)


@dataclass
class Slot:
    """One partial's slot in every producer's scratchpad: per producer, its view's access
    tile (views are built once, at the top of the kernel); per owner table, the access
    tile of a view whose core is the table's entry for the executing tile."""

    tiles: dict[int, SSAValue]
    own: SSAValue
    type: ShapedType
    by_tile: dict[tuple[int, ...], SSAValue]


def scratchpad_slot(fn, at_bytes: int, ttype: ShapedType, producers: tuple[int, ...],
                    owner_tables: tuple[tuple[int, ...], ...] = ()) -> Slot:
    """The slot at `at_bytes` of every core's scratchpad: the executing tile's own, each
    producer's, and for each owner table the one of core `table[tile]` (the view names
    table[0] as its core and carries the table as `ktdf.owner_by_tile`: the lowering
    reads another core's scratchpad per tile)."""
    shape = list(ttype.get_shape())
    elt = ttype.element_type
    rank = len(shape)
    strides = [prod(shape[k + 1:]) for k in range(rank)]
    box = [(0, n - 1) for n in shape]
    ops: list[Operation] = []
    zero = index_constant(0)
    offset = index_constant(at_bytes // element_bytes(elt))
    ops += [zero, offset]

    def access(core: int | None, owners: tuple[int, ...] | None, view_hint: str,
               tile_hint: str) -> SSAValue:
        view = ktdp.ConstructMemoryViewOp.build(
            operands=[offset.result, [], []],
            properties={
                "static_sizes": DenseArrayBase.from_list(i64, shape),
                "static_strides": DenseArrayBase.from_list(i64, strides),
                "coordinate_set": AffineSetAttr(box_set(box)),
                "memory_space": ktdp.MemorySpaceAttr(
                    StringAttr("ct_local"), NoneAttr() if core is None else IntAttr(core)),
            },
            result_types=[MemRefType(elt, shape)],
        )
        if owners is not None:
            view.attributes[ktdf.OWNER_BY_TILE_ATTR] = DenseArrayBase.from_list(i64, owners)
        tile = ktdp.ConstructAccessTileOp.build(
            operands=[view.result, [zero.result] * rank, []],
            properties={
                # the dialect's form: no dims, one symbol per subscript operand
                "base_map": AffineMapAttr(AffineMap(0, rank, tuple(
                    AffineExpr.symbol(k) for k in range(rank)))),
                "access_tile_set": AffineSetAttr(box_set(box)),
                "access_tile_order": AffineMapAttr(AffineMap.identity(rank)),
            },
            result_types=[ktdp.AccessTileType(shape)],
        )
        ops.extend([view, tile])
        view.result.name_hint, tile.result.name_hint = view_hint, tile_hint
        return tile.result

    own = access(None, None, "slot", "slot_t")
    tiles = {core: access(core, None, f"slot_c{core}", f"slot_t{core}") for core in producers}
    by_tile = {t: access(t[0], t, "slot_by_tile", "slot_t_by_tile") for t in owner_tables}
    Rewriter.insert_op(ops, InsertPoint.at_start(fn.body.block))
    return Slot(tiles, own, ttype, by_tile)


def aligned(nbytes: int) -> int:
    """`nbytes` rounded up to the slots' alignment."""
    return -(-nbytes // ALIGN) * ALIGN
