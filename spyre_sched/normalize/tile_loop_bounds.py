"""Normal-form pass `tile-loop-bounds`: a kernel loop whose bounds depend on the compute
tile id becomes a loop with the same bounds on every tile.

Triton's persistent kernels walk rows with a grid-stride loop,
`scf.for %row = %tile_id to %n_rows step %num_tiles`: each tile starts elsewhere, and may
run a different number of iterations. The orchestrator runs one loop for every tile, so
the loop is rewritten to count iterations instead:

```
scf.for %j = 0 to T step 1 {            // T: the most iterations any tile runs
  %row = %lb + %j * %step               // this tile's row, as before
  scf.if %row < %ub { body }            // only where some tile runs fewer than T
}
```

The bounds are evaluated for every tile of the grid (they must be computed from
constants and the tile id by integer `arith` ops, `arith.select` included); the step must
be the same positive number on every tile. A loop that carries values, or whose bounds
depend on anything else (a run-time argument, another loop), is left as it is (the
lowering then says what it cannot do with it).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import kernel_of

NAME = "tile-loop-bounds"

#: most grid points the bounds are evaluated at
MAX_TILES = 1 << 14

_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


class _Unknown(Exception):
    """A bound is not a function of constants and the tile id."""


def _evaluate(value: SSAValue, ids: dict[SSAValue, int], cache: dict[SSAValue, int]) -> int:
    if value in ids:
        return ids[value]
    if value in cache:
        return cache[value]
    op = value.owner
    if not isinstance(op, Operation):
        raise _Unknown()
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        result = op.value.value.data
    elif op.name == "arith.select":
        cond, a, b = (_evaluate(v, ids, cache) for v in op.operands)
        result = a if cond & 1 else b
    elif op.name == "arith.index_cast":
        result = _evaluate(op.operands[0], ids, cache)
    elif op.name == "arith.cmpi":
        a, b = (_evaluate(v, ids, cache) for v in op.operands)
        pred = _CMPI[op.properties["predicate"].value.data]  # type: ignore[attr-defined]
        if pred.startswith("u"):
            a, b, pred = a % (1 << 64), b % (1 << 64), "s" + pred[1:]
        result = int({"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b,
                      "sgt": a > b, "sge": a >= b}[pred])
    else:
        binary = {"arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
                  "arith.muli": lambda a, b: a * b, "arith.minsi": min, "arith.maxsi": max,
                  "arith.floordivsi": lambda a, b: a // b,
                  "arith.divsi": lambda a, b: int(a / b), "arith.divui": lambda a, b: a // b,
                  "arith.ceildivsi": lambda a, b: -(-a // b),
                  "arith.remsi": lambda a, b: int(math.fmod(a, b)),
                  "arith.remui": lambda a, b: a % b}.get(op.name)
        if binary is None or len(op.operands) != 2:
            raise _Unknown()
        a, b = (_evaluate(v, ids, cache) for v in op.operands)
        if b == 0 and op.name not in ("arith.addi", "arith.subi", "arith.muli",
                                      "arith.minsi", "arith.maxsi"):
            raise _Unknown()
        result = binary(a, b)
    cache[value] = result
    return result


def _tile_points(kernel: Operation, id_ops: list[ktdp.GetComputeTileIdOp]) -> list[dict]:
    grid_attr = kernel.attributes.get("grid")
    grid = [int(d.value.data) for d in grid_attr.data] if grid_attr is not None else [1]  # type: ignore[attr-defined]
    total = math.prod(grid)
    if total > MAX_TILES:
        return []
    points = []
    for coords in itertools.product(*(range(n) for n in grid)):
        linear = 0
        for c, n in zip(coords, grid):
            linear = linear * n + c
        ids: dict[SSAValue, int] = {}
        for op in id_ops:
            if len(op.ids) == 1:
                ids[op.ids[0]] = linear
            else:
                for r, c in zip(op.ids, coords):
                    ids[r] = c
        points.append(ids)
    return points


def _depends_on_tile(value: SSAValue, seen: set | None = None) -> bool:
    seen = set() if seen is None else seen
    op = value.owner
    if not isinstance(op, Operation) or op in seen:
        return False
    seen.add(op)
    if isinstance(op, ktdp.GetComputeTileIdOp):
        return True
    return any(_depends_on_tile(v, seen) for v in op.operands)


def _constant(value: int, of_type) -> arith.ConstantOp:
    return arith.ConstantOp(IntegerAttr(value, of_type))


def _rewrite(loop: scf.ForOp, points: list[dict]) -> bool:
    if loop.iter_args or not any(_depends_on_tile(v) for v in (loop.lb, loop.ub, loop.step)):
        return False
    trips, steps = [], set()
    try:
        for ids in points:
            cache: dict[SSAValue, int] = {}
            lb, ub, step = (_evaluate(v, ids, cache) for v in (loop.lb, loop.ub, loop.step))
            steps.add(step)
            trips.append(max(0, -(-(ub - lb) // step)) if step > 0 else -1)
    except _Unknown:
        return False
    if len(steps) != 1 or min(trips) < 0:
        return False
    most = max(trips)
    body = loop.body.block
    old_iv = body.args[0]
    # the counter in the loop's own type (Triton's loops count in i32)
    iv_type = old_iv.type
    zero, one, count = (_constant(v, iv_type) for v in (0, 1, most))
    new_body = Block(arg_types=[iv_type])
    counter = new_body.args[0]
    counter.name_hint = "iteration"
    scaled = arith.MuliOp(counter, loop.step)
    value = arith.AddiOp(loop.lb, scaled.result)
    value.result.name_hint = old_iv.name_hint
    new_body.add_ops([scaled, value])
    old_iv.replace_all_uses_with(value.result)
    moved = [op for op in body.ops if not isinstance(op, scf.YieldOp)]
    for op in moved:
        op.detach()
    if min(trips) == most:  # every tile runs every iteration: no guard
        new_body.add_ops(moved)
    else:
        inside = arith.CmpiOp(value.result, loop.ub, "slt")
        then = Block()
        then.add_ops([*moved, scf.YieldOp()])
        new_body.add_ops([inside, scf.IfOp(inside.result, [], Region(then))])
    new_body.add_op(scf.YieldOp())
    new_loop = scf.ForOp(zero.result, count.result, one.result, [], Region(new_body))
    Rewriter.insert_op([zero, one, count, new_loop], InsertPoint.before(loop))
    Rewriter.erase_op(loop)
    return True


@dataclass(frozen=True)
class TileLoopBounds(ModulePass):
    """Loops with tile-dependent bounds -> a count of iterations, guarded where needed."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            loops = [o for o in fn.walk() if isinstance(o, scf.ForOp)]
            if not loops:
                continue
            ids = [o for o in fn.walk() if isinstance(o, ktdp.GetComputeTileIdOp)]
            points = _tile_points(fn, ids)
            if not points:
                continue
            for loop in loops:
                _rewrite(loop, points)
