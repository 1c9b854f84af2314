"""Normal-form pass `select-combiner`: a reduction whose combiner is a comparison and a
select (`max` written as `cmpf ogt` + `select`) gets the one-op combiner it computes.

```
%gt = arith.cmpf ogt, %in, %acc : f16        %m = arith.maxnumf %in, %acc : f16
%m = arith.select %gt, %in, %acc : f16   ->
```

The scheduler reduces lanes and chunks with one combining op, so the two-op spelling
becomes the op with the same result:

- `select(cmpf(o{gt,ge}, in, acc), in, acc)` and `select(cmpf(o{lt,le}, acc, in), in,
  acc)` keep the larger value, and an input that is NaN never replaces the accumulator
  (an ordered comparison with NaN is false): that is `maxnumf`, which returns the other
  operand of a NaN. Likewise `o{lt,le}` / `o{gt,ge}` swapped give `minnumf`.
- The accumulator itself must never be NaN, or the select keeps it where `maxnumf`
  would not: the reduction must start from a `linalg.fill` of a number (a NaN start, or
  one the pass cannot see, is refused).

As with every reduction the scheduler splits into chunks and lanes, the order of the
comparisons changes: where the largest value occurs both as +0 and -0, which zero comes
out may differ from a left-to-right fold.

Other bodies that use the accumulator in a select are refused at the reduction; a body
whose yielded value is one op on the accumulator is left as it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, ModuleOp
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from spyre_sched.normalize.common import REDUCTION, kernel_of
from spyre_sched.normalize.compare_to_mask import predicate_name
from spyre_sched.schedule.common import fail

NAME = "select-combiner"

#: cmpf predicates whose select keeps the comparison's first operand when it is the
#: larger / the smaller
_GREATER = ("ogt", "oge")
_LESS = ("olt", "ole")


def _combiner_kind(select: Operation, acc: SSAValue) -> type[Operation] | None:
    """maxnumf/minnumf if `select` is such a combiner of `acc` and one other value."""
    cmp = select.cond.owner
    if not isinstance(cmp, arith.CmpfOp) or len(list(cmp.result.uses)) != 1:
        return None
    chosen, other = select.lhs, select.rhs
    if {chosen, other} != {cmp.lhs, cmp.rhs} or acc not in (chosen, other):
        return None
    # normalise to "the comparison's first operand is the value chosen when true"
    pred = predicate_name(cmp)
    if cmp.lhs is not chosen:
        pred = {"ogt": "olt", "oge": "ole", "olt": "ogt", "ole": "oge"}.get(pred, pred)
    if pred in _GREATER:
        return arith.MaxnumfOp
    if pred in _LESS:
        return arith.MinnumfOp
    return None


def _starts_from_a_number(op: GenericOp) -> bool:
    fill = op.outputs[0].owner
    if not isinstance(fill, FillOp):
        return False
    value = fill.inputs[0].owner
    return (isinstance(value, arith.ConstantOp) and isinstance(value.value, FloatAttr)
            and not math.isnan(value.value.value.data))


class SelectCombinerPattern(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if REDUCTION not in op.iterator_types.data:
            return
        block = op.body.block
        acc = block.args[len(op.inputs)]
        last = block.last_op
        if not isinstance(last, YieldOp) or len(last.operands) != 1:
            return
        select = last.operands[0].owner
        if not isinstance(select, Operation) or select.name != "arith.select":
            return  # (the kernel's parser has its own arith.select class)
        kind = _combiner_kind(select, acc)
        if kind is None:
            raise fail(op, NAME, "not supported yet: a reduction combiner built from a "
                       "select that is not a maximum or minimum (select(cmpf ogt/oge/olt/"
                       "ole of the input and the accumulator) between the two)")
        if not _starts_from_a_number(op):
            raise fail(op, NAME, "not supported yet: a maximum or minimum written as "
                       "cmpf + select over an initial value that is not a linalg.fill of "
                       "a number (a NaN accumulator would stay NaN, which maxnumf/minnumf "
                       "does not do)")
        value = select.rhs if select.lhs is acc else select.lhs
        cmp = select.cond.owner
        assert isinstance(cmp, Operation)
        new = kind(value, acc)
        rewriter.replace(select, [new], [new.result])
        rewriter.erase(cmp)


@dataclass(frozen=True)
class SelectCombiner(ModulePass):
    """Reductions combining with cmpf + select -> with maxnumf / minnumf."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(SelectCombinerPattern(),
                                 apply_recursively=False).rewrite_region(fn.body)
