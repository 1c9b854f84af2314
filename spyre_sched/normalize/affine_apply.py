"""Normal-form pass `affine-apply-to-arith`: `affine.apply` in a kernel's index
arithmetic (subscripts, loop bounds) becomes the `arith` ops that compute it.

The scheduler and the lowering read index arithmetic as `arith` ops (`addi`, `muli`, ...);
`affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%t)[%k]` is the same computation
written as a map. Upstream xDSL's affine lowering gives the ops of each expression
(`mod`/`floordiv`/`ceildiv` become `arith.remsi`/`floordivsi`/`ceildivsi`). `affine.apply`
inside a linalg body is not index arithmetic of the kernel and is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.lower_affine import affine_expr_ops

from spyre_sched.dialects.linalg_ktir import inside_linalg_body
from spyre_sched.normalize.common import kernel_of, replace_naming_result
from spyre_sched.schedule.common import fail

NAME = "affine-apply-to-arith"


class ApplyPattern(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ApplyOp, rewriter: PatternRewriter) -> None:
        if inside_linalg_body(op):
            return
        amap = op.map.data
        if len(amap.results) != 1:
            raise fail(op, NAME, "an affine.apply whose map has several results")
        operands = list(op.mapOperands)
        ops, value = affine_expr_ops(amap.results[0], operands[:amap.num_dims],
                                     operands[amap.num_dims:])
        replace_naming_result(rewriter, op, ops, value)


@dataclass(frozen=True)
class AffineApplyToArith(ModulePass):
    """Kernel-level `affine.apply` -> `arith` index arithmetic."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(ApplyPattern(), apply_recursively=False).rewrite_region(fn.body)
