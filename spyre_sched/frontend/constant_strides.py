"""A view's strides that are compile-time constants become static.

A kernel may pass a stride as an SSA value that is a constant once its scalar arguments are
known: `strides: [%s0, 1]` with `%s0 = arith.index_cast %s0_in` and `--arg s0_in=64`
(a row-major view whose row length is an argument, as the public distributed-copy kernels
write it), or `strides: [%c64, %c1]` spelled with constants. The scheduler and the
polyhedral model read static strides; a stride that stays a run-time value is refused by the
legality check. So each dynamic stride whose value folds (integer constants through
`index_cast`, extensions, truncations, `addi`, `subi`, `muli`, and the divisions and
remainders where they are defined) is written into the view's
static strides and dropped from its operands. Sizes stay as written: a coordinate set's
symbols bind to the dynamic sizes.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IntegerAttr, i64
from xdsl.ir import SSAValue

from spyre_sched.dialects.ktdp import ConstructMemoryViewOp
from spyre_sched.frontend.kernel import Kernel

_PASS_THROUGH = (arith.IndexCastOp, arith.ExtSIOp, arith.ExtUIOp,
                 arith.TruncIOp)


def _truncating(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


#: op -> its value on two folded operands (None: not a value, e.g. a division by zero or
#: an unsigned op on a negative operand)
_COMBINE = {
    arith.AddiOp: lambda a, b: a + b,
    arith.SubiOp: lambda a, b: a - b,
    arith.MuliOp: lambda a, b: a * b,
    arith.DivUIOp: lambda a, b: a // b if a >= 0 and b > 0 else None,
    arith.RemUIOp: lambda a, b: a % b if a >= 0 and b > 0 else None,
    arith.DivSIOp: lambda a, b: _truncating(a, b) if b else None,
    arith.RemSIOp: lambda a, b: a - b * _truncating(a, b) if b else None,
    arith.FloorDivSIOp: lambda a, b: a // b if b else None,
    arith.CeilDivSIOp: lambda a, b: -(-a // b) if b else None,
}


def folded_index(value: SSAValue, depth: int = 0) -> int | None:
    """The integer `value` always holds, when integer constants and the ops above give it;
    else None."""
    owner = value.owner
    if depth > 64:
        return None
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    if isinstance(owner, _PASS_THROUGH):
        return folded_index(owner.operands[0], depth + 1)
    combine = _COMBINE.get(type(owner))
    if combine is not None:
        lhs = folded_index(owner.operands[0], depth + 1)
        rhs = folded_index(owner.operands[1], depth + 1) if lhs is not None else None
        return None if rhs is None else combine(lhs, rhs)
    return None


def fold_constant_strides(kernel: Kernel) -> int:
    """Make every view's constant strides static (in place); the number of strides folded."""
    folded = 0
    for op in list(kernel.func.walk()):
        if not isinstance(op, ConstructMemoryViewOp) or not op.strides:
            continue
        values = [folded_index(v) for v in op.strides]
        if any(v is None for v in values):
            continue
        given = iter(values)
        strides = [next(given) if s == DYNAMIC_INDEX else s
                   for s in op.static_strides.get_values()]
        op.properties["static_strides"] = DenseArrayBase.from_list(i64, strides)
        sizes = list(op.sizes)
        op.operands = [op.offset, *sizes]
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            op.properties["operandSegmentSizes"].elt_type, [1, len(sizes), 0])
        folded += len(values)
    return folded
