"""Fast numpy enumeration of the integer points of an xDSL `AffineSet`.

Used by the reference interpreter and the emulator, once per access tile and compute
tile, so it must be cheap on large sets: isl's `foreach_point` (~140 k points/s, not in
lexicographic order) is never used. Instead:

- box sets (every constraint is linear in at most one dimension) get their bounds straight
  from the constraints and their points from `np.indices`, already in order;
- any other affine set (skewed, triangular, `mod`/`floordiv` constraints) gets its bounding
  box from isl (`dim_min`/`dim_max`, cached per set and symbol values), then a vectorised
  mask of its constraints over that box.

Points come out in the lexicographic order of the order map's results (rightmost fastest):
for a permutation order the grid is generated directly in that order, for any other order
map the points are sorted with `np.lexsort` on the evaluated results.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import islpy as isl
import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.ir.affine.affine_set import AffineConstraintExpr, AffineConstraintKind, AffineSet

from spyre_sched.errors import AnalysisError
from spyre_sched.polyhedral.isl_text import constraint_text

__all__ = [
    "bounding_box",
    "box_bounds",
    "box_set",
    "contains",
    "enumerate_points",
    "eval_affine_exprs",
    "tile_extents",
    "tile_positions",
]


# ---------------------------------------------------------------------------------------
# Vectorised evaluation of affine expressions
# ---------------------------------------------------------------------------------------


def _eval(expr: AffineExpr, columns: Sequence, syms: Sequence[int]):
    if isinstance(expr, AffineConstantExpr):
        return np.int64(expr.value)
    if isinstance(expr, AffineDimExpr):
        return columns[expr.position]
    if isinstance(expr, AffineSymExpr):
        return np.int64(syms[expr.position])
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = _eval(expr.lhs, columns, syms)
    rhs = _eval(expr.rhs, columns, syms)
    kind = expr.kind
    if kind == AffineBinaryOpKind.Add:
        return lhs + rhs
    if kind == AffineBinaryOpKind.Mul:
        return lhs * rhs
    # numpy's // and % on integers already use floor semantics, as affine maps do.
    if kind == AffineBinaryOpKind.FloorDiv:
        return np.floor_divide(lhs, rhs)
    if kind == AffineBinaryOpKind.Mod:
        return np.mod(lhs, rhs)
    return -np.floor_divide(-lhs, rhs)  # CeilDiv


def eval_affine_exprs(
    exprs: Sequence[AffineExpr], dims: np.ndarray | Sequence, syms: Sequence[int]
) -> np.ndarray:
    """Evaluate affine expressions on many points at once (floor semantics for div/mod).

    `dims` is either an (N, ndims) array of points, giving an (N, len(exprs)) int64
    result, or one point (a 1-D sequence of ints), giving a (len(exprs),) result.
    """
    arr = np.asarray(dims, dtype=np.int64)
    single = arr.ndim == 1
    points = arr.reshape(1, -1) if single else arr
    n = points.shape[0]
    columns = [points[:, k] for k in range(points.shape[1])]
    out = np.empty((n, len(exprs)), dtype=np.int64)
    for j, expr in enumerate(exprs):
        out[:, j] = _eval(expr, columns, syms)
    return out[0] if single else out


# ---------------------------------------------------------------------------------------
# Bounding boxes
# ---------------------------------------------------------------------------------------


def _uses_dim_nonlinearly(expr: AffineExpr) -> bool:
    """True if a dim appears under mod/floordiv/ceildiv (then the constraint is not linear)."""
    for node in expr.dfs():
        if isinstance(node, AffineBinaryOpExpr) and node.kind in (
            AffineBinaryOpKind.Mod,
            AffineBinaryOpKind.FloorDiv,
            AffineBinaryOpKind.CeilDiv,
        ):
            if any(isinstance(n, AffineDimExpr) for n in node.lhs.dfs()):
                return True
        if isinstance(node, AffineBinaryOpExpr) and node.kind == AffineBinaryOpKind.Mul:
            lhs_dim = any(isinstance(n, AffineDimExpr) for n in node.lhs.dfs())
            rhs_dim = any(isinstance(n, AffineDimExpr) for n in node.rhs.dfs())
            if lhs_dim and rhs_dim:
                return True
    return False


def _linear_coefficients(expr: AffineExpr, ndims: int, syms: Sequence[int]):
    """(coefficients per dim, constant) of an expression linear in the dims."""
    basis = np.vstack([np.zeros(ndims, dtype=np.int64), np.eye(ndims, dtype=np.int64)])
    values = eval_affine_exprs([expr], basis, syms)[:, 0]
    return values[1:] - values[0], int(values[0])


def _constraint_expr(c) -> AffineExpr:
    return c.lhs - c.rhs


def _linear_form(c, ndims: int, syms: Sequence[int]):
    """(expr, coefficients per dim, constant) of constraint `c` as `expr >= 0` (or
    `== 0`), or None when a dim appears under mod / floordiv / ceildiv."""
    expr = _constraint_expr(c)
    if c.kind == AffineConstraintKind.le:
        expr = -expr
    if _uses_dim_nonlinearly(expr):
        return None
    coeffs, const = _linear_coefficients(expr, ndims, syms)
    return expr, coeffs, const


@lru_cache(maxsize=4096)
def _analyse(aset: AffineSet, symbols: tuple[int, ...]):
    """Bounding box (lo, hi inclusive) and the constraints the box does not imply.

    Returns (lo, hi, residual_constraints, empty).
    """
    n = aset.num_dims
    lo = np.full(n, np.iinfo(np.int64).min // 4, dtype=np.int64)
    hi = np.full(n, np.iinfo(np.int64).max // 4, dtype=np.int64)
    residual = []
    empty = False
    for c in aset.constraints:
        linear = _linear_form(c, n, symbols)
        if linear is None:
            residual.append(c)
            continue
        _, coeffs, const = linear
        nz = np.flatnonzero(coeffs)
        if len(nz) == 0:
            ok = const == 0 if c.kind == AffineConstraintKind.eq else const >= 0
            empty = empty or not ok
            continue
        if len(nz) > 1:
            residual.append(c)
            continue
        k, a = int(nz[0]), int(coeffs[nz[0]])
        lower, upper = _implied_range(c.kind, a, np.int64(const), lo[k], hi[k])
        lo[k], hi[k] = lower, upper
        empty = empty or lower > upper
    if residual and not empty:
        # Other constraints may tighten the box, and only isl knows by how much.
        lo, hi, empty = _isl_box(aset, symbols, lo, hi)
    elif np.any(lo > hi):
        empty = True
    unbounded = (lo <= np.iinfo(np.int64).min // 4) | (hi >= np.iinfo(np.int64).max // 4)
    if not empty and np.any(unbounded):
        raise AnalysisError(f"the affine set ({aset}) with symbols {list(symbols)} is unbounded")
    return lo, hi, tuple(residual), bool(empty)


def _implied_range(kind, a: int, value, lo, hi):
    """Bounds [lo, hi] on x narrowed by `a * x + value >= 0` (or `== 0` for an equality);
    `value`, `lo`, `hi` are scalars or arrays (one per row). No integer x: lo > hi."""
    if kind == AffineConstraintKind.eq:
        exact = np.mod(-value, a) == 0
        x = np.floor_divide(-value, a)
        return (np.where(exact, np.maximum(lo, x), np.maximum(lo, hi + 1)),
                np.where(exact, np.minimum(hi, x), hi))
    if a > 0:  # x >= ceil(-value / a)
        return np.maximum(lo, -np.floor_divide(value, a)), hi
    return lo, np.minimum(hi, np.floor_divide(value, -a))  # x <= floor(value / -a)


def _isl_box(aset: AffineSet, symbols: tuple[int, ...], lo, hi):
    dims = [f"d{k}" for k in range(aset.num_dims)]
    syms = [str(s) for s in symbols]
    text = " and ".join(constraint_text(c, dims, syms) for c in aset.constraints) or "true"
    iset = isl.Set(f"{{ [{', '.join(dims)}] : {text} }}")
    if iset.is_empty():
        return lo, hi, True
    lo, hi = lo.copy(), hi.copy()
    for k in range(aset.num_dims):
        mn, mx = iset.dim_min(k), iset.dim_max(k)
        if mn.is_cst() and mn.n_piece() == 1:
            lo[k] = _pw_constant(mn)
        if mx.is_cst() and mx.n_piece() == 1:
            hi[k] = _pw_constant(mx)
    return lo, hi, False


def _pw_constant(pw: isl.PwAff) -> int:
    ((_, aff),) = pw.get_pieces()
    return int(aff.get_constant_val().to_python())


def bounding_box(aset: AffineSet, symbols: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi), inclusive per-dim bounds of the set's points; (0, -1) when empty."""
    lo, hi, _, empty = _analyse(aset, tuple(int(s) for s in symbols))
    if empty:
        return np.zeros(aset.num_dims, dtype=np.int64), np.full(aset.num_dims, -1, np.int64)
    return lo.copy(), hi.copy()


