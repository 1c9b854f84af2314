"""Normal-form pass `matmul-to-generic`: `linalg.matmul` and `linalg.transpose` become
`linalg.generic`.

- `linalg.matmul ins(%a, %b) outs(%c)`: a generic over (m, n, k) with maps (m, k),
  (k, n), (m, n), iterators parallel, parallel, reduction, and the body linalg defines
  for it: each operand converted to the output's element type (`arith.extf` when it is
  narrower), multiplied, and added to the accumulator. An accumulator that is a
  `tensor.empty` starts from a zero fill (an empty tensor reads as zeros, as in the
  reference interpreter). A matmul whose own
  `indexing_maps` transpose an operand keeps those maps.
- `linalg.transpose ins(%x) outs(%init) permutation = p`: an all-parallel generic over
  the output's shape whose input map sends output dim i to input dim p[i], yielding the
  input element.

Any other spelling of a matmul (a `linalg.generic` whose operand maps are permuted) is
already the normal form; the scheduler recognises the shape from the maps and body.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    Float16Type,
    Float32Type,
    FloatAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp, GenericOp, MatmulOp, TransposeOp, YieldOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from spyre_sched.normalize.common import (
    PARALLEL,
    REDUCTION,
    element_type,
    kernel_of,
    note_origin,
    parallel_generic,
    replace_naming_result,
)
from spyre_sched.schedule.common import fail

NAME = "matmul-to-generic"

#: (m, k), (k, n) -> (m, n): the maps of a plain matmul
PLAIN_MAPS = (
    AffineMap.from_callable(lambda m, n, k: (m, k)),
    AffineMap.from_callable(lambda m, n, k: (k, n)),
    AffineMap.from_callable(lambda m, n, k: (m, n)),
)

_WIDTH = {Float16Type: 16, Float32Type: 32}


def _width(t) -> int | None:
    return _WIDTH.get(type(t))


def matmul_generic(op: Operation, inputs: list[SSAValue], out: SSAValue,
                   amaps: list[AffineMap]) -> list[Operation]:
    """The ops of `out += inputs[0] @ inputs[1]` as a matmul-shaped generic (last): `op`
    is where a refusal points."""
    if not isinstance(out.type, TensorType):
        raise fail(op, NAME, f"not supported yet: {op.name} on memrefs")
    acc_type = out.type.element_type
    in_types = [element_type(v.type) for v in inputs]
    for t in in_types:
        if _width(t) is None or _width(acc_type) is None or _width(t) > _width(acc_type):
            raise fail(op, NAME, f"not supported yet: a matmul of {t} into {acc_type} "
                       "(f16 or f32 operands into an accumulator at least as wide)")
    block = Block(arg_types=[*in_types, acc_type])
    lhs, rhs, acc = block.args
    ops = []
    sides = []
    for arg, t in ((lhs, in_types[0]), (rhs, in_types[1])):
        if t != acc_type:
            ext = arith.ExtFOp(arg, acc_type)
            ops.append(ext)
            sides.append(ext.result)
        else:
            sides.append(arg)
    mul = arith.MulfOp(sides[0], sides[1])
    add = arith.AddfOp(acc, mul.result)
    for o in (*ops, mul, add):
        block.add_op(o)
    block.add_op(YieldOp(add.result))
    made: list[Operation] = []
    if isinstance(out.owner, tensor.EmptyOp):
        # An empty accumulator reads as zeros (the reference interpreter's empty
        # tensor): the sum starts from a zero fill.
        zero = arith.ConstantOp(FloatAttr(0.0, acc_type))
        fill = FillOp([zero.result], [out], [out.type])
        made = [zero, fill]
        out = fill.results[0]
    generic = GenericOp(list(inputs), [out], Region(block),
                        [AffineMapAttr(m) for m in amaps],
                        [PARALLEL, PARALLEL, REDUCTION], [out.type])
    return [*made, generic]


class GeneralizeMatmul(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatmulOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 2 or len(op.outputs) != 1:
            raise fail(op, NAME, "not supported yet: a linalg.matmul without two inputs and "
                       "one output")
        maps = op.properties.get("indexing_maps") or op.attributes.get("indexing_maps")
        amaps = ([m.data for m in maps.data] if maps is not None  # type: ignore[attr-defined]
                 else list(PLAIN_MAPS))
        made = matmul_generic(op, list(op.inputs), op.outputs[0], amaps)
        replace_naming_result(rewriter, op, made, made[-1].results[0])


class GeneralizeTranspose(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TransposeOp, rewriter: PatternRewriter) -> None:
        init = op.outputs[0]
        rtype = init.type
        if not isinstance(rtype, TensorType) or not op.res:
            raise fail(op, NAME, "not supported yet: linalg.transpose on memrefs")
        perm = list(op.permutation.get_values())
        rank = len(perm)
        # output position i reads input axis perm[i]: input axis j is output dim perm.index(j)
        identity = AffineMap.identity(rank)
        in_map = AffineMap(rank, 0, tuple(identity.results[perm.index(j)] for j in range(rank)))
        generic = parallel_generic([op.inputs[0]], [in_map], init, rtype,
                                   lambda args: ([], args[0]))
        note_origin([generic], op)
        rewriter.replace(op, generic)


@dataclass(frozen=True)
class MatmulToGeneric(ModulePass):
    """`linalg.matmul` and `linalg.transpose` -> `linalg.generic`."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for pattern in (GeneralizeMatmul(), GeneralizeTranspose()):
                PatternRewriteWalker(pattern, apply_recursively=False).rewrite_region(fn.body)
