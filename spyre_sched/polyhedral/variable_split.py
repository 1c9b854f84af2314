"""Variables read through `floordiv c` / `mod c`, split into quotient and remainder.

A paged gather reads `X[ind(Idx[b, t floordiv 64]), t mod 64]`: the page from an index
tensor, the offset within the page. Over `t`'s whole range neither subscript is linear.
Written as `t = 64 * page + lane`, with `page` over the pages and `lane` in [0, 64), both
are (isl's gist over the new box finds the linear form, `linear_over_box`), and the
points are the same in the same row-major order: `t`'s dimension becomes two adjacent
ones, `page` outer. `split_variables` finds such variables and gives the maps over the
new variables; `split-indirect-variables` rewrites the tile with them, and the legality
check accepts a tile it will rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from spyre_sched.polyhedral.linear_over_box import is_linear, linear_subscript
from spyre_sched.polyhedral.point_sets import box_set


@dataclass(frozen=True)
class VariableSplit:
    """The variables after the split: `box` (inclusive bounds), each old variable's new
    positions (`positions[k]`: one, or two for a split one, quotient first), the divisor
    of each split variable, and the maps rewritten over the new variables."""

    box: list[tuple[int, int]]
    positions: list[tuple[int, ...]]
    divisors: dict[int, int]
    maps: list[AffineMap]


def _divisors(expr: AffineExpr, found: dict[int, set[int]]) -> None:
    """Record, per variable, each constant c it is read through as `d floordiv c` or
    `d mod c` (the variable alone on the left)."""
    if not isinstance(expr, AffineBinaryOpExpr):
        return
    if expr.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.Mod) \
            and isinstance(expr.lhs, AffineDimExpr) and isinstance(expr.rhs, AffineConstantExpr) \
            and expr.rhs.value > 1:
        found.setdefault(expr.lhs.position, set()).add(expr.rhs.value)
    _divisors(expr.lhs, found)
    _divisors(expr.rhs, found)


def split_variables(box: list[tuple[int, int]], maps: list[AffineMap]) -> VariableSplit | None:
    """The split that makes every result of `maps` (over the variables of `box`, plus
    their own symbols) linear, or None: when every result is linear already, or some
    variable is read through more than one divisor, or its range is not whole multiples
    of it, or a result stays non-linear after the split."""
    if all(is_linear(r, m.num_dims, m.num_symbols) for m in maps for r in m.results):
        return None
    found: dict[int, set[int]] = {}
    for m in maps:
        for r in m.results:
            _divisors(r, found)
    divisors: dict[int, int] = {}
    for k, cs in found.items():
        lo, hi = box[k]
        if len(cs) != 1:
            return None
        (c,) = cs
        if lo % c or (hi + 1) % c or hi - lo + 1 <= c:
            continue  # (a range inside one block: the gist alone makes it linear)
        divisors[k] = c
    if not divisors:
        return None
    new_box: list[tuple[int, int]] = []
    positions: list[tuple[int, ...]] = []
    values: list[AffineExpr] = []
    for k, (lo, hi) in enumerate(box):
        if k in divisors:
            c = divisors[k]
            q, r = len(new_box), len(new_box) + 1
            new_box += [(lo // c, (hi + 1) // c - 1), (0, c - 1)]
            positions.append((q, r))
            values.append(AffineExpr.dimension(q) * c + AffineExpr.dimension(r))
        else:
            positions.append((len(new_box),))
            values.append(AffineExpr.dimension(len(new_box)))
            new_box.append((lo, hi))
    domain = box_set(new_box)
    new_maps = []
    for m in maps:
        syms = [AffineExpr.symbol(i) for i in range(m.num_symbols)]
        results = []
        for r in m.results:
            r = linear_subscript(r.replace_dims_and_symbols(values, syms), domain, m.num_symbols)
            if r is None:
                return None
            results.append(r)
        new_maps.append(AffineMap(len(new_box), m.num_symbols, tuple(results)))
    return VariableSplit(new_box, positions, divisors, new_maps)
