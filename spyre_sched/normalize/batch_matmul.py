"""Normal-form pass `batch-matmul-to-matmuls`: a `linalg.batch_matmul` on loaded tiles,
stored, becomes one 2-D matmul per batch index: the matmul-shaped generic the matrix unit
runs, as `matmul-to-generic` writes a `linalg.matmul`.

For batch index i of the tiles (`A[b, m, k]`, `B[b, k, n]`, `C[b, m, n]`, each a
`ktdp.load` / `ktdp.store` of an access tile on a 3-D view), each operand gets a 2-D view
of the same memory: the view's offset moved by the batch coordinate times its stride,
the view's last two dims (sizes, strides, coordinate box) kept; its access tile takes the
tile's last two subscripts and box. No data moves and nothing is copied: the 2-D views
address exactly the elements the 3-D tiles do. The accumulator starts as the kernel's
did (a `tensor.empty`, or a `linalg.fill` of one).

A batch_matmul of one batch index (every operand `1 x ...`: a kernel that walks the
batch itself, as Triton's do), whatever its operands and its result's uses, becomes the
2-D matmul between reshapes: `collapse_shape` of each operand to its last two dims, the
matmul, `expand_shape` of the result back. The reshapes then go where reshapes go: into
the accesses of loaded and stored tiles (`reshape-to-access`), through a loop that
carries the accumulator (`reshape-through-loops`).

Refused, located: a batch_matmul of several batch indices whose operands are not loaded
tiles, whose result is not only stored, or whose views and tiles are not constant boxes
read in identity order.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.linalg_ktir import BatchMatmulOp
from spyre_sched.normalize.common import kernel_of, note_origin, reassociation, view_and_tile
from spyre_sched.normalize.matmul_to_generic import PLAIN_MAPS, matmul_generic
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.schedule.common import fail, index_constant as _constant

NAME = "batch-matmul-to-matmuls"


@dataclass
class _Operand:
    """One side of the batch matmul: its access tile, view, and their boxes."""

    tile: ktdp.ConstructAccessTileOp
    view: ktdp.ConstructMemoryViewOp
    tile_box: list[tuple[int, int]]
    view_box: list[tuple[int, int]]


def _subscripts(tile: ktdp.ConstructAccessTileOp, rank: int) -> list[SSAValue] | None:
    """The tile's subscripts when its map reads each straight from an operand."""
    base = tile.base_map.data
    if len(base.results) != rank or not all(
            isinstance(e, AffineDimExpr | AffineSymExpr) for e in base.results):
        return None
    return [tile.indices[e.position] for e in base.results]


def _operand(bm: Operation, tile_value: SSAValue, what: str) -> _Operand:
    tile = tile_value.owner
    if not isinstance(tile, ktdp.ConstructAccessTileOp):
        raise fail(bm, NAME, f"not supported yet: a linalg.batch_matmul whose {what} is not "
                   "an access tile built in the kernel")
    view = tile.view.owner
    rank3 = AffineMap.identity(3)
    if not isinstance(view, ktdp.ConstructMemoryViewOp) or view.sizes or view.strides \
            or _subscripts(tile, 3) is None \
            or tile.access_tile_order.data != rank3 \
            or tile.tile_symbols:
        raise fail(bm, NAME, f"not supported yet: a linalg.batch_matmul whose {what} is "
                   "not a 3-D tile in identity order on a view of constant sizes")
    tile_box = box_bounds(tile.access_tile_set.data, [])
    view_box = box_bounds(view.coordinate_set.data, [])
    if tile_box is None or view_box is None:
        raise fail(bm, NAME, f"not supported yet: a linalg.batch_matmul whose {what}'s "
                   "tile or view is not a constant box")
    return _Operand(tile, view, list(tile_box), list(view_box))


def _slice(side: _Operand, batch: int, at: InsertPoint) -> SSAValue:
    """The 2-D access tile of batch index `batch` of `side` (ops inserted at `at`)."""
    view, tile = side.view, side.tile
    mtype = view.result.type
    assert isinstance(mtype, MemRefType)
    sizes = list(view.static_sizes.get_values())
    strides = list(view.static_strides.get_values())
    # local batch coordinate: subscript + tile corner + batch - the view's least one
    shift = _constant(side.tile_box[0][0] + batch - side.view_box[0][0])
    subscripts = _subscripts(tile, 3)
    assert subscripts is not None
    coord = arith.AddiOp(subscripts[0], shift.result)
    stride = _constant(strides[0])
    step = arith.MuliOp(coord.result, stride.result)
    offset = arith.AddiOp(view.offset, step.result)
    flat, sub = view_and_tile(offset.result, sizes[1:], strides[1:], side.view_box[1:],
                              view.memory_space, mtype.element_type, subscripts[1:],
                              side.tile_box[1:])
    ops = [shift, coord, stride, step, offset, flat, sub]
    Rewriter.insert_op(ops, at)
    note_origin(ops, tile)
    return sub.results[0]


