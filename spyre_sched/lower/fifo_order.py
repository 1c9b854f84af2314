"""Proof that FIFOs sharing a datapath's queue in send order are received in that order.

A datapath queue of Q entries can serve more logical FIFOs of one phase than it has
entries only when the unit behind receives them in the order they were sent: the queue
then holds entries of the message being received and those after it, so the receiver
always waits on entries that are there or on their way, and nothing deadlocks. With the
FIFOs received out of order, the queue could fill with entries of one FIFO while the
receiver waits on another.

The check is over the program units as written. In the producer's unit, every block
holding sends to the group's FIFOs sends each of them exactly once, always in one order;
in the consumer's unit, every block holding receives from them receives each exactly
once, in the same order. So each unit moves the FIFOs' messages in that order, round
after round, and the consumer receives them in the order they were sent. A message's
size may differ from block to block (a tile loop's full tiles and its remainder), so
the blocks of the two units are also compared in program order: the same sizes, at the
same loop depth (both units' loop nests come from the one ScheduleIR pipeline, which
runs them equally often in that order).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import scf
from xdsl.ir import Operation

from spyre_sched.dialects import dataflow as df
from spyre_sched.errors import DeviceError


def check_send_order(program: str, units: Sequence[df.ProgramUnitOp],
                     groups: Sequence[tuple[str, str, Sequence[str]]]) -> None:
    """Raise a located DeviceError unless, for each group (producer engine, consumer
    engine, FIFO names) of FIFOs sharing one datapath queue in send order, the consumer
    receives them in the order the producer sends them (see the module docstring)."""
    for source, target, names in groups:
        where = f"op dataflow.fifo @{names[0]} in pass lower (program {program})"
        sends = _rounds(units, source, df.SendOp, set(names), where)
        receives = _rounds(units, target, df.ReceiveOp, set(names), where)
        if [[n for n, _ in r] for _, r in sends] != [[n for n, _ in r] for _, r in receives]:
            raise DeviceError(
                f"the {len(names)} FIFOs {source} -> {target} share a queue with fewer "
                "entries than FIFOs, which needs the unit behind to receive them in the "
                f"order they are sent; sent {_listed(sends)}, received {_listed(receives)}",
                where)
        if sends != receives:
            raise DeviceError(
                f"the FIFOs {source} -> {target} share a queue in send order, but their "
                "sends and receives differ in message size or loop depth (sent "
                f"{_sizes(sends)}, received {_sizes(receives)})", where)


def _rounds(units: Sequence[df.ProgramUnitOp], engine: str, kind: type, names: set[str],
            where: str) -> list[tuple[int, list[tuple[str, int]]]]:
    """Per block holding the engine's sends or receives on `names`, in program order:
    (its loop depth, [(FIFO, elements per message)] in op order), each FIFO once, every
    block in the same FIFO order."""
    blocks: dict[int, tuple[int, list[tuple[str, int]]]] = {}
    for unit in units:
        if unit.engine.data != engine:
            continue
        for op in unit.body.walk():
            if isinstance(op, kind) and op.fifo.root_reference.data in names:
                block = op.parent_block()
                entry = blocks.setdefault(id(block), (_loop_depth(op, unit), []))
                entry[1].append((op.fifo.root_reference.data, _elements(op)))
    rounds = list(blocks.values())
    orders = {tuple(n for n, _ in r) for _, r in rounds}
    what = "sends" if kind is df.SendOp else "receives"
    if len(orders) != 1 or any(len(set(o)) != len(o) or set(o) != names for o in orders):
        raise DeviceError(
            f"the FIFOs {', '.join('@' + n for n in sorted(names))} share a queue with fewer "
            f"entries than FIFOs, which needs one fixed order of their {what} on {engine} "
            "(each FIFO once per block, every block in the same order); the program does "
            "not have it", where)
    return rounds


def _loop_depth(op: Operation, unit: Operation) -> int:
    depth = 0
    parent = op.parent_op()
    while parent is not None and parent is not unit:
        depth += isinstance(parent, scf.ForOp)
        parent = parent.parent_op()
    return depth


def _elements(op: Operation) -> int:
    vec = op.value.type if isinstance(op, df.SendOp) else op.result.type
    return prod(vec.get_shape())


def _listed(rounds) -> str:
    return ", ".join("@" + n for n, _ in rounds[0][1]) if rounds else "nothing"


def _sizes(rounds) -> str:
    return "; ".join(f"depth {d}: " + ", ".join(str(k) for _, k in r) for d, r in rounds)
