"""The largest constant an index value is known to be a multiple of, from how it is made.

A tile's first row is `tile_id * rows_per_tile`, a tile loop's variable runs from a
multiple by a multiple: such a value read through `floordiv c` or `mod c` in an indirect
subscript (`(row0 + t) floordiv page`) splits cleanly when c divides it, since then
`(row0 + t) floordiv c = row0 / c + t floordiv c` and `(row0 + t) mod c = t mod c`.
The analysis follows constants, products, sums and differences, and the induction
variables of `scf.for` loops (their lower bound and step); anything else is a multiple
of 1. (The kernel-wide `affine_values` reads more spellings, but is built for a whole
function; this is asked of one outer value inside a rewrite, before and after others.)
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, BlockArgument, SSAValue

#: how deep a chain of definitions is followed (a guard against long chains, not cycles:
#: SSA values are defined before they are used)
DEPTH = 16


def known_factor(value: SSAValue, depth: int = DEPTH) -> int:
    """A positive c with `value` a multiple of c wherever it is computed (0 is a multiple
    of anything: a constant 0 gives 0, read as "any")."""
    if depth <= 0:
        return 1
    if isinstance(value, BlockArgument):
        return _induction_factor(value, depth)
    op = value.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return abs(op.value.value.data)
    if isinstance(op, arith.MuliOp):
        a, b = (known_factor(x, depth - 1) for x in op.operands)
        return 0 if 0 in (a, b) else a * b
    if isinstance(op, (arith.AddiOp, arith.SubiOp)):
        return math.gcd(*(known_factor(x, depth - 1) for x in op.operands))
    return 1


def _induction_factor(arg: BlockArgument, depth: int) -> int:
    block = arg.owner
    loop = block.parent_op() if isinstance(block, Block) else None
    if isinstance(loop, scf.ForOp) and arg.index == 0:
        return math.gcd(known_factor(loop.lb, depth - 1), known_factor(loop.step, depth - 1))
    return 1