def _init(bm: BatchMatmulOp, shape: list[int], at: InsertPoint) -> SSAValue:
    """A 2-D accumulator starting as the batch matmul's does."""
    out = bm.outputs[0]
    ttype = out.type
    assert isinstance(ttype, TensorType)
    empty = tensor.EmptyOp([], TensorType(ttype.element_type, shape))
    ops: list[Operation] = [empty]
    value = empty.tensor
    owner = out.owner
    if isinstance(owner, FillOp) and isinstance(owner.outputs[0].owner, tensor.EmptyOp):
        fill = FillOp([owner.inputs[0]], [empty.tensor], [empty.tensor.type])
        ops.append(fill)
        value = fill.results[0]
    elif not isinstance(owner, tensor.EmptyOp):
        raise fail(bm, NAME, "not supported yet: a linalg.batch_matmul whose accumulator is "
                   "not a tensor.empty or a linalg.fill of one")
    Rewriter.insert_op(ops, at)
    note_origin(ops, bm)
    return value


def _one_batch(bm: BatchMatmulOp) -> bool:
    """Whether every operand of `bm` is a tensor of one batch index."""
    types = [v.type for v in (*bm.inputs, *bm.outputs)]
    return all(isinstance(t, TensorType) and len(t.get_shape()) == 3 and t.get_shape()[0] == 1
               for t in types)


def _unit_batch_dropped(bm: BatchMatmulOp) -> None:
    """`bm` of one batch index as the 2-D matmul between reshapes (module doc)."""
    drop = reassociation([[0, 1], [2]])
    at = InsertPoint.before(bm)
    flat = []
    for value in (*bm.inputs, bm.outputs[0]):
        ttype = value.type
        assert isinstance(ttype, TensorType)
        two = TensorType(ttype.element_type, list(ttype.get_shape())[1:])
        collapse = tensor.CollapseShapeOp(operands=[value], result_types=[two],
                                          properties={"reassociation": drop})
        Rewriter.insert_op(collapse, at)
        note_origin([collapse], bm)
        flat.append(collapse.result)
    mm = matmul_generic(bm, flat[:2], flat[2], list(PLAIN_MAPS))
    rtype = bm.results[0].type
    assert isinstance(rtype, TensorType)
    expand = tensor.ExpandShapeOp(mm[-1].results[0], [], drop, list(rtype.get_shape()), rtype)
    Rewriter.insert_op([*mm, expand], at)
    note_origin([*mm, expand], bm)
    bm.results[0].replace_all_uses_with(expand.result)
    Rewriter.erase_op(bm)


def _rewrite(bm: BatchMatmulOp) -> None:
    uses = list(bm.results[0].uses) if bm.results else []
    only_stored = len(uses) == 1 and isinstance(uses[0].operation, ktdp.StoreOp) \
        and uses[0].index == 0
    if not only_stored and _one_batch(bm):
        _unit_batch_dropped(bm)
        return
    loads = [v.owner for v in bm.inputs]
    if len(loads) != 2 or not all(isinstance(ld, ktdp.LoadOp) for ld in loads):
        raise fail(bm, NAME, "not supported yet: a linalg.batch_matmul whose operands are "
                   "not loaded tiles")
    uses = list(bm.results[0].uses) if bm.results else []
    if len(uses) != 1 or not isinstance(uses[0].operation, ktdp.StoreOp) \
            or uses[0].index != 0:
        raise fail(bm, NAME, "not supported yet: a linalg.batch_matmul whose result is not "
                   "only stored")
    store = uses[0].operation
    sides = [_operand(bm, loads[0].tile, "A"), _operand(bm, loads[1].tile, "B"),
             _operand(bm, store.tile, "result's store")]
    batches = {hi - lo + 1 for s in sides for lo, hi in s.tile_box[:1]}
    if len(batches) != 1:
        raise fail(bm, NAME, "a linalg.batch_matmul whose operands' batch extents differ")
    at = InsertPoint.before(store)
    for batch in range(batches.pop()):
        a_tile, b_tile, c_tile = (_slice(s, batch, at) for s in sides)
        a_type, b_type = (TensorType(v.type.element_type, tt.type.get_shape())
                          for v, tt in zip(bm.inputs, (a_tile, b_tile)))
        a = ktdp.LoadOp.build(operands=[a_tile], result_types=[a_type])
        b = ktdp.LoadOp.build(operands=[b_tile], result_types=[b_type])
        Rewriter.insert_op([a, b], at)
        init = _init(bm, list(c_tile.type.get_shape()), at)
        mm = matmul_generic(bm, [a.results[0], b.results[0]], init, list(PLAIN_MAPS))
        put = ktdp.StoreOp.build(operands=[mm[-1].results[0], c_tile])
        Rewriter.insert_op([*mm, put], at)
        note_origin([a, b, *mm, put], bm)
    Rewriter.erase_op(store)
    Rewriter.erase_op(bm)


@dataclass(frozen=True)
class BatchMatmulToMatmuls(ModulePass):
    """linalg.batch_matmul on loaded, stored tiles -> one linalg.matmul per batch index."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for bm in [o for o in fn.walk() if isinstance(o, BatchMatmulOp)]:
                _rewrite(bm)
