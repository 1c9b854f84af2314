"""enumerate_points & co. against brute force on random boxes, strided, skewed and
triangular sets, in random orders."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.ir.affine.affine_set import AffineConstraintExpr, AffineConstraintKind, AffineSet

from spyre_sched.polyhedral.point_sets import (
    contains,
    enumerate_points,
    eval_affine_exprs,
    tile_extents,
    tile_positions,
)

GE, EQ = AffineConstraintKind.ge, AffineConstraintKind.eq
d = AffineExpr.dimension
s = AffineExpr.symbol
ZERO = AffineExpr.constant(0)


def ge(expr):
    return AffineConstraintExpr(GE, expr, ZERO)


def box_constraints(lo, hi, nsym=0):
    out = []
    for k, (a, b) in enumerate(zip(lo, hi)):
        out += [ge(d(k) - a), ge(AffineExpr.constant(b) - d(k))]
    return out


def brute(aset, syms, order, lo, hi):
    """Points of the set inside [lo, hi] by scalar evaluation, sorted by the order map."""
    pts = []
    for p in itertools.product(*(range(a, b + 1) for a, b in zip(lo, hi))):
        ok = True
        for c in aset.constraints:
            v = (c.lhs - c.rhs).eval(list(p), syms)
            ok &= v == 0 if c.kind == EQ else v >= 0
        if ok:
            pts.append(p)
    amap = order or AffineMap.identity(aset.num_dims)
    pts.sort(key=lambda p: amap.eval(list(p), [0] * amap.num_symbols))
    return np.array(pts, dtype=np.int64).reshape(-1, aset.num_dims)


orders = st.integers(1, 3).flatmap(lambda n: st.permutations(list(range(n))))


@st.composite
def sets(draw):
    n = draw(st.integers(1, 3))
    lo = [draw(st.integers(-4, 4)) for _ in range(n)]
    hi = [a + draw(st.integers(0, 6)) for a in lo]
    kind = draw(st.sampled_from(["box", "strided", "skewed", "triangular", "symbolic",
                                 "cut", "diagonal"]))
    cons = box_constraints(lo, hi)
    syms: list[int] = []
    nsym = 0
    if kind == "strided":
        m = draw(st.integers(2, 3))
        cons.append(AffineConstraintExpr(EQ, d(0) % m, ZERO))
    elif kind == "skewed" and n >= 2:
        cons.append(ge(d(0) + d(1) - (lo[0] + lo[1] + 2)))
        cons.append(ge(AffineExpr.constant(hi[0] + hi[1] - 1) - d(0) - d(1)))
    elif kind == "triangular" and n >= 2:
        cons.append(ge(d(1) - lo[1] - (d(0) - lo[0])))
    elif kind in ("cut", "diagonal") and n >= 2:
        # a . d + c >= 0 (or == 0: a thin set, e.g. d1 = d0 + c or 2 * d1 = d0) with any
        # signs, on any pair of dims: enumerated row by row, not over the bounding box.
        i, j = draw(st.permutations(list(range(n))))[:2]
        a, b = draw(st.integers(-3, 3)), draw(st.integers(-3, 3))
        expr = d(i) * a + d(j) * b + draw(st.integers(-6, 6))
        cons.append(AffineConstraintExpr(EQ, expr, ZERO) if kind == "diagonal" else ge(expr))
    elif kind == "symbolic":
        nsym = 1
        syms = [draw(st.integers(0, 3))]
        cons.append(ge(s(0) + lo[0] - d(0)))  # d0 <= lo0 + s0
    perm = draw(st.permutations(list(range(n))))
    order = AffineMap(n, 0, tuple(d(k) for k in perm))
    return AffineSet(n, nsym, tuple(cons)), syms, order, lo, hi


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(sets())
def test_enumeration_matches_brute_force(case):
    aset, syms, order, lo, hi = case
    got = enumerate_points(aset, syms, order)
    want = brute(aset, syms, order, lo, hi)
    assert got.dtype == np.int64
    assert got.shape == want.shape
    assert np.array_equal(got, want)
    assert contains(aset, got, syms).all()
    if len(got):
        perm = [e.position for e in order.results]
        ext = tile_extents(aset, syms, order)
        assert ext == tuple(int(x) for x in (got.max(0) - got.min(0) + 1)[perm])
        pos = tile_positions(got, aset, syms, order)
        assert np.array_equal(pos, (got - got.min(0))[:, perm])
        # Rows are sorted lexicographically in order space (rightmost fastest).
        keys = got[:, perm]
        assert all(tuple(a) < tuple(b) for a, b in zip(keys[:-1], keys[1:]))


def test_non_permutation_order_sorts_by_results():
    aset = AffineSet(2, 0, tuple(box_constraints([0, 0], [2, 2])))
    order = AffineMap(2, 0, (d(0) + d(1), d(0)))  # anti-diagonals
    got = enumerate_points(aset, [], order)
    keys = [(p[0] + p[1], p[0]) for p in got.tolist()]
    assert keys == sorted(keys) and len(got) == 9


def test_contains_rejects_outside_points_and_mod():
    aset = AffineSet(1, 0, tuple(box_constraints([0], [9]) + [AffineConstraintExpr(EQ, d(0) % 2, ZERO)]))
    assert contains(aset, np.array([[0], [1], [8], [10], [-2]]), []).tolist() == [
        True, False, True, False, False]


def test_eval_affine_exprs_floor_semantics():
    exprs = [d(0) // 4, d(0) % 4, d(0).ceil_div(4), d(0) * 3 + s(0)]
    got = eval_affine_exprs(exprs, np.array([[-5], [7]]), [10])
    assert got.tolist() == [[-2, 3, -1, -5], [1, 3, 2, 31]]
    assert eval_affine_exprs(exprs, [6], [0]).tolist() == [1, 2, 2, 18]


def test_empty_set_gives_no_points():
    aset = AffineSet(2, 0, tuple(box_constraints([0, 0], [3, 3]) + [ge(d(0) + d(1) - 10)]))
    assert enumerate_points(aset, []).shape == (0, 2)
