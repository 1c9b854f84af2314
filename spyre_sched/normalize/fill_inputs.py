"""Normal-form pass `fold-fill-inputs`: a `linalg.fill` read as an input of a
`linalg.generic` becomes its scalar inside the body.

Reading a filled tensor element by element gives the fill value at every point, so the
input (its block argument and indexing map) is dropped and the body uses the scalar the
fill was given (a value the body captures, as bodies capture constants). A fill used as
a generic's output (a reduction's initial value) stays.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Block, Region
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from spyre_sched.normalize.common import kernel_of, note_origin

NAME = "fold-fill-inputs"


class FillInputPattern(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        filled = [k for k, v in enumerate(op.inputs) if isinstance(v.owner, FillOp)]
        if not filled:
            return
        old = op.body.block
        keep = [k for k in range(len(op.inputs)) if k not in filled]
        n_in = len(op.inputs)
        block = Block(arg_types=[old.args[k].type for k in keep]
                      + [a.type for a in old.args[n_in:]])
        mapping = {}
        for new_k, k in enumerate(keep):
            mapping[old.args[k]] = block.args[new_k]
        for j, arg in enumerate(old.args[n_in:]):
            mapping[arg] = block.args[len(keep) + j]
        for k in filled:
            fill = op.inputs[k].owner
            assert isinstance(fill, FillOp)
            mapping[old.args[k]] = fill.inputs[0]
        for inner in old.ops:
            block.add_op(inner.clone(value_mapper=mapping))
        maps = list(op.indexing_maps.data)
        generic = GenericOp([op.inputs[k] for k in keep], list(op.outputs), Region(block),
                            [maps[k] for k in keep] + maps[n_in:],
                            list(op.iterator_types.data), [r.type for r in op.res])
        note_origin([generic], op)
        rewriter.replace(op, generic)


@dataclass(frozen=True)
class FoldFillInputs(ModulePass):
    """Generic inputs that are fills -> the fill's scalar in the body."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            PatternRewriteWalker(FillInputPattern(),
                                 apply_recursively=False).rewrite_region(fn.body)
