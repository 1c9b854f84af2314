"""Which `linalg.generic`s are matmuls: the computes the matrix unit runs.

A generic is matmul-shaped when it has three iteration dims, two parallel (m, n) and one
reduction (k), two inputs reading (m, k) and (k, n) in either order of their subscripts
(any operand transposition), an output map (m, n), and a body that multiplies the two
input elements (each possibly extended first) and adds the product to the accumulator.
That is what `linalg.matmul` becomes in the normal form, and how a kernel spells a
matmul itself.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr


def _source_arg(value: SSAValue) -> BlockArgument | None:
    """The block argument `value` is, or is an `arith.extf` of."""
    if isinstance(value, BlockArgument):
        return value
    owner = value.owner
    if isinstance(owner, arith.ExtFOp) and isinstance(owner.input, BlockArgument):
        return owner.input
    return None


def _dims(amap) -> list[int] | None:
    if not all(isinstance(r, AffineDimExpr) for r in amap.results):
        return None
    return [r.position for r in amap.results]


def matmul_dims(op: GenericOp) -> tuple[int, int] | None:
    """(m, n): the output's row and column iteration dims, if `op` is a matmul."""
    kinds = [str(t.data) for t in op.iterator_types.data]
    if len(kinds) != 3 or kinds.count("reduction") != 1 or len(op.inputs) != 2 \
            or len(op.outputs) != 1:
        return None
    k = kinds.index("reduction")
    maps = [_dims(m.data) for m in op.indexing_maps.data]
    if any(m is None or len(m) != 2 for m in maps):
        return None
    out = maps[2]
    assert out is not None
    m, n = out
    if k in out or m == n:
        return None
    firsts = {frozenset(maps[0]), frozenset(maps[1])}  # type: ignore[arg-type]
    if firsts != {frozenset((m, k)), frozenset((k, n))}:
        return None
    block = op.body.block
    acc = block.args[2]
    last = block.last_op
    if not isinstance(last, YieldOp) or len(last.operands) != 1:
        return None
    add = last.operands[0].owner
    if not isinstance(add, arith.AddfOp) or acc not in add.operands:
        return None
    product = add.rhs if add.lhs == acc else add.lhs
    mul = product.owner
    if not isinstance(mul, Operation) or not isinstance(mul, arith.MulfOp):
        return None
    sides = {_source_arg(mul.lhs), _source_arg(mul.rhs)}
    if sides != {block.args[0], block.args[1]}:
        return None
    if len(list(block.ops)) > 5:  # extf, extf, mulf, addf, yield at most
        return None
    return m, n
