"""Loop-invariant vector instructions moved out of their loops.

A program unit's body repeats its vector instructions once per iteration of every loop
around them. One that reads nothing its loop defines (a constant operand's splat and its
broadcast, a scalar argument's splat) computes the same vector every time: it is made
once, before the loop, and held in a register, as the cost model already assumes (it
counts a body's operations on the data, not its constants). Only the vector unit's pure
instructions move: they are what costs the unit cycles per iteration; scalar index
arithmetic stays where the emitter placed it.
"""

from __future__ import annotations

from collections import deque

from xdsl.dialects import scf
from xdsl.ir import Operation, Region
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.transforms.loop_invariant_code_motion import can_be_hoisted

from spyre_sched.dialects import vectorchain


def hoist_vector_invariants(region: Region) -> None:
    """Hoist out of every scf.for in `region`, innermost first, so that an instruction
    invariant in several nested loops ends before the outermost of them."""
    loops = [op for op in region.walk() if isinstance(op, scf.ForOp)]
    for loop in reversed(loops):
        _hoist(loop)


def _movable(op: Operation, body: Region) -> bool:
    """The vector unit's instructions that have no side effect and read nothing the loop
    defines (upstream's `can_be_hoisted`). None of them can fault, so running one that a
    loop of no iterations would have skipped changes no result."""
    return (op.dialect_name() == vectorchain.VECTORCHAIN.name and is_side_effect_free(op)
            and bool(can_be_hoisted(op, body)))


def _hoist(loop: scf.ForOp) -> None:
    body = loop.body
    work = deque(op for block in body.blocks for op in block.ops)
    while work:
        op = work.popleft()
        if op.parent_region() is not body or not _movable(op, body):
            continue
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(loop))
        for result in op.results:
            for use in result.uses:
                if use.operation.parent_region() is body:
                    work.append(use.operation)
