"""Normal-form pass `stored-fill-to-generic`: a `linalg.fill` stored as it is (a
constant written with no input) becomes a store of a generic with no input that yields
the fill's scalar at every point.

A constant has no data in memory to move: something must produce it, so it is a compute
like any other, and the program is the usual compute -> store chain (the compute unit
writes the value, the store moves it out). A loaded tile stored as it is (a plain copy)
is not rewritten: it needs no compute, and `naive-pipeline` moves it with DMA transfers
only (`spyre_sched/schedule/copy_pipeline.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg.ops import FillOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import empty_like, kernel_of, parallel_generic

NAME = "stored-fill-to-generic"


class StoredFillPattern(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ktdp.StoreOp, rewriter: PatternRewriter) -> None:
        source = op.value.owner
        if not isinstance(source, FillOp):
            return
        rtype = op.value.type
        assert isinstance(rtype, TensorType)
        init = empty_like(rtype)
        # the body captures the fill's scalar, as `fold-fill-inputs` leaves it
        scalar = source.inputs[0]
        constant = parallel_generic([], [], init.tensor, rtype, lambda args: ([], scalar))
        store = ktdp.StoreOp.create(operands=[constant.res[0], op.tile],
                                    properties=dict(op.properties),
                                    attributes=dict(op.attributes))
        rewriter.replace(op, [init, constant, store], [])
        if not source.res[0].uses:
            # the fill was only stored: nothing reads it now (nor its empty init)
            filled = source.outputs[0].owner
            rewriter.erase(source)
            if isinstance(filled, tensor.EmptyOp) and not filled.results[0].uses:
                rewriter.erase(filled)


@dataclass(frozen=True)
class StoredFillToGeneric(ModulePass):
    """`ktdp.store (linalg.fill c)` -> `ktdp.store (generic yielding c)`."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(StoredFillPattern(), apply_recursively=False).rewrite_region(fn.body)
