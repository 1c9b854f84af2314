"""Loop-invariant instructions moved out of their loops.

A program unit's body repeats its instructions once per iteration of every loop around
them, and every instruction costs the unit an issue cycle. One that reads nothing its
loop defines computes the same value every time: it is made once, before the loop, and
held in a register. Two kinds move: the vector unit's pure instructions (a constant
operand's splat and its broadcast, a scalar argument's splat), as the cost model
already assumes (it counts a body's operations on the data, not its constants), and
speculatable scalar `arith` (an outer loop's part of an address, the instance's range of
a distributed loop), which the cost model does not count at all: left in a deep nest of
one-cycle transfers, it is what bounds the unit. A division or remainder, which may
trap, stays where the emitter placed it.
"""

from __future__ import annotations

from collections import deque

from xdsl.dialects import arith, scf
from xdsl.ir import Operation, Region
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free, is_speculatable
from xdsl.transforms.loop_invariant_code_motion import can_be_hoisted

from spyre_sched.dialects import vectorchain


#: Integer divisions and remainders fault on a zero divisor in the emulator, whatever
#: upstream's traits say of one (xDSL marks `floordivsi` speculatable).
_MAY_TRAP = (arith.DivUIOp, arith.DivSIOp, arith.RemUIOp, arith.RemSIOp, arith.FloorDivSIOp,
             arith.CeilDivUIOp, arith.CeilDivSIOp)


def hoist_invariants(region: Region) -> None:
    """Hoist out of every scf.for in `region`, innermost first, so that an instruction
    invariant in several nested loops ends before the outermost of them."""
    loops = [op for op in region.walk() if isinstance(op, scf.ForOp)]
    for loop in reversed(loops):
        _hoist(loop)


def _movable(op: Operation, body: Region) -> bool:
    """The vector unit's and scalar arithmetic's instructions that have no side effect, are
    speculatable and read nothing the loop defines (upstream's `can_be_hoisted`). None of
    them can fault, so running one that a loop of no iterations would have skipped
    changes no result."""
    return (op.dialect_name() in (vectorchain.VECTORCHAIN.name, arith.Arith.name)
            and is_side_effect_free(op) and is_speculatable(op)
            and not isinstance(op, _MAY_TRAP) and bool(can_be_hoisted(op, body)))


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
