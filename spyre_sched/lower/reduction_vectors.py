"""How one step of a reduction in a compute stage maps onto the compute unit's vectors.

The scheduler hands the compute stage one vector per step: the stick (innermost) dim is
w lanes wide, every other iteration dim holds one position (naive-pipeline). A reducing
`linalg.generic` on that vector therefore comes in two shapes, both lowered here:

- **over the innermost dim** (a row sum): the w lanes are reduced into one element
  (`vectorchain.reduce`: the exact sum rounded once to the accumulator type, the
  device's reduction support), which the combiner then folds into the carried
  accumulator;
- **over an outer dim** (a column sum: reduce d0 of rows x cols, keep d1): the vector
  holds one row, so each lane is its own column's contribution; nothing is reduced
  inside the vector, and the combiner adds the whole vector lane by lane into the
  accumulator vector (a plain vector add per row, which the device does natively).

Every lane's accumulator then sees its terms one at a time in iteration order, in the
accumulator type: the order `docs/numerics.md` (rule 3) judges a hardware sum by.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir.affine import AffineExpr, AffineMap

from spyre_sched.errors import UnsupportedError
from spyre_sched.lower.analysis import where


@dataclass(frozen=True)
class ReductionShape:
    """The iteration shape of a generic on vectors, and which of its dims it reduces."""

    shape: tuple[int, ...]
    reduced: tuple[int, ...]

    @property
    def reduces_lanes(self) -> bool:
        """Whether the lanes of one vector are summed together (the innermost dim is
        reduced and spans more than one lane)."""
        n = len(self.shape)
        return (n - 1) in self.reduced and self.shape[-1] > 1


def reduction_shape(op: linalg.GenericOp, out_shape: Sequence[int]) -> ReductionShape:
    """The iteration shape of `op` (output dims from `out_shape`, reduced dims from the
    inputs that span them), checked to be one this lowering handles."""
    iterators = [str(getattr(t, "data", t)) for t in op.iterator_types]
    maps = [m.data for m in op.indexing_maps]  # type: ignore[attr-defined]
    n = len(iterators)
    reduced = tuple(i for i, t in enumerate(iterators) if "reduction" in t)
    kept = [i for i in range(n) if i not in reduced]
    expected = AffineMap(n, 0, tuple(AffineExpr.dimension(i) for i in kept))
    if maps[-1] != expected:
        what = "a reduction whose output map is not its kept dims in order" if reduced \
            else "a generic whose output map is not the identity"
        raise UnsupportedError(f"lowering: {what} is not supported yet", where(op))
    extents: dict[int, int] = dict(zip(kept, out_shape))
    for operand, amap in zip(op.inputs, maps):
        t = operand.type
        if not isinstance(t, TensorType):
            continue
        for pos, expr in enumerate(amap.results):
            d = getattr(expr, "position", None)
            if d is not None and d not in extents:
                extents[d] = t.get_shape()[pos]
    missing = [d for d in reduced if d not in extents]
    if missing:
        raise UnsupportedError(f"lowering: no input spans the reduced dim d{missing[0]}", where(op))
    shape = tuple(extents[d] for d in range(n))
    wide = [d for d in reduced if d != n - 1 and shape[d] > 1]
    if wide:
        raise UnsupportedError(
            f"lowering: a reduction over d{wide[0]} with {shape[wide[0]]} positions in one "
            "vector (only the innermost dim spans lanes) is not supported yet", where(op))
    return ReductionShape(shape, reduced)
