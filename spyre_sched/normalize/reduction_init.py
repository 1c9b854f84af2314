"""Normal-form pass `reduction-init-to-fill`: a reduction whose initial value is not a
fill starts from its combiner's identity, and the initial value is combined after.

`S = reduce(X) from S0` with an `addf` combiner is `S0 + reduce(X) from 0` (and
`maximumf`/`minimumf`/`mulf` alike, from -inf/+inf/1): the accumulator the scheduler
keeps in the compute unit starts from a fill, and a loaded, computed or constant initial
value becomes an input of an elementwise generic after the reduction. This reassociates
the reduction, as the scheduler's own chunking and vector reductions already do.

The combiner is the op the body yields, taking the accumulator as one operand; another
body is refused at the reduction.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from spyre_sched.normalize.common import (
    REDUCTION,
    empty_like,
    kernel_of,
    note_origin,
    parallel_generic,
)
from spyre_sched.schedule.common import fail

NAME = "reduction-init-to-fill"

_IDENTITY = {
    arith.AddfOp: 0.0,
    arith.MulfOp: 1.0,
    arith.MaximumfOp: float("-inf"),
    arith.MinimumfOp: float("inf"),
}


def _combiner(op: GenericOp) -> Operation | None:
    block = op.body.block
    acc = block.args[len(op.inputs)]
    last = block.last_op
    if not isinstance(last, YieldOp) or len(last.operands) != 1:
        return None
    combine = last.operands[0].owner
    if type(combine) not in _IDENTITY or not isinstance(combine, Operation):
        return None
    if list(combine.operands).count(acc) != 1 or len(list(acc.uses)) != 1:
        return None
    return combine


class ReductionInitPattern(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if REDUCTION not in op.iterator_types.data or isinstance(op.outputs[0].owner, FillOp):
            return
        init = op.outputs[0]
        owner = init.owner
        if not isinstance(owner, Operation):
            return  # a loop-carried accumulator: untile-loops has refused or folded it
        combine = _combiner(op)
        if combine is None:
            raise fail(op, NAME, "not supported yet: a reduction whose initial value is not "
                       "a fill and whose body does not end in addf, mulf, maximumf or "
                       "minimumf of the accumulator")
        rtype = init.type
        assert isinstance(rtype, TensorType)
        identity = arith.ConstantOp(FloatAttr(_IDENTITY[type(combine)], rtype.element_type))
        empty = empty_like(rtype)
        fill = FillOp([identity.result], [empty.tensor], [rtype])
        reduced = GenericOp(list(op.inputs), [fill.results[0]], op.body.clone(),
                            list(op.indexing_maps.data), list(op.iterator_types.data),
                            [rtype])
        identity_map = AffineMap.identity(rtype.get_num_dims())
        out = empty_like(rtype)
        kind = type(combine)

        def body(args):
            scalar = kind.create(operands=[args[0], args[1]],
                                 result_types=[rtype.element_type],
                                 properties=dict(combine.properties))
            return [scalar], scalar.results[0]

        combined = parallel_generic([init, reduced.res[0]], [identity_map, identity_map],
                                    out.tensor, rtype, body)
        note_origin([identity, empty, fill, reduced, out, combined], op)
        rewriter.replace(op, [identity, empty, fill, reduced, out, combined],
                         [combined.res[0]])


@dataclass(frozen=True)
class ReductionInitToFill(ModulePass):
    """Reductions from a non-fill initial value -> from the identity, then combined."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(ReductionInitPattern(),
                                 apply_recursively=False).rewrite_region(fn.body)
