"""Integer sets as the interpreter needs them: a box fast path, the general case delegated.

A set whose every constraint bounds a single dimension is a box (the polyhedral layer
says which): its points and containment are computed directly. Any other set goes to
`spyre_sched.polyhedral` (bounding box plus a vectorised constraint mask).
"""

from __future__ import annotations

import numpy as np
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind
from xdsl.ir.affine.affine_set import AffineSet

from spyre_sched.polyhedral import point_sets as polyhedral


# Per set object (by identity, holding the set so its id stays its own), per symbol
# values: answers already computed. Hashing an xDSL AffineSet walks its whole expression
# tree, which used to dominate loops that rebuild a view or tile every iteration.
_BY_IDENTITY: dict[int, tuple[AffineSet, dict]] = {}
_MAX_SETS = 4096


def _memo(aset: AffineSet, key: tuple, compute):
    entry = _BY_IDENTITY.get(id(aset))
    if entry is None or entry[0] is not aset:
        if len(_BY_IDENTITY) >= _MAX_SETS:
            _BY_IDENTITY.clear()
        entry = _BY_IDENTITY[id(aset)] = (aset, {})
    answers = entry[1]
    try:
        return answers[key]
    except KeyError:
        value = answers[key] = compute()
        return value


def box_bounds(aset: AffineSet, symbols) -> list[tuple[int, int]] | None:
    """Inclusive (lo, hi) per dim if `aset` is a box (hi < lo: empty), else None."""
    syms = tuple(int(s) for s in symbols)
    bounds = _memo(aset, ("box", syms), lambda: _frozen(polyhedral.box_bounds(aset, list(syms))))
    return None if bounds is None else list(bounds)


def _frozen(bounds):
    return None if bounds is None else tuple(bounds)


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
    syms = tuple(int(s) for s in symbols)
    lo = _memo(aset, ("lo", syms), lambda: tuple(
        int(v) for v in polyhedral.bounding_box(aset, list(syms))[0]))
    return list(lo)


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


_NONLINEAR = (AffineBinaryOpKind.Mod, AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.CeilDiv)


def _linear(expr) -> bool:
    """No mod / floordiv / ceildiv anywhere (a product always has a constant side)."""
    return not any(isinstance(node, AffineBinaryOpExpr) and node.kind in _NONLINEAR
                   for node in expr.dfs())


def compiled_map(amap):
    """A function from symbol values (a map without dims, as an access tile's base map)
    to the map's results as a list of ints: coefficients when the results are linear,
    else xDSL's own evaluation."""
    n = amap.num_symbols
    if amap.num_dims == 0 and all(_linear(e) for e in amap.results):
        const = list(amap.eval([], [0] * n))
        rows = [amap.eval([], [1 if k == j else 0 for k in range(n)]) for j in range(n)]
        terms = [[(j, rows[j][r] - const[r]) for j in range(n) if rows[j][r] != const[r]]
                 for r in range(len(const))]

        if n == len(const) and not any(const) and all(
                t == [(r, 1)] for r, t in enumerate(terms)):
            return list  # the identity (an access tile's base given as its indices)

        def linear(symbols):
            return [k + sum(c * symbols[j] for j, c in t) for k, t in zip(const, terms)]

        return linear
    return lambda symbols: list(amap.eval([], symbols))


def eval_exprs(exprs, dims: np.ndarray, syms) -> np.ndarray:
    """Affine expressions at many points: dims (N, ndims) -> (N, len(exprs)) int64."""
    return np.asarray(polyhedral.eval_affine_exprs(list(exprs), dims, list(syms)), dtype=np.int64)
