"""Normal-form pass `slice-to-subtile`: a `tensor.extract_slice` of a loaded tile is a
load of the sub-tile it selects.

`%s = tensor.extract_slice %x[o0, o1] [s0, s1] [1, 1]` of `%x = ktdp.load %T` reads the
elements of the access tile `%T` at positions `o + [0, s)`: the same view, the same
subscripts, an access-tile set cut down to that box. The scheduler then sees one more
load (and drops the whole tile's load if nothing else reads it). Static offsets and
sizes with unit strides, keeping the rank, are read; other slices are refused here. A
slice of a computed value is left to `layout-through-elementwise`, which moves it to the
compute's inputs (and back to this rule, `slice_load`) once every compute is a generic.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import box_set, kernel_of, note_origin
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.schedule.common import fail

NAME = "slice-to-subtile"


def check_static_slice(op: tensor.ExtractSliceOp, pass_name: str) -> None:
    """The slices the normal form reads: static offsets and sizes, unit strides, the
    source's rank; the others are refused at `op`, naming `pass_name`."""
    if op.offsets or op.sizes or op.strides:
        raise fail(op, pass_name, "not supported yet: a tensor.extract_slice with run-time "
                   "offsets, sizes or strides")
    if any(s != 1 for s in op.static_strides.get_values()):
        raise fail(op, pass_name, "not supported yet: a strided tensor.extract_slice")
    rtype = op.result.type
    assert isinstance(rtype, TensorType)
    if list(rtype.get_shape()) != list(op.static_sizes.get_values()):
        raise fail(op, pass_name, "not supported yet: a rank-reducing tensor.extract_slice")


def slice_load(op: tensor.ExtractSliceOp) -> None:
    """Rewrite slice `op` of a loaded tile as a load of the sub-tile it selects."""
    load = op.source.owner
    assert isinstance(load, ktdp.LoadOp)
    check_static_slice(op, NAME)
    offsets = op.static_offsets.get_values()
    sizes = op.static_sizes.get_values()
    rtype = op.result.type
    assert isinstance(rtype, TensorType)
    tile = load.tile.owner
    assert isinstance(tile, ktdp.ConstructAccessTileOp)  # legality-check
    bounds = box_bounds(tile.access_tile_set.data, [])
    assert bounds is not None  # legality-check: rectangular tiles only
    order = [r.position  # type: ignore[attr-defined]
             for r in tile.access_tile_order.data.results]
    # The offset goes into the subscript where it is one index (base + offset, the
    # set still starting where it did); else into the set.
    base = tile.base_map.data
    indices = list(tile.indices)
    results = list(base.results)
    extra: list = []
    cut = list(bounds)
    for k, dim in enumerate(order):  # tensor dim k walks tile dim `dim`
        lo = bounds[dim][0]
        expr = results[dim]
        if offsets[k] and isinstance(expr, AffineSymExpr | AffineDimExpr):
            position = expr.position if isinstance(expr, AffineDimExpr) \
                else base.num_dims + expr.position
            const = arith.ConstantOp(IntegerAttr(offsets[k], IndexType()))
            moved = arith.AddiOp(indices[position], const.result)
            extra += [const, moved]
            indices.append(moved.result)
            results[dim] = AffineExpr.symbol(base.num_symbols + len(indices)
                                             - len(tile.indices) - 1)
        else:
            lo += offsets[k]
        cut[dim] = (lo, lo + sizes[k] - 1)
    new_base = AffineMap(base.num_dims, base.num_symbols + len(indices) - len(tile.indices),
                         tuple(results))
    props = {k: v for k, v in tile.properties.items() if k != "operandSegmentSizes"}
    sub = ktdp.ConstructAccessTileOp.build(
        operands=[tile.view, indices, list(tile.tile_symbols)],
        result_types=[ktdp.AccessTileType([hi - lo + 1 for lo, hi in cut])],
        properties={**props, "access_tile_set": AffineSetAttr(box_set(cut)),
                    "base_map": AffineMapAttr(new_base)},
        attributes=dict(tile.attributes))
    new_load = ktdp.LoadOp.create(operands=[sub.result], result_types=[rtype],
                                  properties=dict(load.properties),
                                  attributes=dict(load.attributes))
    made = [*extra, sub, new_load]
    note_origin(made, op)
    Rewriter.insert_op(made, InsertPoint.before(op))
    new_load.result.name_hint = op.result.name_hint
    op.result.replace_all_uses_with(new_load.result)
    op.detach()
    op.erase()
    if not load.result.uses:
        load.detach()
        load.erase()


@dataclass(frozen=True)
class SliceToSubtile(ModulePass):
    """`tensor.extract_slice` of a loaded tile -> a load of the sub-tile."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for sliced in [o for o in fn.walk() if isinstance(o, tensor.ExtractSliceOp)]:
                # a slice of a computed value is `layout-through-elementwise`'s, once
                # every compute is a generic
                if isinstance(sliced.source.owner, ktdp.LoadOp):
                    slice_load(sliced)
