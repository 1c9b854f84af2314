"""Normal-form pass `linalg-named-to-generic`: named linalg ops become `linalg.generic`.

- Named elementwise ops (`linalg.add`, `linalg.mul`, `linalg.div`, `linalg.exp`, ...):
  upstream xDSL's generalisation.
- `linalg.broadcast ins(%x) outs(%init) dimensions = [k...]`: a generic over the output's
  shape whose input map leaves out the added dims, yielding the input element.
- `linalg.map ins(%a, %b, ...) outs(%init) (%x, %y, ...) { body }`: an all-parallel
  generic of identity maps with that body (one more block argument, for the output
  element, which the body does not read).
- `linalg.reduce ins(%x) outs(%init) dimensions = [k...]`: a generic with reduction
  iterators on the reduced dims and the output map keeping the others; the combiner
  block becomes the body (input element first, accumulator last, as both spell it).

`linalg.fill` stays: it is the normal form of a splat (see `splat-to-fill`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation
from xdsl.dialects.linalg.ops import BroadcastOp, GenericOp, ReduceOp
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.linalg_generalize_named_ops import GeneralizeNamedOpPattern

from spyre_sched.dialects.linalg_ktir import MapOp
from spyre_sched.normalize.common import (
    PARALLEL,
    REDUCTION,
    kernel_of,
    note_origin,
    parallel_generic,
)
from spyre_sched.schedule.common import fail

NAME = "linalg-named-to-generic"


class GeneralizeElementwise(RewritePattern):
    """Upstream generalisation, for the named elementwise ops."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, ElementwiseOperation):
            GeneralizeNamedOpPattern().match_and_rewrite(op, rewriter)


class GeneralizeBroadcast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: BroadcastOp, rewriter: PatternRewriter) -> None:
        rtype = op.init.type
        if not isinstance(rtype, TensorType):
            raise fail(op, NAME, "not supported yet: linalg.broadcast on memrefs")
        rank = rtype.get_num_dims()
        added = set(op.dimensions.get_values())
        kept = AffineMap(rank, 0, tuple(AffineMap.identity(rank).results[d]
                                        for d in range(rank) if d not in added))
        generic = parallel_generic([op.input], [kept], op.init, rtype,
                                   lambda args: ([], args[0]))
        note_origin([generic], op)
        rewriter.replace(op, generic)


class GeneralizeMap(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MapOp, rewriter: PatternRewriter) -> None:
        rtype = op.init.type
        if not isinstance(rtype, TensorType):
            raise fail(op, NAME, "not supported yet: linalg.map on memrefs")
        region = op.mapper.clone()
        region.block.insert_arg(rtype.element_type, len(region.block.args))
        rank = rtype.get_num_dims()
        identity = AffineMapAttr(AffineMap.identity(rank))
        generic = GenericOp(list(op.inputs), [op.init], region,
                            [identity] * (len(op.inputs) + 1), [PARALLEL] * rank, [rtype])
        note_origin([generic], op)
        rewriter.replace(op, generic)


class GeneralizeReduce(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ReduceOp, rewriter: PatternRewriter) -> None:
        rank = len(op.input.type.get_shape())  # type: ignore[attr-defined]
        reduced = set(op.dimensions.get_values())
        identity = AffineMap.identity(rank)
        kept = AffineMap(rank, 0, tuple(identity.results[d] for d in range(rank)
                                        if d not in reduced))
        generic = GenericOp(
            [op.input], [op.init], op.region.clone(),
            [AffineMapAttr(identity), AffineMapAttr(kept)],
            [REDUCTION if d in reduced else PARALLEL for d in range(rank)],
            [r.type for r in op.result])
        note_origin([generic], op)
        rewriter.replace(op, generic)


@dataclass(frozen=True)
class LinalgNamedToGeneric(ModulePass):
    """Named elementwise ops, `linalg.map`, `linalg.broadcast` and `linalg.reduce` ->
    `linalg.generic`."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for pattern in (GeneralizeElementwise(), GeneralizeBroadcast(), GeneralizeMap(),
                            GeneralizeReduce()):
                PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(fn.body)
