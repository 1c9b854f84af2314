"""Pass, indirect-views: an indirect access tile becomes a plain tile of a gather view.

`ktdp.construct_indirect_access_tile` over view V reads (or writes) the tensor
`G[v] = V[c(v)]` over its intermediate variables v, some coordinates of c coming from
index tensors. This pass names that tensor: `%G = ktdf.gather_view` (the tile's maps and
index views, its variables' box as G's shape) and replaces the indirect tile by a plain
box tile of G. The passes that follow tile, stage and pipeline boxes of G as they do
boxes of any view; `indirect-addresses` then gives each transfer of a box of G the index
fetch it needs, and the lowering turns the move into an indirect transfer.

What the lowering can address is checked here, at the op the kernel author wrote: the
variables' set is a box without symbols in its natural order; a direct (non-`ind`)
subscript is linear in the variables and the outer values; an index subscript is one
variable plus outer values and constants, or outer values and constants only, each
variable at most once in an index tensor's subscripts.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    DenseArrayBase,
    MemRefType,
    ModuleOp,
    i64,
)
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineMap, AffineSet
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.dialects.agen import linear_form
from spyre_sched.polyhedral.linear_over_box import linear_subscript
from spyre_sched.polyhedral.point_sets import box_bounds, box_set
from spyre_sched.polyhedral.known_multiples import known_factor
from spyre_sched.polyhedral.variable_split import split_with_outer_multiples
from spyre_sched.schedule.common import fail, index_constant, programs

NAME = "indirect-views"


def check_indirect_tile(op: ktdp.ConstructIndirectAccessTileOp, pass_name: str) -> list[tuple[int, int]]:
    """The variables' box, or a located error naming what the lowering cannot address."""
    if op.tile_symbols:
        raise fail(op, pass_name, "not supported yet: an indirect access tile whose "
                   "variables_space_set has symbols")
    vset = op.variables_space_set.data
    box = box_bounds(vset, [])
    if box is None:
        raise fail(op, pass_name, "not supported yet: an indirect access tile whose "
                   "variables_space_set is not a box")
    order = op.variables_space_order.data
    positions = [getattr(r, "position", None) for r in order.results]
    if None in positions or sorted(positions) != list(range(order.num_dims)):
        # (a permutation is made the identity plus a transpose: identity-access-order)
        raise fail(op, pass_name, "not supported yet: an indirect access tile whose "
                   "variables_space_order is not a permutation of its variables")
    view_op = op.view.owner
    if not isinstance(view_op, ktdp.ConstructMemoryViewOp) or \
            view_op.memory_space.space == "ct_local":
        raise fail(op, pass_name, "not supported yet: an indirect access tile over a view "
                   "that is not in device memory")
    dim_map = op.dim_map.data
    index_maps = [attr.data for attr in op.index_maps.data]
    # (variables read through floordiv/mod: split-indirect-variables splits them, and
    # the subscripts are checked as they will be then)
    found = split_with_outer_multiples(box, [dim_map, *index_maps],
                                       [known_factor(v) for v in op.outer])
    if found is not None:
        dim_map, *index_maps = found[0].maps
        vset = box_set(found[0].box)
    nd = dim_map.num_dims
    ind = op.ind_dims.get_values()
    for k, expr in enumerate(dim_map.results):
        if ind[k] >= 0:
            continue
        if linear_subscript(expr, vset, dim_map.num_symbols) is None:
            # (quasi-affine but linear over the box: simplify-indirect-subscripts makes it so;
            # after a split every subscript is linear already)
            raise fail(op, pass_name, f"not supported yet: subscript {k} of an indirect "
                       f"access tile ({expr}) is not linear in the variables and outer values")
    for j, imap in enumerate(index_maps):
        used: set[int] = set()
        for expr in imap.results:
            # (linear over the box: simplify-indirect-subscripts makes it so)
            better = linear_subscript(expr, vset, imap.num_symbols)
            form = None if better is None else \
                linear_form(ktdp.symbols_as_dims(better, nd, imap.num_symbols))
            var_terms = {} if form is None else {d: c for d, c in form[0].items() if d < nd}
            if form is None or any(c != 1 for c in var_terms.values()) or len(var_terms) > 1 \
                    or used & set(var_terms):
                raise fail(op, pass_name, f"not supported yet: index subscript {expr} of "
                           f"index tensor #{j} (each must be one variable plus outer values "
                           "and constants, each variable once)")
            used |= set(var_terms)
    return box


@dataclass(frozen=True)
class IndirectViews(ModulePass):
    """Replace each indirect access tile by a box tile of a `ktdf.gather_view`."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _, program in programs(op):
            for tile in [o for o in program.walk()
                         if isinstance(o, ktdp.ConstructIndirectAccessTileOp)]:
                _rewrite(tile)


def _box(extents: list[int]) -> AffineSet:
    """{0 <= d_i <= extents_i - 1}."""
    constraints = []
    for i, n in enumerate(extents):
        d = AffineExpr.dimension(i)
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, d, AffineExpr.constant(0)))
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge,
                                                AffineExpr.constant(n - 1) - d, AffineExpr.constant(0)))
    return AffineSet(len(extents), 0, tuple(constraints))


def _rewrite(tile: ktdp.ConstructIndirectAccessTileOp) -> None:
    box = check_indirect_tile(tile, NAME)
    lows = [lo for lo, _ in box]
    extents = [hi - lo + 1 for lo, hi in box]
    vtype = tile.view.type
    assert isinstance(vtype, MemRefType)
    gather = ktdf.GatherViewOp.build(
        operands=[tile.view, list(tile.index_views), list(tile.outer)],
        properties={
            "ind_dims": tile.ind_dims,
            "dim_map": tile.dim_map,
            "index_maps": tile.index_maps,
            "lows": DenseArrayBase.from_list(i64, lows),
            "extents": DenseArrayBase.from_list(i64, extents),
        },
        result_types=[MemRefType(vtype.element_type, extents)],
    )
    # base (the variables' first point) + the box [0, extents): G's coordinates are the
    # variables' values
    starts = [index_constant(lo) for lo in lows]
    base = AffineMap(0, len(lows), tuple(AffineExpr.symbol(k) for k in range(len(lows))))
    plain = ktdp.ConstructAccessTileOp.build(
        operands=[gather.result, [c.result for c in starts], []],
        properties={
            "base_map": AffineMapAttr(base),
            "access_tile_set": AffineSetAttr(_box(extents)),
            "access_tile_order": tile.variables_space_order,
        },
        result_types=[tile.result.type],
    )
    if tile.view.name_hint:
        gather.result.name_hint = f"{tile.view.name_hint}_gathered"
    Rewriter.insert_op([*starts, gather, plain], InsertPoint.before(tile))
    tile.result.replace_all_uses_with(plain.result)
    Rewriter.erase_op(tile)
