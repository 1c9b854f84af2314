"""Replaying a witness concretely: evaluate the kernel's index arithmetic at one instance
(a tile id, loop values, argument values) and compute what an access really touches.

The static checks find witnesses in an integer-set model that may over-approximate
(opaque values, guards it cannot read); an error is reported only when its witness
replays here. A witness that does not replay is downgraded to a warning.

`Instance(values, tile, assignment)` evaluates SSA index values with plain Python
integers, with MLIR's semantics (`divsi` truncates, `floordivsi` floors, ...). A value
it cannot compute (a value loaded from memory, an unknown op, an argument the witness
does not give) raises `Unreplayable`. `written_addresses(access, instance)` is the set of
element addresses (pointer arguments taken as 0) an instance of an access touches inside
its view, with the memory they live in: masked positions touch nothing.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects import affine, func, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import BlockArgument, Operation, SSAValue

from xdsl.dialects.builtin import DYNAMIC_INDEX

from spyre_sched.dialects.ktdp import (
    ConstructAccessTileOp,
    GetComputeTileIdOp,
    RuntimeArgExtractOp,
    coordinates_grid,
)
from spyre_sched.polyhedral.affine_values import AffineValues
from spyre_sched.polyhedral.point_sets import bounding_box, contains, enumerate_points


class Unreplayable(Exception):
    """The instance needs a value the replay cannot compute (named in the message)."""


REPLAY_POINTS_LIMIT = 1 << 24
"""The most positions of one access tile a replay enumerates. A replay holds every address
the tile touches; a tile beyond this (no scratchpad holds it) cannot be replayed, and the
finding stays a warning instead of the host running out of memory."""


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


class Instance:
    """One compute tile and one value per loop / argument variable (by variable name)."""

    def __init__(self, values: AffineValues, tile: int, assignment: dict[str, int],
                 pointer_names: set[str] = frozenset()):
        self.values = values
        self.tile = tile
        self.assignment = assignment
        self.by_value = {v.value: v for v in values.variables if v.value is not None}
        #: unbound scalar arguments the replay needed, with the witness's values
        self.unbound: dict[str, int] = {}
        self._memo: dict[SSAValue, int] = {}
        #: pointer arguments (roots of views) count as address 0
        self.pointers = {v.value for v in values.variables
                         if v.kind.value == "argument" and v.name in pointer_names}

    def _variable(self, value: SSAValue) -> int:
        var = self.by_value.get(value)
        if var is None or var.name not in self.assignment:
            raise Unreplayable(f"no value for %{value.name_hint or '?'}")
        if var.kind.value in ("argument", "runtime"):
            self.unbound[var.name] = self.assignment[var.name]
        return self.assignment[var.name]

    def eval(self, value: SSAValue) -> int:
        if value not in self._memo:
            self._memo[value] = self._compute(value)
        return self._memo[value]

    def _compute(self, value: SSAValue) -> int:
        if isinstance(value, BlockArgument):
            owner = value.owner.parent_op()
            if isinstance(owner, func.FuncOp):
                if value in self.pointers:
                    return 0
                name = value.name_hint or ""
                if name in self.values.bindings:
                    return self.values.bindings[name]
                return self._variable(value)
            if isinstance(owner, scf.ForOp | affine.ForOp) and value.index == 0:
                return self._variable(value)
            raise Unreplayable("a block argument that is not a loop variable")
        op = value.owner
        assert isinstance(op, Operation)
        name = op.name
        if isinstance(op, GetComputeTileIdOp):
            if len(op.results) == 1:
                return self.tile
            rest = self.tile
            for axis, n in enumerate(coordinates_grid(self.values.grid, len(op.results))):
                if op.results[axis] is value:
                    return rest % n
                rest //= n
        if isinstance(op, RuntimeArgExtractOp):
            field = op.field.data
            if field != "value":
                return getattr(op.arg.type, f"{field}_value")
            name_hint = op.arg.name_hint or ""
            if name_hint in self.values.bindings:
                return self.values.bindings[name_hint]
            return self._variable(value)
        if name == "arith.constant" and isinstance(op.value, IntegerAttr):  # type: ignore
            return op.value.value.data  # type: ignore[attr-defined]
        args = op.operands
        if name in ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui",
                    "arith.trunci"):
            return self.eval(args[0])
        if name == "arith.select":
            return self.eval(args[1]) if self.condition(args[0]) else self.eval(args[2])
        if name == "affine.apply":
            amap = op.map.data  # type: ignore[attr-defined]
            vals = [self.eval(v) for v in args]
            return int(amap.eval(vals[: amap.num_dims], vals[amap.num_dims:])[0])
        binary = {
            "arith.addi": lambda a, b: a + b, "arith.subi": lambda a, b: a - b,
            "arith.muli": lambda a, b: a * b, "arith.divsi": _trunc_div,
            "arith.divui": lambda a, b: a // b, "arith.floordivsi": lambda a, b: a // b,
            "arith.ceildivsi": lambda a, b: -((-a) // b), "arith.ceildivui": lambda a, b: -((-a) // b),
            "arith.remsi": lambda a, b: a - _trunc_div(a, b) * b, "arith.remui": lambda a, b: a % b,
            "arith.minsi": min, "arith.minui": min, "arith.maxsi": max, "arith.maxui": max,
            "arith.shli": lambda a, b: a << b, "arith.shrsi": lambda a, b: a >> b,
            "arith.shrui": lambda a, b: a >> b,
        }
        if name in binary:
            a, b = self.eval(args[0]), self.eval(args[1])
            if name in ("arith.divsi", "arith.divui", "arith.floordivsi", "arith.ceildivsi",
                        "arith.ceildivui", "arith.remsi", "arith.remui") and b == 0:
                raise Unreplayable(f"{name} by zero")
            return int(binary[name](a, b))
        raise Unreplayable(f"'{name}' is not index arithmetic")

    def condition(self, value: SSAValue) -> bool:
        op = value.owner
        if isinstance(op, Operation):
            if op.name == "arith.constant" and isinstance(op.value, IntegerAttr):  # type: ignore
                return bool(op.value.value.data)  # type: ignore[attr-defined]
            if op.name == "arith.cmpi":
                a, b = self.eval(op.operands[0]), self.eval(op.operands[1])
                pred = op.properties["predicate"].value.data  # type: ignore[attr-defined]
                return [a == b, a != b, a < b, a <= b, a > b, a >= b,
                        a < b, a <= b, a > b, a >= b][pred]
            if op.name in ("arith.andi", "arith.ori", "arith.xori"):
                x, y = self.condition(op.operands[0]), self.condition(op.operands[1])
                return {"arith.andi": x and y, "arith.ori": x or y, "arith.xori": x != y}[op.name]
        raise Unreplayable("a condition that is not an integer comparison")

    def _bound(self, amap, operands, pick) -> int:
        """An affine.for bound: the max (lower) or min (upper) of its map's results."""
        vals = [self.eval(v) for v in operands]
        return pick(int(r) for r in amap.eval(vals[: amap.num_dims], vals[amap.num_dims:]))

    def reaches(self, op: Operation) -> bool:
        """True when this instance executes `op`: every enclosing loop variable is in its
        range and every enclosing `scf.if` takes the branch holding `op`."""
        child, parent = op, op.parent_op()
        while parent is not None and not isinstance(parent, func.FuncOp):
            if isinstance(parent, scf.ForOp):
                iv = self.eval(parent.body.block.args[0])
                lb, ub, step = (self.eval(parent.lb), self.eval(parent.ub),
                                self.eval(parent.step))
                if not (lb <= iv < ub) or step <= 0 or (iv - lb) % step:
                    return False
            elif isinstance(parent, scf.IfOp):
                in_then = child.parent_region() is parent.true_region
                if self.condition(parent.cond) != in_then:
                    return False
            elif isinstance(parent, affine.ForOp):
                iv = self.eval(parent.body.block.args[0])
                lb = self._bound(parent.lowerBoundMap.data, parent.lowerBoundOperands, max)
                ub = self._bound(parent.upperBoundMap.data, parent.upperBoundOperands, min)
                step = parent.step.value.data
                if not (lb <= iv < ub) or (iv - lb) % step:
                    return False
            child, parent = parent, parent.parent_op()
        return True


