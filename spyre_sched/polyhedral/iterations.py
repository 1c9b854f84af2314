"""The concrete iterations of the loops around an access, for one compute tile.

Loop bounds are affine in the tile id, outer loop variables and run-time values, so they
are evaluated loop by loop (a Python loop per iteration, never per element).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from spyre_sched.errors import UnsupportedError
from spyre_sched.polyhedral.affine_values import AffineValues, Variable
from spyre_sched.polyhedral.point_sets import eval_affine_exprs


def _value(values: AffineValues, expr, env: dict[str, int]) -> int:
    syms = [env.get(v.name, 0) for v in values.variables]
    return int(eval_affine_exprs([expr], np.zeros(0, np.int64), syms)[0])


def iterations(values: AffineValues, loops: list[Variable],
               env: dict[str, int]) -> Iterator[dict[str, int]]:
    """Every binding of `loops` (outermost first) not already fixed in `env`."""
    if not loops:
        yield dict(env)
        return
    loop, rest = loops[0], loops[1:]
    if loop.name in env:
        yield from iterations(values, rest, env)
        return
    if loop.bounds is None:
        raise _at_loop(loop, "has no affine bounds")
    lb = _value(values, loop.bounds[0], env)
    ub = _value(values, loop.bounds[1], env)
    step = loop.step
    if step is None or step <= 0:
        raise _at_loop(loop, "has a step that is not a positive constant (a scalar argument "
                       "given a value with --arg is folded into one)")
    for value in range(lb, ub, step):
        yield from iterations(values, rest, {**env, loop.name: value})


def _at_loop(loop: Variable, why: str) -> UnsupportedError:
    """The error names the loop op (`op`), for the caller to give its line in the kernel."""
    err = UnsupportedError(f"not supported yet: the loop over {loop.name} {why}")
    err.op = loop.loop
    return err
