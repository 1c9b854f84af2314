"""Is a transfer invariant along a loop (can it be hoisted), and which loops does it use?

An access is invariant along loop L when, for every other variable fixed, every
iteration of L touches the same coordinates: the touched set equals the set obtained by
letting L range over all its iterations (L renamed and quantified).
"""

from __future__ import annotations

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.affine_values import Variable, rename_text
from spyre_sched.polyhedral.isl_text import conj, make_set


def is_invariant(access: AccessModel, loop: Variable) -> bool:
    values = access.values
    names = [v.name for v in values.variables]
    coords = [f"c{k}" for k in range(access.rank)]
    touched = conj(values.context(), access.contains_text(coords))
    exact = make_set(names, coords, touched)
    other = f"{loop.name}__other"
    swept = rename_text(touched, {loop.name: other})
    any_iteration = make_set(names, coords, conj(
        values.context(), f"exists ({other} : {swept})"))
    return exact.is_equal(any_iteration)


def loop_dependences(access: AccessModel) -> list[Variable]:
    """The enclosing loops (outermost first) whose iterations touch different data."""
    return [loop for loop in access.loops if not is_invariant(access, loop)]


def hoistable_loops(access: AccessModel) -> list[Variable]:
    """The enclosing loops the access is invariant along (outermost first)."""
    return [loop for loop in access.loops if is_invariant(access, loop)]
