"""Integer sets as the interpreter needs them: a box fast path, the general case delegated.

A set whose every constraint bounds a single dimension (coefficient +-1) is a box: its
points and containment are computed directly. Any other set goes to
`spyre_sched.polyhedral` (bounding box plus a vectorised constraint mask).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineSymExpr
from xdsl.ir.affine.affine_set import AffineConstraintKind, AffineSet

from spyre_sched.polyhedral import enumerate as polyhedral


def linear_form(expr: AffineExpr, ndims: int, nsyms: int):
    """(dim coefficients, symbol coefficients, constant) of a linear expression, else None."""
    if isinstance(expr, AffineConstantExpr):
        return [0] * ndims, [0] * nsyms, expr.value
    if isinstance(expr, AffineDimExpr):
        d = [0] * ndims
        d[expr.position] = 1
        return d, [0] * nsyms, 0
    if isinstance(expr, AffineSymExpr):
        s = [0] * nsyms
        s[expr.position] = 1
        return [0] * ndims, s, 0
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = linear_form(expr.lhs, ndims, nsyms)
        rhs = linear_form(expr.rhs, ndims, nsyms)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            return (
                [a + b for a, b in zip(lhs[0], rhs[0])],
                [a + b for a, b in zip(lhs[1], rhs[1])],
                lhs[2] + rhs[2],
            )
        if expr.kind == AffineBinaryOpKind.Mul:
            for const, other in ((lhs, rhs), (rhs, lhs)):
                if not any(const[0]) and not any(const[1]):
                    k = const[2]
                    return [k * a for a in other[0]], [k * a for a in other[1]], k * other[2]
    return None


@lru_cache(maxsize=4096)
def _box_form(aset: AffineSet):
    """Per-constraint (dim, sign, sym coeffs, const, kind) if `aset` is a box, else None."""
    rows = []
    for c in aset.constraints:
        form = linear_form(c.lhs - c.rhs, aset.num_dims, aset.num_symbols)
        if form is None:
            return None
        dims = [(i, a) for i, a in enumerate(form[0]) if a]
        if len(dims) > 1 or (dims and abs(dims[0][1]) != 1):
            return None
        dim, sign = dims[0] if dims else (-1, 0)
        rows.append((dim, sign, tuple(form[1]), form[2], c.kind))
    bounded = {r[0] for r in rows}
    if any(d not in bounded for d in range(aset.num_dims)):
        return None
    return tuple(rows)


def box_bounds(aset: AffineSet, symbols) -> list[tuple[int, int]] | None:
    """Inclusive (lo, hi) per dim if `aset` is a box (hi < lo: empty), else None."""
    rows = _box_form(aset)
    if rows is None:
        return None
    lo = [None] * aset.num_dims
    hi = [None] * aset.num_dims
    empty = False
    for dim, sign, syms, const, kind in rows:
        rest = const + sum(a * int(s) for a, s in zip(syms, symbols))
        if dim < 0:  # a condition on the symbols alone
            ok = {AffineConstraintKind.ge: rest >= 0, AffineConstraintKind.le: rest <= 0,
                  AffineConstraintKind.eq: rest == 0}[kind]
            empty |= not ok
            continue
        # sign * x + rest (kind) 0  ->  bound on x = -rest * sign
        value = -rest * sign
        is_lower = (kind == AffineConstraintKind.ge) == (sign > 0)
        if kind == AffineConstraintKind.eq or is_lower:
            lo[dim] = value if lo[dim] is None else max(lo[dim], value)
        if kind == AffineConstraintKind.eq or not is_lower:
            hi[dim] = value if hi[dim] is None else min(hi[dim], value)
    if any(v is None for v in lo) or any(v is None for v in hi):
        return None
    bounds = list(zip(lo, hi))
    if empty:
        bounds = [(0, -1)] * aset.num_dims
    return bounds


def permutation_of(order) -> list[int]:
    """The dims of a permutation map's results, in order."""
    return [e.position for e in order.results]


def box_contains(bounds, points: np.ndarray) -> np.ndarray:
    lo = np.array([b[0] for b in bounds], dtype=np.int64)
    hi = np.array([b[1] for b in bounds], dtype=np.int64)
    return np.all((points >= lo) & (points <= hi), axis=1)


def contains(aset: AffineSet, points: np.ndarray, symbols) -> np.ndarray:
    """Bool per row of `points` (N, ndims): is it in the set?"""
    bounds = box_bounds(aset, symbols)
    if bounds is not None:
        return box_contains(bounds, points)
    return np.asarray(polyhedral.contains(aset, points, list(symbols)), dtype=bool)


def minimum(aset: AffineSet, symbols) -> list[int]:
    """Per-axis minimum of the set (where local coordinates start)."""
    bounds = box_bounds(aset, symbols)
    if bounds is not None:
        return [lo for lo, _ in bounds]
    lo, hi = polyhedral.bounding_box(aset, list(symbols))
    return [int(v) for v in lo]


def points_in_order(aset: AffineSet, symbols, order):
    """(points (N, ndims) in the order's sequence, positions (N, ndims) in the data tile,
    data tile shape, dense) where dense means every tile position holds a point and the
    points come in C order of the tile."""
    perm = permutation_of(order)
    bounds = box_bounds(aset, symbols)
    if bounds is not None:
        ext = [max(hi - lo + 1, 0) for lo, hi in bounds]
        shape = tuple(ext[d] for d in perm)
        grids = np.indices(shape, dtype=np.int64).reshape(len(shape), -1).T
        points = np.empty_like(grids)
        for k, d in enumerate(perm):
            points[:, d] = grids[:, k] + bounds[d][0]
        return points, grids, shape, True
    syms = list(symbols)
    points = np.asarray(polyhedral.enumerate_points(aset, syms, order), dtype=np.int64)
    shape = tuple(int(e) for e in polyhedral.tile_extents(aset, syms, order))
    positions = np.asarray(polyhedral.tile_positions(points, aset, syms, order), dtype=np.int64)
    count = int(np.prod(shape)) if shape else 1
    dense = len(points) == count
    return points, positions, shape, dense


def eval_exprs(exprs, dims: np.ndarray, syms) -> np.ndarray:
    """Affine expressions at many points: dims (N, ndims) -> (N, len(exprs)) int64."""
    return np.asarray(polyhedral.eval_affine_exprs(list(exprs), dims, list(syms)), dtype=np.int64)
