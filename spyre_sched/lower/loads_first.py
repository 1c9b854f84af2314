"""A load unit's scratchpad reads issued before the sends that forward them.

The emitter writes each scratchpad-to-FIFO transfer as `vector_load` then `send`. A unit
runs its device ops in order, and a send waits for its vector to land, so a body that
forwards k operands per iteration (`load a; send a; load b; send b; ...`) waits k times
for the scratchpad's latency. Issued as `load a; load b; ...; send a; send b; ...`, the
loads are in flight together and the unit waits about once: what the cost model prices
(a stage's latency is the largest of its transfers', not their sum).

A send moves down its block past loads and scalar index arithmetic only, never past
another send (the FIFOs' send order is kept: `fifo_order` relies on it), a receive, a
token, a store or a loop. Nothing it passes writes memory or waits, so the run computes
the same values and no unit waits on anything it did not wait on before.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.ir import Block, Operation, Region

from spyre_sched.dialects import dataflow as df
from spyre_sched.dialects.agen import VectorLoadOp


def issue_loads_first(region: Region) -> None:
    """In every block of `region`, move each send of a loaded vector below the loads and
    index arithmetic that follow it (see the module docstring)."""
    for op in list(region.walk()):
        for inner in op.regions:
            for block in inner.blocks:
                _sink_sends(block)
    for block in region.blocks:
        _sink_sends(block)


def _passable(op: Operation) -> bool:
    return isinstance(op, VectorLoadOp | arith.SignlessIntegerBinaryOperation | arith.ConstantOp)


def _sink_sends(block: Block) -> None:
    sends = [op for op in block.ops if isinstance(op, df.SendOp)
             and isinstance(op.operands[0].owner, VectorLoadOp)]
    for send in reversed(sends):  # the last first, so each stops right above the next
        last = send
        while (nxt := last.next_op) is not None and _passable(nxt):
            last = nxt
        if last is not send:
            send.detach()
            block.insert_op_after(send, last)
