"""Normal-form pass `tensor-elementwise-to-generic`: `arith.*` and `math.*` ops on
tensors become `linalg.generic`s.

`%y = arith.addf %a, %b : tensor<4x128xf16>` is an elementwise map: a generic over the
result's shape, identity maps for every operand, whose body is the same op on the
elements (`arith.addf %x, %z : f16`, with the op's properties such as a comparison
predicate or fast-math flags kept). Casts (`arith.extf`, `arith.truncf`, ...) change the
element type the same way. Every operand must be a tensor of the result's shape (arith
and math ops have no implicit broadcast).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from spyre_sched.dialects.linalg_ktir import inside_linalg_body
from spyre_sched.normalize.common import (
    element_type,
    empty_like,
    kernel_of,
    note_origin,
    parallel_generic,
)
from spyre_sched.schedule.common import fail

NAME = "tensor-elementwise-to-generic"
DIALECTS = ("arith.", "math.")


def _elementwise_on_tensors(op: Operation) -> bool:
    return (op.name.startswith(DIALECTS) and len(op.results) == 1
            and isinstance(op.results[0].type, TensorType) and not op.regions
            and not inside_linalg_body(op))


class ElementwiseOnTensors(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not _elementwise_on_tensors(op) or op.name == "arith.constant":
            return
        rtype = op.results[0].type
        assert isinstance(rtype, TensorType)
        shape = rtype.get_shape()
        for operand in op.operands:
            otype = operand.type
            if not isinstance(otype, TensorType) or otype.get_shape() != shape:
                raise fail(op, NAME, f"not supported yet: {op.name} on operands of "
                           f"different shapes ({otype} and {rtype})")
        if any(d < 0 for d in shape):
            raise fail(op, NAME, f"not supported yet: {op.name} on a tensor of dynamic shape")
        identity = AffineMap.identity(len(shape))

        def body(args):
            scalar = type(op).create(operands=list(args), result_types=[element_type(rtype)],
                                     properties=dict(op.properties),
                                     attributes=dict(op.attributes))
            return [scalar], scalar.results[0]

        init = empty_like(rtype)
        generic = parallel_generic(list(op.operands), [identity] * len(op.operands),
                                   init.tensor, rtype, body)
        note_origin([init, generic], op)
        rewriter.replace(op, [init, generic], [generic.res[0]])


@dataclass(frozen=True)
class TensorElementwiseToGeneric(ModulePass):
    """`arith.*` / `math.*` on tensors -> `linalg.generic` with that op in the body."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(ElementwiseOnTensors(),
                                 apply_recursively=False).rewrite_region(fn.body)