def box_set(bounds: list[tuple[int, int]]) -> AffineSet:
    """The box {lo_i <= d_i <= hi_i}."""
    constraints = []
    for i, (lo, hi) in enumerate(bounds):
        d = AffineExpr.dimension(i)
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, d - lo,
                                                AffineExpr.constant(0)))
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge,
                                                AffineExpr.constant(hi) - d,
                                                AffineExpr.constant(0)))
    return AffineSet(len(bounds), 0, tuple(constraints))


def box_bounds(aset: AffineSet, symbols: Sequence[int]) -> list[tuple[int, int]] | None:
    """Inclusive (lo, hi) per dim when the set is exactly a box (every constraint bounds one
    dim), else None; an empty set gives (0, -1) per dim. An unbounded set is no box."""
    try:
        lo, hi, residual, empty = _analyse(aset, tuple(int(s) for s in symbols))
    except AnalysisError:
        return None
    if empty:
        return [(0, -1)] * aset.num_dims
    if residual:
        return None
    return [(int(a), int(b)) for a, b in zip(lo, hi)]


# ---------------------------------------------------------------------------------------
# Enumeration
# ---------------------------------------------------------------------------------------


def _permutation(order: AffineMap | None, ndims: int) -> list[int] | None:
    if order is None:
        return list(range(ndims))
    if len(order.results) != ndims or not all(
        isinstance(e, AffineDimExpr) for e in order.results
    ):
        return None
    perm = [e.position for e in order.results]  # type: ignore[attr-defined]
    return perm if sorted(perm) == list(range(ndims)) else None


