"""Normal-form pass `copy-to-generic`: a loaded tensor stored as it is (a plain copy)
becomes a store of an identity `linalg.generic` of it.

A program is a load -> compute -> store chain; a copy has no compute, so the copy is
spelled as the identity compute (each element yielded unchanged). The data then flows
DMA -> load -> compute unit -> store -> DMA like any elementwise program's, with its
tiles, buffer copies and instances chosen by the solver.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import empty_like, kernel_of, parallel_generic

NAME = "copy-to-generic"


class CopyPattern(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ktdp.StoreOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.value.owner, ktdp.LoadOp):
            return
        rtype = op.value.type
        assert isinstance(rtype, TensorType)
        init = empty_like(rtype)
        identity = AffineMap.identity(rtype.get_num_dims())
        copy = parallel_generic([op.value], [identity], init.tensor, rtype,
                                lambda args: ([], args[0]))
        store = ktdp.StoreOp.create(operands=[copy.res[0], op.tile],
                                    properties=dict(op.properties),
                                    attributes=dict(op.attributes))
        rewriter.replace(op, [init, copy, store], [])


@dataclass(frozen=True)
class CopyToGeneric(ModulePass):
    """`ktdp.store (ktdp.load ...)` -> `ktdp.store (identity generic (ktdp.load ...))`."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(CopyPattern(), apply_recursively=False).rewrite_region(fn.body)
