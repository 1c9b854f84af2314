"""An `#agen.access` made concrete: the strided box it moves and the mask of its set.

Point x of the set lives at byte `base + element_bytes * sum(x_i * strides_i)`. The data
moved has the set's bounding box permuted by the order (rightmost fastest), so a transfer
is one strided numpy view: start offset, shape and byte strides, computed once at
prepare. Box points outside the set (or its `mask`) are masked: read as zero, never
written.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir.affine import AffineConstraintExpr, AffineExpr, AffineSet

from spyre_sched.dialects.agen import AccessAttr, linear_form
from spyre_sched.errors import ExecutionError


def _eval_expr(expr: AffineExpr, grids: list[np.ndarray]) -> np.ndarray:
    form = linear_form(expr)
    if form is not None:
        coeffs, const = form
        out = np.full(grids[0].shape, const, dtype=np.int64) if grids else np.int64(const)
        for dim, c in coeffs.items():
            out = out + c * grids[dim]
        return out
    # mod / floordiv / ceildiv: xDSL evaluates one point at a time; only small sets use them.
    flat = [g.reshape(-1) for g in grids]
    values = [expr.eval([int(f[i]) for f in flat], []) for i in range(flat[0].size)]
    return np.asarray(values, dtype=np.int64).reshape(grids[0].shape)


@dataclass(frozen=True)
class Access:
    offset: int
    """Byte offset of the first box point from the base address."""
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    """Byte strides of the moved data, in the order's dims."""
    mask: np.ndarray | None
    """True where a box point is in the set (None: every point is)."""
    element_bytes: int
    box_bytes: int = 0
    """Bytes a transfer of this access moves: every box point, masked ones included."""
    span: tuple[int, int] = (0, 0)
    """Bytes [lo, hi) the access touches, relative to base + offset: its unmasked points
    (masked points are never read or written, so only these must be inside memory and
    inside one buffer)."""
    box_span: tuple[int, int] = (0, 0)
    """Bytes [lo, hi) of the whole box (masked points included): the extent of the strided
    view the emulator takes."""
    count: int = 0
    """Points in the box."""
    contiguous: bool = False
    """Every box point is in the set and the box is one run of memory in row-major order
    (then a transfer is a slice of the memory, no strided view needed)."""

    @property
    def points(self) -> int:
        return int(self.mask.sum()) if self.mask is not None else int(np.prod(self.shape))

    @staticmethod
    def of(attr: AccessAttr, element_bytes: int) -> Access:
        bounds = attr.bounds()
        strides = attr.stride_list
        order = [r.position for r in attr.order.data.results]  # type: ignore[attr-defined]
        extents = [hi - lo + 1 for lo, hi in bounds]
        offset = element_bytes * sum(lo * s for (lo, _), s in zip(bounds, strides))
        shape = tuple(extents[d] for d in order)
        byte_strides = tuple(element_bytes * strides[d] for d in order)
        size = int(np.prod(shape))
        if size > 1 << 24:
            raise ExecutionError(f"access {attr} spans a box of {size} points: too large")
        grids_out = np.indices(shape, dtype=np.int64)
        grids: list = [None] * len(order)
        for out_dim, set_dim in enumerate(order):
            grids[set_dim] = grids_out[out_dim] + bounds[set_dim][0]
        mask = np.ones(shape, dtype=bool)
        for constraint in attr.constraints():
            value = _eval_expr(constraint.lhs, grids) - _eval_expr(constraint.rhs, grids)
            kind = constraint.kind.value
            mask &= (value == 0) if kind == "==" else (value >= 0) if kind == ">=" else (value <= 0)
        if mask.all():
            mask = None
        lo = hi = 0
        for n, st in zip(shape, byte_strides):
            if st >= 0:
                hi += (n - 1) * st
            else:
                lo += (n - 1) * st
        contiguous = mask is None
        step = element_bytes
        for n, st in zip(reversed(shape), reversed(byte_strides)):
            if n > 1 and st != step:
                contiguous = False
            step *= n
        box_span = (lo, hi + element_bytes)
        span = box_span
        if mask is not None:
            if not mask.any():
                span = (0, 0)
            else:
                position = sum(g * st for g, st in zip(np.indices(shape, dtype=np.int64), byte_strides))
                inside = position[mask]
                span = (int(inside.min()), int(inside.max()) + element_bytes)
        return Access(offset, shape, byte_strides, mask, element_bytes,
                      size * element_bytes, span, box_span, size, contiguous)


def clipped(attr: AccessAttr, clip: AffineSet, values: tuple[int, ...]) -> AccessAttr:
    """`attr` with the run-time mask `clip` (symbols bound to `values`) added to its mask:
    the edge of a view a tile may stick out of, known once the tile's origin is."""
    dims = [AffineExpr.dimension(i) for i in range(clip.num_dims)]
    syms = [AffineExpr.constant(int(v)) for v in values]
    extra = tuple(
        AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(dims, syms),
                             c.rhs.replace_dims_and_symbols(dims, syms))
        for c in clip.constraints)
    mask = attr.mask.data
    return AccessAttr.get(attr.set.data, attr.order.data, attr.stride_list,
                          AffineSet(mask.num_dims, 0, (*mask.constraints, *extra)))
