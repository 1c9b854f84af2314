"""Normal-form pass `split-indirect-variables`: a variable of an indirect access tile read
through `floordiv c` and `mod c` becomes two, its quotient and its remainder.

A paged gather (the upstream dialect's paged copy, paged attention's K and V reads) reads
`X[ind(Idx[b, t floordiv 64]), h, t mod 64, d]`: a page from the index tensor, the row
within the page. The gather machinery addresses subscripts linear in the variables; with
`t = 64 * page + row` both subscripts are (`polyhedral/variable_split.py`). The tile over
the new variables holds the same elements in the same row-major order with `t`'s
dimension as two, so:

- a load through it gives the split shape, and a `tensor.collapse_shape` merges each
  pair back into the shape the kernel wrote;
- a store through it stores the value expanded to the split shape
  (`tensor.expand_shape`).

`reshape-to-access` and `layout-through-elementwise` then carry the reshape to the memory
on the other side (the store's tile, or the loads of what is stored), where splitting a
dimension in two is a strided access like any other. The variables must be a box in the
identity order (`identity-access-order` runs first) whose split variables' ranges are
whole multiples of their divisor; the legality check refuses, at the tile, what this pass
cannot make linear.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.ir import SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import box_set, kernel_of, note_origin, reassociation
from spyre_sched.polyhedral.point_sets import box_bounds
from spyre_sched.polyhedral.known_multiples import known_factor
from spyre_sched.polyhedral.variable_split import VariableSplit, split_with_outer_multiples

NAME = "split-indirect-variables"


def _tile_split(tile: ktdp.ConstructIndirectAccessTileOp
                ) -> tuple[VariableSplit, dict[int, int]] | None:
    """The split of `tile`'s variables that makes its subscripts linear, and the outer
    values it writes as multiples (`outer_multiples`: symbol -> divisor), or None (none
    needed, or none found). The maps are `dim_map` first, then the index maps."""
    if tile.tile_symbols:
        return None
    box = box_bounds(tile.variables_space_set.data, [])
    if box is None:
        return None
    return split_with_outer_multiples(
        box, [tile.dim_map.data, *(m.data for m in tile.index_maps.data)],
        [known_factor(v) for v in tile.outer])


def _outer_quotients(tile: ktdp.ConstructIndirectAccessTileOp,
                     scaled: dict[int, int]) -> list[SSAValue]:
    """Per scaled outer value, its exact quotient by its divisor, computed before `tile`."""
    out: list[SSAValue] = []
    for k, c in scaled.items():
        divisor = arith.ConstantOp(IntegerAttr(c, IndexType()))
        quotient = arith.DivSIOp(tile.outer[k], divisor.result)  # (exact: a known multiple)
        hint = tile.outer[k].name_hint
        quotient.result.name_hint = f"{hint}_div{c}" if hint else None
        note_origin([divisor, quotient], tile)
        Rewriter.insert_op([divisor, quotient], InsertPoint.before(tile))
        out.append(quotient.result)
    return out


def _rewrite(tile: ktdp.ConstructIndirectAccessTileOp) -> None:
    order = tile.variables_space_order.data
    if order != AffineMap.identity(order.num_dims):
        return  # (identity-access-order made every order it could the identity)
    found = _tile_split(tile)
    if found is None:
        return
    split, scaled = found
    uses = [u for u in tile.result.uses]
    if not all(isinstance(u.operation, ktdp.LoadOp)
               or (isinstance(u.operation, ktdp.StoreOp) and u.index == 1) for u in uses):
        return  # (the legality check names what else reads the tile)
    names = [v.data for v in tile.var_names.data]
    new_names: list[str] = []
    for k, group in enumerate(split.positions):
        name = names[k] if k < len(names) else f"v{k}"
        new_names += [name] if len(group) == 1 else [f"{name}_q", f"{name}_r"]
    shape = [hi - lo + 1 for lo, hi in split.box]
    dim_map, *index_maps = split.maps
    outer = [*tile.outer, *_outer_quotients(tile, scaled)]
    new_tile = ktdp.ConstructIndirectAccessTileOp.build(
        operands=[tile.view, list(tile.index_views), outer, []],
        properties={
            "var_names": ArrayAttr([StringAttr(n) for n in new_names]),
            "ind_dims": tile.ind_dims,
            "dim_map": AffineMapAttr(dim_map),
            "index_maps": ArrayAttr([AffineMapAttr(m) for m in index_maps]),
            "variables_space_set": AffineSetAttr(box_set(split.box)),
            "variables_space_order": AffineMapAttr(AffineMap.identity(len(shape))),
        },
        result_types=[ktdp.AccessTileType(shape)],
    )
    new_tile.result.name_hint = tile.result.name_hint
    note_origin([new_tile], tile)
    Rewriter.insert_op(new_tile, InsertPoint.before(tile))
    if not split.divisors:  # only outer values written as multiples: the same shape
        tile.result.replace_all_uses_with(new_tile.result)
        tile.detach()
        tile.erase()
        return
    groups = reassociation(split.positions)
    for use in uses:
        user = use.operation
        if isinstance(user, ktdp.LoadOp):
            old = user.result.type
            assert isinstance(old, TensorType)
            load = ktdp.LoadOp.create(operands=[new_tile.result],
                                      result_types=[TensorType(old.element_type, shape)],
                                      properties=dict(user.properties),
                                      attributes=dict(user.attributes))
            merge = tensor.CollapseShapeOp.create(operands=[load.result], result_types=[old],
                                                  properties={"reassociation": groups})
            note_origin([load, merge], user)
            Rewriter.insert_op([load, merge], InsertPoint.before(user))
            merge.results[0].name_hint = user.result.name_hint
            user.result.replace_all_uses_with(merge.results[0])
            user.detach()
            user.erase()
        else:
            value = user.operands[0]
            vtype = value.type
            assert isinstance(vtype, TensorType)
            spread = tensor.ExpandShapeOp(value, [], groups, shape,
                                          TensorType(vtype.element_type, shape))
            note_origin([spread], user)
            Rewriter.insert_op(spread, InsertPoint.before(user))
            user.operands[0] = spread.results[0]
            user.operands[1] = new_tile.result
    tile.detach()
    tile.erase()


@dataclass(frozen=True)
class SplitIndirectVariables(ModulePass):
    """Indirect tile variables read through floordiv/mod -> quotient and remainder."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for tile in [o for o in fn.walk() if isinstance(o, ktdp.ConstructIndirectAccessTileOp)]:
                _rewrite(tile)
