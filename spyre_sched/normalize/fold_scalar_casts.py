"""Normal-form pass `fold-scalar-casts`: a scalar cast of a constant outside any compute
body becomes the constant it computes.

Kernels turn an integer size into a float by casts (`%N_f = arith.sitofp
(arith.index_cast %N)`, LayerNorm's `mean = sum / N`). Once `--arg N=...` has made `%N` a
constant, the cast chain is a constant too; left in place, a fill or a compute body would
capture a value the lowering has no instruction to compute. Folding uses the same rule as
`extract-to-broadcast` (`folded_constant`: numpy's conversions round to nearest, ties to
even, as the ops do; `arith.bitcast` keeps the bits, so Triton's `0xFF800000 : i32`
bitcast to f32 is -inf). Casts of values that are not constants are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects.linalg_ktir import inside_linalg_body
from spyre_sched.normalize.common import kernel_of, note_origin
from spyre_sched.normalize.extract_to_broadcast import CASTS, folded_constant

NAME = "fold-scalar-casts"


@dataclass(frozen=True)
class FoldScalarCasts(ModulePass):
    """Scalar casts of constants -> constants."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for cast in list(fn.walk()):
                if cast.name not in CASTS or isinstance(cast.results[0].type, TensorType) \
                        or inside_linalg_body(cast):
                    continue
                value = folded_constant(cast.results[0])
                if value is None:
                    continue
                constant = arith.ConstantOp(value)
                note_origin([constant], cast)
                Rewriter.insert_op(constant, InsertPoint.before(cast))
                constant.result.name_hint = cast.results[0].name_hint
                cast.results[0].replace_all_uses_with(constant.result)
                Rewriter.erase_op(cast)