def _mask(constraints, points: np.ndarray, syms: Sequence[int]) -> np.ndarray:
    keep = np.ones(points.shape[0], dtype=bool)
    if not constraints:
        return keep
    values = eval_affine_exprs([_constraint_expr(c) for c in constraints], points, syms)
    for j, c in enumerate(constraints):
        if c.kind == AffineConstraintKind.eq:
            keep &= values[:, j] == 0
        elif c.kind == AffineConstraintKind.ge:
            keep &= values[:, j] >= 0
        else:
            keep &= values[:, j] <= 0
    return keep


def enumerate_points(
    aset: AffineSet, symbols: Sequence[int], order: AffineMap | None = None
) -> np.ndarray:
    """The points of `aset` (symbols bound), sorted by `order`'s results, as (N, ndims) int64."""
    syms = tuple(int(s) for s in symbols)
    lo, hi, residual, empty = _analyse(aset, syms)
    n = aset.num_dims
    if empty:
        return np.zeros((0, n), dtype=np.int64)
    perm = _permutation(order, n)
    walk = perm if perm is not None else list(range(n))
    if residual and n:
        points = _rows(walk, lo, hi, residual, syms)
    else:
        # Generate the box with axes in walk order, so C order is the requested lex order.
        extents = hi - lo + 1
        grid = np.indices(tuple(int(extents[k]) for k in walk), dtype=np.int64).reshape(n, -1)
        points = np.empty((grid.shape[1], n), dtype=np.int64)
        for j, k in enumerate(walk):
            points[:, k] = grid[j] + lo[k]
    if perm is None:
        assert order is not None
        keys = eval_affine_exprs(order.results, points, syms)
        points = points[np.lexsort(keys[:, ::-1].T)]
    return points


