"""Executes one compute tile's copy of the kernel: a small op dispatch over numpy values.

Values: `index` scalars are Python ints, other scalars 0-d numpy arrays in the value
representation of `emulator.numerics`, tensors numpy arrays, ktdp views/tiles/futures
objects of `views` / `exchange`. Blocks run as generators so that an inter-tile consume can
suspend its tile (yield a `Wait`) and let the scheduler run the others.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from xdsl.ir import Block, Operation

from spyre_sched.errors import ExecutionError, SpyreSchedError, UnsupportedError

from emulator.reference import error_tracking
from emulator.reference.views import AccessFault

# op name -> handler(executor, op, operand values) -> result values (list) or None.
HANDLERS: dict[str, Callable] = {}
# ops whose handler is a generator (it runs regions or may wait for another tile).
GENERATOR_OPS: set[str] = set()
# ops that end a block and hand their operands to the parent.
TERMINATORS = frozenset(
    {"scf.yield", "func.return", "linalg.yield", "ktdp.yield_partial",
     "ktdp.yield_reduced", "affine.yield", "tensor.yield"}
)


def handles(*names: str, generator: bool = False):
    """Register the decorated function as the handler of ops `names`."""

    def register(fn):
        for name in names:
            HANDLERS[name] = fn
            if generator:
                GENERATOR_OPS.add(name)
        return fn

    return register


# Per op, {builder: what builder(op) returned}: an op's attributes read once, not on every
# execution (xDSL attribute access costs microseconds; loops run an op thousands of times).
# Kept on the op object itself (a plain attribute look-up; a WeakKeyDictionary made a weak
# reference per look-up), so it lives and dies with the op; a cloned op starts empty.
_STATIC_ATTR = "_reference_static"


def op_static(op: Operation, build: Callable):
    """`build(op)`, computed once per op (the op's IR must not change while kernels run)."""
    try:
        per_op = op.__dict__[_STATIC_ATTR]
    except KeyError:
        per_op = op.__dict__[_STATIC_ATTR] = {}
    try:
        return per_op[build]
    except KeyError:
        value = per_op[build] = build(op)
        return value


TERMINATOR = object()
_PLAN_ATTR = "_reference_plan"


def block_plan(block: Block) -> list[tuple]:
    """(op, handler or TERMINATOR or None, operands, results, is generator) per op of
    `block`, read from the IR once (kept on the block, like `op_static`)."""
    try:
        return block.__dict__[_PLAN_ATTR]
    except KeyError:
        pass
    plan = []
    for op in block.ops:
        name = op.name
        handler = TERMINATOR if name in TERMINATORS else HANDLERS.get(name)
        plan.append((op, handler, tuple(op.operands), tuple(op.results),
                     name in GENERATOR_OPS))
    block.__dict__[_PLAN_ATTR] = plan
    return plan


class Undelivered:
    """What a tile that is in no consumer group gets from an inter-tile consume/reduce:
    using it is an error naming the op."""

    def __init__(self, reason: str):
        self.reason = reason


class TileExecutor:
    """The state of one compute tile: its SSA environment and per-op execution counts."""

    def __init__(self, machine, tile: int):
        self.machine = machine
        self.tile = tile
        self.env: dict = {}
        self.instances: dict[Operation, int] = defaultdict(int)
        self.linalg_domains: list[list[int]] = []  # iteration domains of running linalg ops
        # Loop-carried tensors updated in place (see ops_upstream._updated): how many times
        # each loop body has been entered, and per insert op the array it last produced
        # and in which entry.
        self.loop_entries: dict[Block, int] = defaultdict(int)
        self.owned: dict[Operation, tuple[object, int]] = {}
        # SSA value -> bound of how far a hardware-order executor may lie from its value
        # (error_tracking); None when the launch does not track bounds
        self.errors: dict | None = {} if machine.errors is not None else None
        # SSA value -> (lo, hi): where an elementwise result's hardware value lies when
        # that is narrower than its value +- its bound (error_tracking)
        self.error_ranges: dict = {}

    # ---- errors ------------------------------------------------------------------
    def error(self, op: Operation, message: str, cls=ExecutionError) -> SpyreSchedError:
        err = cls(f"tile {self.tile}: {op.name}: {message}", self.machine.kernel.location_of(op))
        err.located = True  # type: ignore[attr-defined]
        return err

    # ---- execution ---------------------------------------------------------------
    def run_block(self, block: Block, args, plan: list[tuple] | None = None):
        """Generator: run `block` with its arguments bound to `args`; returns the
        terminator's operand values. `plan`: a part of `block_plan(block)` to run instead
        of the whole block."""
        env = self.env
        tracking = self.errors is not None
        for arg, value in zip(block.args, args):
            env[arg] = value
        for op, handler, operands, results, generator in (
                block_plan(block) if plan is None else plan):
            if handler is TERMINATOR:
                if tracking:
                    error_tracking.check_terminator(self, op)
                return [env[v] for v in operands]
            if handler is None:
                raise self.error(
                    op, "this op is not supported by the reference interpreter", UnsupportedError
                )
            values = [env[v] for v in operands]
            for value in values:
                if type(value) is Undelivered:
                    raise self.error(op, value.reason)
            try:
                if generator:
                    produced = yield from handler(self, op, values)
                else:
                    produced = handler(self, op, values)
            except AccessFault as fault:
                raise self.error(op, str(fault)) from None
            except SpyreSchedError as err:
                if getattr(err, "located", False):
                    raise
                raise self.error(op, err.message, type(err)) from None
            except (ValueError, IndexError) as err:
                # numpy refusing the operands (shapes, indices the verifier cannot see).
                raise self.error(op, f"cannot execute on these operands: {err}") from None
            if produced is not None:
                for result, value in zip(results, produced):
                    env[result] = value
            if tracking:
                error_tracking.after_op(self, op, handler, values, produced)
        return []

    def run_pure(self, block: Block, args, op: Operation, plan: list[tuple] | None = None):
        """Run a region that must not wait for other tiles (linalg bodies, combiners)."""
        gen = self.run_block(block, args, plan)
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value
        raise self.error(op, "its region waits for another tile; it must be pure")
