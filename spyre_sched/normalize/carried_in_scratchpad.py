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
by the scheduler like any store and load of one region.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import empty_like, enclosing_func, note_origin, parallel_generic
from spyre_sched.normalize.scratchpad_slots import aligned, pinned_end, scratchpad_slot
from spyre_sched.polyhedral.views import element_bytes


def _top_level(op: Operation, block: Block) -> Operation:
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None
        op = parent
    return op


def _copied_if_read_after(value: SSAValue, load: ktdp.LoadOp, order: dict[Operation, int],
                          block: Block) -> SSAValue:
    """The value to store into a slot at the end of an iteration: `value`, or a copy of it
    made after every read of the slot's value loaded at the start. The scheduler writes a
    stored compute result into the store's memory when the compute runs, and reads a
    loaded tile when the compute using it runs: a new value computed before the last use
    of the old one (an online softmax's new maximum, computed before the rescale factor
    that still reads the old one) would overwrite the old one before that use. The copy,
    the last compute of the iteration, writes the slot after every read of it."""
    owner = value.owner
    if not isinstance(owner, Operation) or owner.parent_block() is not block:
        return value
    made_at = order[owner]
    if not any(order[_top_level(use.operation, block)] > made_at for use in load.result.uses):
        return value
    ttype = value.type
    assert isinstance(ttype, TensorType)
    empty = empty_like(ttype)
    rank = ttype.get_num_dims()
    copy = parallel_generic([value], [AffineMap.identity(rank)], empty.tensor, ttype,
                            lambda args: ([], args[0]))
    block.add_ops([empty, copy])
    note_origin([empty, copy], owner)
    return copy.res[0]


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
    order = {op: k for k, op in enumerate(new_block.ops)}
    stored = [_copied_if_read_after(value, load, order, new_block)
              for value, load in zip(yield_op.operands, loads)]
    ends = [ktdp.StoreOp.build(operands=[value, slot.own])
            for value, slot in zip(stored, slots)]
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
