"""Normal-form pass `splat-to-fill`: every tensor holding one value everywhere is a
`linalg.fill` of that value into a `tensor.empty`.

- `tensor.splat %s : tensor<...>`;
- `arith.constant dense<v> : tensor<...>` (a splat constant; a constant with different
  elements is refused: the schedule has no place for constant data).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

from spyre_sched.dialects.linalg_ktir import inside_linalg_body
from spyre_sched.normalize.common import empty_like, kernel_of, note_origin
from spyre_sched.schedule.common import fail

NAME = "splat-to-fill"


def _fill(value, rtype: TensorType) -> list[Operation]:
    init = empty_like(rtype)
    return [init, FillOp([value], [init.tensor], [rtype])]


class SplatPattern(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if inside_linalg_body(op):
            return
        if isinstance(op, tensor.SplatOp):
            rtype = op.result.type
            assert isinstance(rtype, TensorType)
            ops = _fill(op.input, rtype)
            note_origin(ops, op)
            rewriter.replace(op, ops, [ops[-1].results[0]])
        elif isinstance(op, arith.ConstantOp) and isinstance(op.result.type, TensorType):
            rtype = op.result.type
            attr = op.value
            values = attr.get_values() if isinstance(attr, DenseIntOrFPElementsAttr) else None
            if not values or any(v != values[0] for v in values):
                raise fail(op, NAME, "not supported yet: a constant tensor whose elements "
                           "differ (only splat constants)")
            element = rtype.element_type
            scalar_attr = (FloatAttr(values[0], element) if isinstance(values[0], float)
                           else IntegerAttr(values[0], element))
            scalar = arith.ConstantOp(scalar_attr)
            ops = [scalar, *_fill(scalar.result, rtype)]
            note_origin(ops, op)
            rewriter.replace(op, ops, [ops[-1].results[0]])


@dataclass(frozen=True)
class SplatToFill(ModulePass):
    """`tensor.splat` and splat `arith.constant dense<...>` -> `tensor.empty` + `linalg.fill`."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(SplatPattern(), apply_recursively=False).rewrite_region(fn.body)
