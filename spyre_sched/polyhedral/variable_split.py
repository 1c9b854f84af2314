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
    AffineSymExpr,
)

from spyre_sched.dialects.agen import linear_form
from spyre_sched.dialects.ktdp import symbols_as_dims
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


def _divisions(expr: AffineExpr):
    """Each `lhs floordiv c` and `lhs mod c` in `expr` with a constant c > 1, as (lhs, c)."""
    for e in expr.dfs():
        if isinstance(e, AffineBinaryOpExpr) \
                and e.kind in (AffineBinaryOpKind.FloorDiv, AffineBinaryOpKind.Mod) \
                and isinstance(e.rhs, AffineConstantExpr) and e.rhs.value > 1:
            yield e.lhs, e.rhs.value


def _divisors(expr: AffineExpr, found: dict[int, set[int]]) -> None:
    """Record, per variable, each constant c it is read through as `d floordiv c` or
    `d mod c`, the variable alone on the left or beside symbols and constants that are
    multiples of c (`(c * s + d) floordiv c`: an outer value made a multiple of c by
    `outer_multiples`)."""
    for lhs, c in _divisions(expr):
        d = _lone_variable(lhs, c)
        if d is not None:
            found.setdefault(d, set()).add(c)


def _lone_variable(expr: AffineExpr, c: int) -> int | None:
    """The dim of `expr` when it is that dim plus symbols and a constant whose
    coefficients are multiples of `c`, else None."""
    if isinstance(expr, AffineDimExpr):
        return expr.position
    dims = expr.used_dims()
    if len(dims) != 1:
        return None
    (d,) = dims
    num_symbols = 1 + max((e.position for e in expr.dfs() if isinstance(e, AffineSymExpr)),
                          default=-1)
    form = linear_form(symbols_as_dims(expr, d + 1, num_symbols))
    if form is None:
        return None
    coeffs, constant = form
    if coeffs.get(d) != 1 or constant % c or any(k % c for v, k in coeffs.items() if v != d):
        return None
    return d


def outer_multiples(maps: list[AffineMap], factors: list[int]) -> dict[int, int]:
    """Per symbol k whose value is a known multiple of `factors[k]` and that some result
    of `maps` reads inside a `floordiv c` or `mod c` with c dividing that factor: c (one
    divisor per symbol; a symbol read through two is left). Writing such a symbol as
    `c * s'` lets the variable beside it split (`split_variables`)."""
    found: dict[int, set[int]] = {}
    for m in maps:
        for r in m.results:
            for lhs, c in _divisions(r):
                for leaf in lhs.dfs():
                    if isinstance(leaf, AffineSymExpr):
                        found.setdefault(leaf.position, set()).add(c)
    out = {}
    for k, cs in found.items():
        if len(cs) == 1:
            (c,) = cs
            if factors[k] % c == 0:
                out[k] = c
    return out


def scale_symbols(maps: list[AffineMap], scaled: dict[int, int]) -> list[AffineMap]:
    """`maps` with each symbol k of `scaled` replaced by `scaled[k]` times a new symbol
    (appended after the old ones, in `scaled`'s order)."""
    out = []
    for m in maps:
        extra = {k: m.num_symbols + i for i, k in enumerate(scaled)}
        syms = [AffineExpr.symbol(extra[k]) * scaled[k] if k in scaled else AffineExpr.symbol(k)
                for k in range(m.num_symbols)]
        dims = [AffineExpr.dimension(d) for d in range(m.num_dims)]
        out.append(AffineMap(m.num_dims, m.num_symbols + len(scaled),
                             tuple(r.replace_dims_and_symbols(dims, syms) for r in m.results)))
    return out


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


def split_with_outer_multiples(box: list[tuple[int, int]], maps: list[AffineMap],
                               factors: list[int]
                               ) -> tuple[VariableSplit, dict[int, int]] | None:
    """`split_variables` after writing each outer value that a floordiv or mod reads and
    that is a known multiple of its divisor (`factors`, per symbol: `known_factor`) as
    that divisor times a new symbol (`outer_multiples`, `scale_symbols`): the split and
    those symbols (symbol -> divisor), or None."""
    scaled = outer_multiples(maps, factors)
    if scaled:
        maps = scale_symbols(maps, scaled)
    split = split_variables(box, maps)
    if split is None and scaled:
        split = _linear_as_is(box, maps)  # (a variable inside one block: no split needed)
    return None if split is None else (split, scaled)


def _linear_as_is(box: list[tuple[int, int]], maps: list[AffineMap]) -> VariableSplit | None:
    """`maps` with every result the linear expression it equals over `box`, the
    variables as they are, or None."""
    domain = box_set(box)
    new_maps = []
    for m in maps:
        results = [linear_subscript(r, domain, m.num_symbols) for r in m.results]
        if None in results:
            return None
        new_maps.append(AffineMap(m.num_dims, m.num_symbols, tuple(results)))
    return VariableSplit(list(box), [(k,) for k in range(len(box))], {}, new_maps)
