"""Which compute tiles run each program: the orchestrator's guards on the tile id.

A call under `scf.if` whose condition is computed from the tile id (`ktdp.
get_compute_tile_id`) and constants runs only on the tiles whose id makes it true (the
job plan evaluates the condition per tile, `lower/job_plan.py`). Extraction prices such a
program for the cores that run it: they alone share the device memory's and the ring's
bandwidth. A condition it cannot evaluate (a kernel argument, a loop variable) counts as
taken by every tile, as before.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.ir import Operation, SSAValue

from spyre_sched.dialects import ktdp

_BINARY = {
    "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.divui": lambda a, b: a // b if b else None,
    "arith.divsi": lambda a, b: int(a / b) if b else None,
    "arith.floordivsi": lambda a, b: a // b if b else None,
    "arith.remui": lambda a, b: a % b if b else None,
    "arith.remsi": lambda a, b: a - b * int(a / b) if b else None,
    "arith.minsi": min, "arith.maxsi": max, "arith.minui": min, "arith.maxui": max,
    "arith.andi": lambda a, b: a & b, "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b,
}
_CMPI = (lambda a, b: a == b, lambda a, b: a != b, lambda a, b: a < b,
         lambda a, b: a <= b, lambda a, b: a > b, lambda a, b: a >= b,
         lambda a, b: a < b, lambda a, b: a <= b, lambda a, b: a > b, lambda a, b: a >= b)
"""arith.cmpi by predicate number (eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge)."""


def _value(v: SSAValue, tile: int, memo: dict) -> int | None:
    """`v` on tile `tile`, or None when it depends on anything but the tile id and
    constants."""
    key = (id(v), tile)
    if key in memo:
        return memo[key]
    memo[key] = None  # (a cycle cannot occur in SSA; this only guards re-entry)
    op = v.owner
    out: int | None = None
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        out = op.value.value.data
        if isinstance(op.value.type, IntegerType) and op.value.type.width.data == 1:
            out &= 1  # (i1 true may be stored as -1)
    elif isinstance(op, ktdp.GetComputeTileIdOp) and len(op.ids) == 1:
        out = tile
    elif isinstance(op, arith.CmpiOp):
        a, b = (_value(o, tile, memo) for o in op.operands)
        if a is not None and b is not None:
            out = int(_CMPI[op.predicate.value.data](a, b))
    elif isinstance(op, Operation) and op.name == "arith.select":
        c, a, b = (_value(o, tile, memo) for o in op.operands)
        out = (a if c else b) if c is not None else None
    elif isinstance(op, Operation) and op.name in _BINARY and len(op.operands) == 2:
        a, b = (_value(o, tile, memo) for o in op.operands)
        if a is not None and b is not None:
            out = _BINARY[op.name](a, b)
    memo[key] = out
    return out


def _guards(call: CallOp, orchestrator: FuncOp) -> list[tuple[SSAValue, bool]]:
    """The conditions around a call and the value each must take for the call to run."""
    out: list[tuple[SSAValue, bool]] = []
    child: Operation = call
    parent = call.parent_op()
    while parent is not None and parent is not orchestrator:
        if isinstance(parent, scf.IfOp):
            out.append((parent.cond, child.parent_region() is parent.true_region))
        child, parent = parent, parent.parent_op()
    return out


def running_tiles(orchestrator: FuncOp, tiles: int) -> dict[str, tuple[int, ...]]:
    """Per program symbol the orchestrator calls, the tiles (of `tiles`) on which at
    least one of its calls runs."""
    memo: dict = {}
    out: dict[str, set[int]] = {}
    for op in orchestrator.walk():
        if not isinstance(op, CallOp):
            continue
        runs = out.setdefault(op.callee.root_reference.data, set())
        guards = _guards(op, orchestrator)
        for tile in range(tiles):
            if tile in runs:
                continue
            values = [(_value(cond, tile, memo), wanted) for cond, wanted in guards]
            if all(v is None or bool(v) == wanted for v, wanted in values):
                runs.add(tile)
    return {symbol: tuple(sorted(runs)) for symbol, runs in out.items()}
