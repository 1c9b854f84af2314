"""Normal-form pass `copy-to-generic`: a loaded tensor stored as it is (a plain copy)
becomes a store of an identity `linalg.generic` of it, and a `linalg.fill` stored as it
is (a constant written with no input) becomes a store of a generic with no input that
yields the fill's scalar at every point.

A program is a load -> compute -> store chain; a copy has no compute, so the copy is
spelled as the identity compute (each element yielded unchanged). The data then flows
DMA -> load -> compute unit -> store -> DMA like any elementwise program's, with its
tiles, buffer copies and instances chosen by the solver. What it costs: one pass of the
tile through a vector compute unit (one vector op per stick-width of elements) and the
scratchpad buffers on either side of it, where a device route from memory to memory
would need neither. A stored constant is produced the same way: the compute unit
writes the value into the scratchpad and the store moves it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg.ops import FillOp
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
        source = op.value.owner
        rtype = op.value.type
        assert isinstance(rtype, TensorType)
        init = empty_like(rtype)
        if isinstance(source, ktdp.LoadOp):
            identity = AffineMap.identity(rtype.get_num_dims())
            copy = parallel_generic([op.value], [identity], init.tensor, rtype,
                                    lambda args: ([], args[0]))
        elif isinstance(source, FillOp):
            # the body captures the fill's scalar, as `fold-fill-inputs` leaves it
            scalar = source.inputs[0]
            copy = parallel_generic([], [], init.tensor, rtype, lambda args: ([], scalar))
        else:
            return
        store = ktdp.StoreOp.create(operands=[copy.res[0], op.tile],
                                    properties=dict(op.properties),
                                    attributes=dict(op.attributes))
        rewriter.replace(op, [init, copy, store], [])
        if isinstance(source, FillOp) and not source.res[0].uses:
            # the fill was only stored: nothing reads it now (nor its empty init)
            filled = source.outputs[0].owner
            rewriter.erase(source)
            if isinstance(filled, tensor.EmptyOp) and not filled.results[0].uses:
                rewriter.erase(filled)


@dataclass(frozen=True)
class CopyToGeneric(ModulePass):
    """`ktdp.store (ktdp.load ...)` -> `ktdp.store (identity generic (ktdp.load ...))`;
    `ktdp.store (linalg.fill c)` -> `ktdp.store (generic yielding c)`."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(CopyPattern(), apply_recursively=False).rewrite_region(fn.body)
