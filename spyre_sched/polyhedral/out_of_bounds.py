"""Out-of-bounds accesses: does an access stay inside its view's coordinate set?

For every compute tile and every loop iteration (and every run-time value within its
bounds), the touched coordinates must lie in the view's coordinate set (for a distributed
view: in one of its parts). The violation set is `touched - view`; its lexicographically
smallest point (tile first) is the witness.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.affine_values import VariableKind
import re

import islpy as isl

from spyre_sched.polyhedral.isl_text import conj, make_set, witness


@dataclass(frozen=True)
class OutOfBounds:
    access: AccessModel
    tile: int
    loops: dict[str, int]
    coordinate: tuple[int, ...]
    #: values of other variables in the witness (run-time sizes, opaque values)
    others: dict[str, int]
    #: False when the witness needs an opaque (unanalysed) value: "may" rather than "does"
    certain: bool

    def __str__(self) -> str:
        loops = "".join(f", {k} = {v}" for k, v in self.loops.items())
        others = "".join(f", {k} = {v}" for k, v in self.others.items())
        return f"tile {self.tile}{loops}{others}: coordinate {list(self.coordinate)}"


def find_out_of_bounds(access: AccessModel) -> OutOfBounds | None:
    values = access.values
    names = [v.name for v in values.variables]
    coords = [f"c{k}" for k in range(access.rank)]
    touched = make_set(names, coords, conj(values.context(), access.contains_text(coords)))
    inside = make_set(names, coords, access.view.contains_text(coords))
    bad = touched.subtract(inside)
    if bad.is_empty():
        return None
    point = witness(bad)
    tile = point[values.tile.name]
    loops = {v.name: point[v.name] for v in access.loops}
    skip = {values.tile.name, *loops}
    used = set()
    for expr in (*access.base, *access.tile_symbols):
        used |= {v.name for v in values.of_expr(expr).used}
    for part in access.view.parts:
        for expr in part.symbols:
            used |= {v.name for v in values.of_expr(expr).used}
    used |= _defining(values, used)
    others = {n: point[n] for n in names if n in used and n not in skip}
    certain = not any(
        values.variable_named(n).kind == VariableKind.OPAQUE for n in others
    )
    return OutOfBounds(access, tile, loops, tuple(point[c] for c in coords), others, certain)


def masked_count(access: AccessModel, oob: OutOfBounds) -> int | None:
    """How many positions of the witness's instance fall outside the view (None when the
    instance cannot be fixed: an unbounded or opaque value)."""
    values = access.values
    names = [v.name for v in values.variables]
    coords = [f"c{k}" for k in range(access.rank)]
    fixed = {values.tile.name: oob.tile, **oob.loops, **oob.others}
    pins = [f"{n} = {v}" for n, v in fixed.items()]
    touched = make_set(names, coords, conj(values.context(), access.contains_text(coords),
                                           *pins))
    bad = touched.subtract(make_set(names, coords, access.view.contains_text(coords)))
    bad = bad.project_out(isl.dim_type.param, 0, len(names))
    try:
        count = bad.count_val()
        return int(count.to_python()) if count.is_int() else None
    except isl.Error:
        return None


def _defining(values, used: set[str]) -> set[str]:
    """Variables the derived ones among `used` are defined from (transitively): a witness
    names the scalars a derived value (e.g. tile * BLOCK) came from."""
    found: set[str] = set()
    todo = [n for n in used]
    while todo:
        var = values.variable_named(todo.pop())
        if var.kind != VariableKind.DERIVED:
            continue
        for other in values.variables:
            if other.name not in found and other.name not in used and re.search(
                    rf"\b{re.escape(other.name)}\b", var.constraint):
                found.add(other.name)
                todo.append(other.name)
    return {n for n in found if values.variable_named(n).kind != VariableKind.TILE}
