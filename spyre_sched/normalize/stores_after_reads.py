"""Normal-form pass `stores-after-reads`: a store that would overwrite memory before the
last read of a tile loaded from it earlier is moved after that read.

In KTIR a `ktdp.load` yields a tensor value: a compute that uses it sees the memory as
it was at the load, whatever a later store writes there. The scheduler does not copy a
loaded tile at the load. Each compute reads its loaded operands from their memory when
the compute runs (a `ct_local` view directly, device memory through a staging buffer it
fills then), and a stored compute result is written into its memory when the compute
that makes it runs. A program runs as a whole where its last store was. So with

    x = load S;  y = f(x);  store y -> S;  z = g(x)

the scheduler writes y over S when f runs and g then reads the new S (an online
softmax's new maximum overwriting the old one the rescale still reads: every output
wrong). The rule this pass enforces in each block: a store writes no earlier than the
last op that reads, through tensor values, a tile loaded before it from memory the store
may overlap. Where a store writes too early it is moved after that last reader, and a
computed value is stored through a plain copy made there (the copy, a compute of its own
placed after the reads, is what writes the memory; the value itself may be computed
early and read by others). The copy costs one pass of the vector unit over the tile.

A computed value that is stored and also read by a later compute is read back from where
it was stored, so a store overwriting that memory before the later compute moves the same
way. "Reads" counts the readers the scheduler may run late: every compute using the
value, directly or through other computes (fusion runs an elementwise producer inside its
consumer), and every store of a value made from it (its program runs at its last store).
Memory "may overlap" unless told apart for sure (`polyhedral/memory_overlap.py`: different
memory spaces or cores, different pointer arguments, scratchpad byte ranges or constant
boxes of one view that do not meet).

A store that would have to move past a load of the memory it writes (which must see the
new value) or past another store to that memory is refused as "not supported yet",
naming the store; so are two stores that each read a tile loaded from memory the other
may overwrite (each would have to write after the other).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import (empty_like, kernel_of, note_origin, origin_of,
                                          parallel_generic)
from spyre_sched.polyhedral.memory_overlap import MemoryIndex, tiles_may_overlap
from spyre_sched.schedule.common import fail

NAME = "stores-after-reads"


def _top_level(op: Operation, block: Block) -> Operation | None:
    """The op of `block` that is or holds `op` (None when `op` is outside the block)."""
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def _readers(source: ktdp.LoadOp | ktdp.StoreOp, block: Block) -> list[Operation]:
    """The ops of `block` that read what `source` loaded, or a computed value `source`
    stored (the scheduler reads such a value back from where it is stored), when the
    scheduler runs them: every op using the value or a tensor computed from it, and every
    store of such a value."""
    value = source.result if isinstance(source, ktdp.LoadOp) else source.value
    seen: set[Operation] = {source}
    work = [use.operation for use in value.uses]
    found: list[Operation] = []
    while work:
        op = work.pop()
        if op in seen:
            continue
        seen.add(op)
        top = _top_level(op, block)
        if top is not None:
            found.append(top)
        if isinstance(op, ktdp.StoreOp):
            continue
        for result in op.results:
            if isinstance(result.type, TensorType):
                work += [use.operation for use in result.uses]
    return found


def _write_point(store: ktdp.StoreOp, block: Block, order: dict[Operation, int]) -> int:
    """Where in `block` the scheduler writes what `store` stores: at the compute that
    makes it, or at the store for a loaded tile stored as it is (a copy)."""
    owner = store.value.owner
    if isinstance(owner, ktdp.LoadOp) or not isinstance(owner, Operation):
        return order[store] if isinstance(owner, ktdp.LoadOp) else -1
    top = _top_level(owner, block)
    return order[top] if top is not None else -1


def _order_block(block: Block) -> None:
    # each store as written (its key) and the keys of the stores it was moved after: a
    # move that would close a cycle means two stores must each write after the other
    key: dict[ktdp.StoreOp, ktdp.StoreOp] = {}
    follows: dict[ktdp.StoreOp, set[ktdp.StoreOp]] = {}
    moves = 0
    changed = True
    while changed:
        changed = False
        ops = list(block.ops)
        order = {op: k for k, op in enumerate(ops)}
        # what is read from memory later: loaded tiles, and computed values stored
        # (a later compute reads one back from where it was stored)
        sources: MemoryIndex[ktdp.LoadOp | ktdp.StoreOp] = MemoryIndex()
        for op in ops:
            if isinstance(op, ktdp.LoadOp) or (
                    isinstance(op, ktdp.StoreOp) and not isinstance(op.value.owner, ktdp.LoadOp)):
                sources.add(op.tile, op)
        stores = [op for op in ops if isinstance(op, ktdp.StoreOp)]
        for store in stores:
            written = _write_point(store, block, order)
            last = max((order[r] for source in sources.near(store.tile)
                        if order[source] < order[store]
                        and tiles_may_overlap(source.tile, store.tile)
                        for r in _readers(source, block) if r is not store), default=-1)
            if last <= written:
                continue
            reader = ops[last]
            mine = key.get(store, store)
            moves += 1
            if isinstance(reader, ktdp.StoreOp):
                theirs = key.get(reader, reader)
                if theirs is mine or mine in _followed(theirs, follows):
                    raise _cycle(store, reader)
                follows.setdefault(mine, set()).add(theirs)
            if moves > (len(stores) + 1) * (len(ops) + 1):
                raise _cycle(store, reader)  # a longer cycle through ops holding stores
            key[_move_after(store, reader, block, order)] = mine
            changed = True
            break


def _followed(start: ktdp.StoreOp, follows: dict[ktdp.StoreOp, set[ktdp.StoreOp]]) -> set:
    """Every store `start` was moved after, directly or through others."""
    seen: set[ktdp.StoreOp] = set()
    work = [start]
    while work:
        for other in follows.get(work.pop(), ()):
            if other not in seen:
                seen.add(other)
                work.append(other)
    return seen


def _cycle(store: ktdp.StoreOp, reader: Operation):
    written = origin_of(reader)
    other = (f"the store of %{written.value.name_hint}" if isinstance(written, ktdp.StoreOp)
             and written.value.name_hint else f"a later {reader.name}")
    return fail(store, NAME, f"not supported yet: this store and {other} each overwrite "
                "memory that a tile both of them read was loaded from (the memories cannot be told apart), so neither can write "
                "after the other's last read; load the tile into its own memory first")


def _move_after(store: ktdp.StoreOp, reader: Operation, block: Block,
                order: dict[Operation, int]) -> ktdp.StoreOp:
    """Write `store`'s value after `reader`: a copy of a computed value made there (or
    just before the store if that is later) and the store after it (returned)."""
    at = max(order[reader], order[store])
    for op in list(block.ops)[order[store] + 1:at + 1]:
        if isinstance(op, (ktdp.LoadOp, ktdp.StoreOp)) and tiles_may_overlap(op.tile, store.tile):
            raise fail(store, NAME, "not supported yet: a store that overwrites a loaded tile "
                       "before its last read, with another access of that memory in between")
    value = store.value
    made: list[Operation] = []
    if not isinstance(value.owner, ktdp.LoadOp):
        ttype = value.type
        assert isinstance(ttype, TensorType)
        empty = empty_like(ttype)
        copy = parallel_generic([value], [AffineMap.identity(ttype.get_num_dims())],
                                empty.tensor, ttype, lambda args: ([], args[0]))
        copy.res[0].name_hint = f"{value.name_hint or 'value'}_late"
        made = [empty, copy]
        note_origin(made, store)
        value = copy.res[0]
    moved = ktdp.StoreOp.create(operands=[value, store.tile],
                                properties=dict(store.properties),
                                attributes=dict(store.attributes))
    note_origin([moved], store)
    anchor = list(block.ops)[at]
    if anchor is store:
        Rewriter.insert_op([*made, moved], InsertPoint.before(store))
    else:
        Rewriter.insert_op([*made, moved], InsertPoint.after(anchor))
    Rewriter.erase_op(store)
    return moved


def _blocks(op: Operation):
    for region in op.regions:
        for block in region.blocks:
            yield block
            for inner in block.ops:
                yield from _blocks(inner)


@dataclass(frozen=True)
class StoresAfterReads(ModulePass):
    """Move each store that would overwrite a loaded tile before its last read after it."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for block in list(_blocks(fn)):
                _order_block(block)