def _rows(walk: list[int], lo, hi, residual, syms) -> np.ndarray:
    """The points of a non-box set, in C order of the `walk` axes, without enumerating its
    bounding box: the outer axes' box row by row, each row's range of the innermost axis
    cut by the constraints linear in it (a diagonal of a 4096 x 4096 box is 4096 rows of
    one point), then the remaining constraints as a mask."""
    n = len(walk)
    inner, outer = walk[-1], walk[:-1]
    extents = hi - lo + 1
    if outer:
        grid = np.indices(tuple(int(extents[k]) for k in outer), dtype=np.int64)
        grid = grid.reshape(n - 1, -1)
    else:
        grid = np.zeros((0, 1), dtype=np.int64)
    base = np.zeros((grid.shape[1], n), dtype=np.int64)
    for j, k in enumerate(outer):
        base[:, k] = grid[j] + lo[k]
    row_lo = np.full(len(base), lo[inner], dtype=np.int64)
    row_hi = np.full(len(base), hi[inner], dtype=np.int64)
    rest = []
    for c in residual:
        linear = _linear_form(c, n, syms)
        if linear is None:
            rest.append(c)
            continue
        expr, coeffs, _ = linear
        a = int(coeffs[inner])
        if a == 0:
            rest.append(c)
            continue
        # a * x + value >= 0 (or == 0) with value the rest of the expression on this row.
        value = eval_affine_exprs([expr], base, syms)[:, 0]
        row_lo, row_hi = _implied_range(c.kind, a, value, row_lo, row_hi)
    counts = np.maximum(row_hi - row_lo + 1, 0)
    total = int(counts.sum())
    points = np.repeat(base, counts, axis=0)
    starts = np.cumsum(counts) - counts
    points[:, inner] = np.repeat(row_lo - starts, counts) + np.arange(total, dtype=np.int64)
    if rest:
        points = points[_mask(rest, points, syms)]
    return points


def _order_exprs(order: AffineMap | None, ndims: int) -> tuple[AffineExpr, ...]:
    if order is None:
        return tuple(AffineExpr.dimension(k) for k in range(ndims))
    return order.results


def tile_extents(
    aset: AffineSet, symbols: Sequence[int], order: AffineMap | None = None
) -> tuple[int, ...]:
    """The bounding box's extents permuted by `order`: the shape of the data tile."""
    syms = tuple(int(s) for s in symbols)
    lo, hi = bounding_box(aset, syms)
    extents = hi - lo + 1
    perm = _permutation(order, aset.num_dims)
    if perm is not None:
        return tuple(int(extents[k]) for k in perm)
    # A general order map: the range of each ordering result over the set.
    points = enumerate_points(aset, syms)
    if len(points) == 0:
        return tuple(0 for _ in _order_exprs(order, aset.num_dims))
    keys = eval_affine_exprs(_order_exprs(order, aset.num_dims), points, syms)
    return tuple(int(v) for v in keys.max(axis=0) - keys.min(axis=0) + 1)


def tile_positions(
    points: np.ndarray, aset: AffineSet, symbols: Sequence[int], order: AffineMap | None
) -> np.ndarray:
    """Each point's index in the data tile: (point - bbox min) permuted by `order`."""
    syms = tuple(int(s) for s in symbols)
    pts = np.asarray(points, dtype=np.int64).reshape(-1, aset.num_dims)
    lo, _ = bounding_box(aset, syms)
    perm = _permutation(order, aset.num_dims)
    if perm is not None:
        return (pts - lo)[:, perm]
    box_points = enumerate_points(aset, syms)
    exprs = _order_exprs(order, aset.num_dims)
    base = eval_affine_exprs(exprs, box_points, syms).min(axis=0)
    return eval_affine_exprs(exprs, pts, syms) - base


def contains(aset: AffineSet, points: np.ndarray, symbols: Sequence[int]) -> np.ndarray:
    """Vectorised membership: a bool per row of `points` (N, ndims)."""
    pts = np.asarray(points, dtype=np.int64).reshape(-1, aset.num_dims)
    return _mask(aset.constraints, pts, tuple(int(s) for s in symbols))
