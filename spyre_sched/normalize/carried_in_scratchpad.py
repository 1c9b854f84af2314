"""A loop-carried tensor kept in the tile's own scratchpad, for a loop the orchestrator
runs iteration by iteration.

`untile-loops` folds a loop whose iterations tile an extent; a loop it cannot fold is
called by the orchestrator once per iteration, and each iteration must then be whole
load -> compute -> store chains: no tensor may cross the loop's boundary. A value the
loop carries in `iter_args` (an accumulator updated by something other than one
reduction, say an all-reduce per iteration added up) crosses it. Here it is given a slot
in the tile's own scratchpad instead (`scratchpad_slots`, past everything pinned there):
the initial value is stored into it before the loop, each iteration loads it at the start
and stores the value it would yield at the end, and the loop's result is loaded from it
after the loop. Every tile has its own slot (the same offset in each core's scratchpad),
as every tile has its own carried value; a store and a later load of one slot are ordered
by the scheduler like any store and load of one region. A new value computed before the
last read of the old one (an online softmax's new maximum, before the rescale that reads
the old one) is stored after that read by `stores-after-reads`, as any store is.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Region
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import enclosing_func, note_origin
from spyre_sched.normalize.scratchpad_slots import aligned, pinned_end, scratchpad_slot
from spyre_sched.polyhedral.views import element_bytes


def carry_in_scratchpad(loop: scf.ForOp) -> scf.ForOp | None:
    """The loop rewritten without `iter_args` (its carried tensors through scratchpad
    slots), or None (nothing changed) when a carried value is not a tensor of static
    shape."""
    types = [v.type for v in loop.iter_args]
    if not types or not all(isinstance(t, TensorType) and all(d >= 0 for d in t.get_shape())
                            for t in types):
        return None
    fn = enclosing_func(loop)
    offset = aligned(pinned_end(fn))
    slots = []
    for ttype in types:
        assert isinstance(ttype, TensorType)
        slots.append(scratchpad_slot(fn, offset, ttype, ()))
        offset += aligned(element_bytes(ttype.element_type) * ttype.element_count())
    made = []
    # before the loop: the initial values
    for init, slot in zip(loop.iter_args, slots):
        made.append(ktdp.StoreOp.build(operands=[init, slot.own]))
    Rewriter.insert_op(made, InsertPoint.before(loop))
    # the loop without iter_args, its body moved over
    body = loop.body.block
    new_block = Block(arg_types=[body.args[0].type])
    new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, [], Region(new_block))
    body.args[0].replace_all_uses_with(new_block.args[0])
    new_block.args[0].name_hint = body.args[0].name_hint
    loads = [ktdp.LoadOp.build(operands=[slot.own], result_types=[slot.type]) for slot in slots]
    for load, arg in zip(loads, body.args[1:]):
        load.result.name_hint = arg.name_hint
        arg.replace_all_uses_with(load.result)
    for load in loads:
        new_block.add_op(load)
    yield_op = body.last_op
    assert isinstance(yield_op, scf.YieldOp)
    for op in list(body.ops):
        if op is yield_op:
            break
        op.detach()
        new_block.add_op(op)
    ends = [ktdp.StoreOp.build(operands=[value, slot.own])
            for value, slot in zip(yield_op.operands, slots)]
    for store in ends:
        new_block.add_op(store)
    new_block.add_op(scf.YieldOp())
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))
    # after the loop: its results
    after = [ktdp.LoadOp.build(operands=[slot.own], result_types=[slot.type]) for slot in slots]
    Rewriter.insert_op(after, InsertPoint.after(new_loop))
    for result, load in zip(loop.results, after):
        load.result.name_hint = result.name_hint
        result.replace_all_uses_with(load.result)
    note_origin([*made, new_loop, *loads, *ends, *after], loop)
    loop.detach()
    loop.erase()
    return new_loop