def written_addresses(access, inst: Instance) -> dict[tuple, set[int]]:
    """{(memory space, core, root pointer): element addresses} that the instance `inst`
    of `access` (an AccessModel) touches inside its view; pointer arguments count as 0
    (`inst.pointers`), so addresses of views on one pointer compare."""
    tile_op = access.tile_op
    if not isinstance(tile_op, ConstructAccessTileOp):
        raise Unreplayable("an indirect access tile")
    base = tile_op.base_map.data.eval([], [inst.eval(v) for v in tile_op.indices])
    symbols = [inst.eval(v) for v in tile_op.tile_symbols]
    lo, hi = bounding_box(tile_op.access_tile_set.data, symbols)
    positions = int(np.prod([max(int(h) - int(l) + 1, 0) for l, h in zip(lo, hi)], dtype=object))
    if positions > REPLAY_POINTS_LIMIT:
        raise Unreplayable(f"the access tile spans {positions} positions, more than the "
                           f"{REPLAY_POINTS_LIMIT} a replay enumerates")
    points = enumerate_points(tile_op.access_tile_set.data, symbols) + np.asarray(
        base, dtype=np.int64)
    result: dict[tuple, set[int]] = {}
    remaining = points
    for part in access.view.parts:
        if not len(remaining):
            break
        op = part.op
        cset = op.coordinate_set.data
        dyn = [inst.eval(v) for v in op.sizes][: cset.num_symbols]
        inside = contains(cset, remaining, dyn)
        chosen, remaining = remaining[inside], remaining[~inside]
        if not len(chosen):
            continue
        origin = np.asarray(bounding_box(cset, dyn)[0], dtype=np.int64)
        dyn_strides = iter([inst.eval(v) for v in op.strides])
        strides = [next(dyn_strides) if s == DYNAMIC_INDEX else s
                   for s in op.static_strides.get_values()]
        addresses = inst.eval(op.offset) + (chosen - origin) @ np.asarray(strides, np.int64)
        space = op.memory_space
        core = space.tile if space.tile is not None else (  # type: ignore[attr-defined]
            inst.tile if space.space == "ct_local" else None)  # type: ignore[attr-defined]
        key = (space.space, core, part.root_key)  # type: ignore[attr-defined]
        result.setdefault(key, set()).update(int(a) for a in addresses)
    return result


def with_derived(values: AffineValues, env: dict[str, int]) -> dict[str, int]:
    """`env` (an instance: the tile id and values by variable name) with each derived
    variable it leaves out (a min, max, select or remainder the model defines by
    constraints rather than as an expression) computed from its definition at that
    instance. One the instance does not determine (a loop it does not bind, a value read
    from memory) stays out, and reads as 0 where a caller defaults it."""
    missing = [v for v in values.derived if v.name not in env]
    if not missing:
        return env
    instance = Instance(values, env.get(values.tile.name, 0), env)
    found = dict(env)
    for var in missing:
        try:
            found[var.name] = instance.eval(var.value)
        except Unreplayable:
            continue  # not determined at this instance: left out
    return found
