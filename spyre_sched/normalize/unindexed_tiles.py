"""Normal-form pass `unindexed-tiles`: an indirect access tile that reads no index tensor
is a plain access tile on a view whose dimensions are its variables.

`ktdp.construct_indirect_access_tile` may give every subscript as an expression of its
variables and outer values, with no `ind(...)` (a producer that linearises a 2 x 64 tile
onto a 1-D view: `%src[(%page * 64 + %lane)]`). Nothing is gathered: with the subscripts
linear (`simplify-indirect-subscripts` runs first), the tile's element at variables `v` is
at `offset + sum_k (coord_k(v) - min_k) * stride_k` of the view, an affine function of
`v`. So it is the whole box of a view of the same memory whose dimensions are the
variables: sizes the variables' extents, stride of variable d `sum_k a_kd * stride_k`
(`a_kd` its coefficient in subscript k), the offset the rest (outer values included, as
`arith` ops where the tile was). The scheduler then meets a plain tile. Refused, located:
a variable whose stride would not be positive (a reversed or broadcast walk), a view of
run-time strides.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.agen import linear_form
from spyre_sched.normalize.common import kernel_of, note_origin, view_and_tile
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.schedule.common import add_linear, fail, index_constant

NAME = "unindexed-tiles"


def _rewrite(tile: ktdp.ConstructIndirectAccessTileOp) -> None:
    view = tile.view.owner
    box = box_bounds(tile.variables_space_set.data, [])
    # (the legality check refused tiles of run-time boxes, on other views, of subscripts
    # that are not linear over the box)
    assert isinstance(view, ktdp.ConstructMemoryViewOp) and box is not None
    view_box = box_bounds(view.coordinate_set.data, [])
    if view.strides or view_box is None:
        raise fail(tile, NAME, "not supported yet: an indirect access tile with no index "
                   "tensor on a view of run-time strides or of a coordinate set that is not "
                   "a box")
    strides = list(view.static_strides.get_values())
    dim_map = tile.dim_map.data
    nd = len(box)
    forms = [linear_form(ktdp.symbols_as_dims(e, nd, dim_map.num_symbols))
             for e in dim_map.results]
    assert all(f is not None for f in forms)  # (simplify-indirect-subscripts ran)
    new_strides = [sum(f[0].get(d, 0) * s for f, s in zip(forms, strides))  # type: ignore[index]
                   for d in range(nd)]
    if any(s <= 0 for s in new_strides):
        raise fail(tile, NAME, "not supported yet: an indirect access tile with no index "
                   f"tensor whose variables walk the view with strides {new_strides} "
                   "(each must be positive)")
    # the element offset at the box's first point, split into a constant and outer values
    constant = sum((f[1] - lo) * s for f, (lo, _), s in zip(forms, view_box, strides))  # type: ignore[index]
    constant += sum(lo * s for (lo, _), s in zip(box, new_strides))
    per_outer: dict[int, int] = {}
    for f, s in zip(forms, strides):
        for d, c in f[0].items():  # type: ignore[index]
            if d >= nd:
                per_outer[d - nd] = per_outer.get(d - nd, 0) + c * s
    ops: list[Operation] = []
    offset = add_linear(view.offset, [(tile.outer[j], c) for j, c in sorted(per_outer.items())],
                        constant, ops)
    extents = [hi - lo + 1 for lo, hi in box]
    mtype = view.result.type
    assert isinstance(mtype, MemRefType)
    local = [(0, e - 1) for e in extents]
    zero = index_constant(0)
    ops.append(zero)
    flat, plain = view_and_tile(offset, extents, new_strides, local, view.memory_space,
                                mtype.element_type, [zero.result] * nd, local)
    ops += [flat, plain]
    Rewriter.insert_op(ops, InsertPoint.before(tile))
    note_origin(ops, tile)
    tile.results[0].replace_all_uses_with(plain.results[0])
    Rewriter.erase_op(tile)


@dataclass(frozen=True)
class UnindexedTiles(ModulePass):
    """Indirect access tiles with no index tensor -> plain access tiles."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for tile in [o for o in fn.walk() if isinstance(o, ktdp.ConstructIndirectAccessTileOp)
                         and not tile_reads_index(o)]:
                _rewrite(tile)


def tile_reads_index(tile: ktdp.ConstructIndirectAccessTileOp) -> bool:
    return any(k >= 0 for k in tile.ind_dims.get_values())
