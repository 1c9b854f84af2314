"""Proof that FIFOs sharing a datapath's queue in send order are received in that order.

A datapath queue of Q entries can serve more logical FIFOs of one phase than it has
entries only when the unit behind receives them in the order they were sent: the queue
then holds entries of the message being received and those after it, so the receiver
always waits on entries that are there or on their way, and nothing deadlocks. With the
FIFOs received out of order, the queue could fill with entries of one FIFO while the
receiver waits on another.

The check is over the program units as written: the producer's unit and the consumer's
are reduced to the skeleton of their sends, respectively receives, on the group's FIFOs
(each with the FIFO and the elements it moves) and of the loops and branches around
them, in program order; the two skeletons must be equal. Both units' loops come from the
one ScheduleIR pipeline, which runs corresponding loops equally often (loops with
constant bounds are compared too), so equal skeletons move the same messages in the same
order: the consumer receives them in the order they were sent. Blocks holding some of
the FIFOs each (two computes fused in one tile loop), an unrolled vector loop, and a
tile loop's full tiles and remainder (two blocks, different message sizes) all pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation

from spyre_sched.dialects import dataflow as df
from spyre_sched.errors import DeviceError


def check_send_order(program: str, units: Sequence[df.ProgramUnitOp],
                     groups: Sequence[tuple[str, str, Sequence[str]]]) -> None:
    """Raise a located DeviceError unless, for each group (producer engine, consumer
    engine, FIFO names) of FIFOs sharing one datapath queue in send order, the consumer
    receives them in the order the producer sends them (see the module docstring)."""
    for source, target, names in groups:
        where = f"op dataflow.fifo @{names[0]} in pass lower (program {program})"
        sends = _skeleton(units, source, df.SendOp, set(names))
        receives = _skeleton(units, target, df.ReceiveOp, set(names))
        if sends == receives:
            continue
        sent, received = _messages(sends), _messages(receives)
        if [n for n, _ in sent] != [n for n, _ in received]:
            raise DeviceError(
                f"the {len(names)} FIFOs {source} -> {target} share a queue in send order, "
                "which needs the unit behind to receive them in the order they are sent; "
                f"sent {_listed(sent)}, received {_listed(received)}", where)
        raise DeviceError(
            f"the FIFOs {source} -> {target} share a queue in send order, but their sends "
            "and receives differ in message size or in the loops around them (sent "
            f"{_sizes(sent)}; received {_sizes(received)})", where)


def _skeleton(units: Sequence[df.ProgramUnitOp], engine: str, kind: type,
              names: set[str]) -> tuple:
    """The engine's sends or receives on `names` and the ops with regions around them:
    per unit, a block skeleton of ("message", FIFO, elements) and ("region", op name,
    constant loop bounds, its blocks' skeletons) items."""
    return tuple(_block_skeleton(unit.body.block, kind, names) for unit in units
                 if unit.engine.data == engine)


def _block_skeleton(block: Block, kind: type, names: set[str]) -> tuple:
    out: list = []
    for op in block.ops:
        if isinstance(op, kind) and op.fifo.root_reference.data in names:
            out.append(("message", op.fifo.root_reference.data, _elements(op)))
        elif op.regions:
            inner = tuple(_block_skeleton(b, kind, names) for r in op.regions for b in r.blocks)
            if any(inner):
                out.append(("region", op.name, _constant_bounds(op), inner))
    return tuple(out)


def _constant_bounds(op: Operation) -> tuple:
    """A loop's bounds where they are constants (None where they are values)."""
    if not isinstance(op, scf.ForOp):
        return ()
    out = []
    for v in (op.lb, op.ub, op.step):
        owner = v.owner
        out.append(owner.value.value.data if isinstance(owner, arith.ConstantOp) and
                   isinstance(owner.value, IntegerAttr) else None)
    return tuple(out)


def _messages(blocks) -> list[tuple[str, int]]:
    """The messages of block skeletons in program order (each loop body once)."""
    out: list[tuple[str, int]] = []
    for block in blocks:
        for item in block:
            if item[0] == "message":
                out.append(item[1:])
            else:
                out += _messages(item[3])
    return out


def _elements(op: Operation) -> int:
    vec = op.value.type if isinstance(op, df.SendOp) else op.result.type
    return prod(vec.get_shape())


def _listed(messages: list[tuple[str, int]]) -> str:
    return ", ".join("@" + n for n, _ in messages[:8]) + (", ..." if len(messages) > 8 else "")


def _sizes(messages: list[tuple[str, int]]) -> str:
    return ", ".join(f"@{n} {k}" for n, k in messages[:8]) + (", ..." if len(messages) > 8 else "")
