"""Normal-form pass `identity-access-order`: every access tile traverses its box in the
view's own dim order; a transposed traversal becomes an explicit transpose.

An access tile whose `access_tile_order` (an indirect one's `variables_space_order`) is a
permutation `p` other than the identity
(a column-major read of a row-major box, `(d0, d1) -> (d1, d0)`) gives its data tile the
box's extents in that order: element `idx` of the tile is the box's point whose dim
`p[k]` is `idx[k]` (offset by the box's corner). So

- a load through it is a load through the same box in identity order followed by
  `linalg.transpose` with `permutation = p` (output dim k reads input dim p[k]);
- a store of a value through it is a store, through the identity-ordered box, of the
  value transposed by the inverse permutation.

The scheduler then reads only identity-ordered tiles, and the transposes are compute
like any other (`matmul-to-generic` makes them generics with a permuted input map). The
old tile is dropped once nothing uses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, DenseArrayBase, ModuleOp, TensorType, i64
from xdsl.dialects.linalg.ops import TransposeOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import kernel_of, note_origin
from spyre_sched.schedule.common import fail

NAME = "identity-access-order"


#: the property holding each kind of access tile's traversal order
_ORDER = {ktdp.ConstructAccessTileOp: "access_tile_order",
          ktdp.ConstructIndirectAccessTileOp: "variables_space_order"}


def _permutation(op: Operation) -> list[int] | None:
    """The order's permutation of the box dims (None: not a permutation)."""
    order = op.properties[_ORDER[type(op)]].data
    positions = [getattr(r, "position", None) for r in order.results]
    if None in positions or sorted(positions) != list(range(len(positions))):
        return None
    return positions


def _transpose(value: SSAValue, perm: list[int], origin: Operation,
               at: InsertPoint) -> SSAValue:
    """`value` transposed so that output dim k is its dim perm[k], inserted at `at`."""
    vtype = value.type
    assert isinstance(vtype, TensorType)
    shape = list(vtype.get_shape())
    rtype = TensorType(vtype.element_type, [shape[d] for d in perm])
    init = tensor.EmptyOp([], rtype)
    op = TransposeOp(value, init.tensor, DenseArrayBase.from_list(i64, perm), rtype)
    note_origin([init, op], origin)
    Rewriter.insert_op([init, op], at)
    return op.results[0]


def _identity_tile(op: Operation, perm: list[int]) -> Operation:
    """`op` with the identity order: the same box, its type's extents in view order (an
    indirect tile's: in its variables' order)."""
    old = op.results[0].type
    shape = list(old.get_shape())
    extents = [0] * len(perm)
    for k, d in enumerate(perm):
        extents[d] = shape[k]
    if isinstance(op, ktdp.ConstructAccessTileOp):
        operands = [op.view, list(op.indices), list(op.tile_symbols)]
    else:
        assert isinstance(op, ktdp.ConstructIndirectAccessTileOp)
        operands = [op.view, list(op.index_views), list(op.outer), list(op.tile_symbols)]
    new = type(op).build(
        operands=operands,
        properties={**op.properties,
                    _ORDER[type(op)]: AffineMapAttr(AffineMap.identity(len(perm)))},
        attributes=dict(op.attributes),
        result_types=[ktdp.AccessTileType(extents, old.element_type)],
    )
    new.results[0].name_hint = op.results[0].name_hint
    note_origin([new], op)
    return new


def _reorder(op: Operation, perm: list[int]) -> None:
    identity = _identity_tile(op, perm)
    Rewriter.insert_op(identity, InsertPoint.after(op))
    inverse = [perm.index(d) for d in range(len(perm))]
    for use in list(op.results[0].uses):
        user = use.operation
        if isinstance(user, ktdp.LoadOp):
            old_type = user.result.type
            assert isinstance(old_type, TensorType)
            in_view_order = TensorType(old_type.element_type,
                                       list(identity.results[0].type.get_shape()))
            load = ktdp.LoadOp.build(operands=[identity.results[0]], result_types=[in_view_order],
                                     attributes=dict(user.attributes))
            note_origin([load], user)
            Rewriter.insert_op(load, InsertPoint.before(user))
            transposed = _transpose(load.result, perm, user, InsertPoint.before(user))
            name = user.result.name_hint
            user.result.replace_all_uses_with(transposed)
            transposed.name_hint = name
            Rewriter.erase_op(user)
        elif isinstance(user, ktdp.StoreOp):
            value = _transpose(user.value, inverse, user, InsertPoint.before(user))
            user.operands = [value, identity.results[0]]
        else:
            raise fail(user, NAME, "not supported yet: an access tile in a non-identity order "
                       f"used by {user.name} (only loads and stores)")
    Rewriter.erase_op(op)


@dataclass(frozen=True)
class IdentityAccessOrder(ModulePass):
    """Access tiles in a non-identity order -> identity-ordered tiles + `linalg.transpose`."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for tile in [t for t in fn.walk() if type(t) in _ORDER]:
                perm = _permutation(tile)
                if perm is not None and perm != list(range(len(perm))):
                    _reorder(tile, perm)
