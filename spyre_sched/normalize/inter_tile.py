"""Normal-form pass `lower-inter-tile`: `ktdp.inter_tile_produce` / `inter_tile_consume` /
`inter_tile_reduce` become stores into, and reads of, scratchpads the scheduler already
handles (`spyre_sched/polyhedral/exchanges.py`, `plan_exchange`, says which exchanges).

Each partial gets a slot: a region pinned after everything the kernel itself places in
scratchpads, at the same offset in every core's scratchpad. Every tile stores its partial
into the slot in its own scratchpad (a tile that is no producer stores what it computed
too: nobody reads it, and the code stays one for all tiles); a consumer reads the slots of
the producers it needs from their scratchpads (a read over the interconnect, but for its
own) and, for a reduce, combines them with the kernel's combiner in ascending producer
order starting from the identity, the order the reference interpreter uses, so the result
is the same number. The reads depend on the stores of other tiles, so the scheduler puts
a program boundary between them: every partial is written before any is read.

Consumers of different producers (an all-reduce per group) read through views naming
the core per tile (`ktdf.owner_by_tile`) when every tile is a consumer of as many
producers: one program for all groups. Otherwise each set of consumers reads under a
guard on the tile id, and the orchestrator runs one program per set.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import ModuleOp, ShapedType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.errors import UnsupportedError
from spyre_sched.normalize.common import kernel_of, note_origin
from spyre_sched.polyhedral.exchanges import ExchangeRefused, Route, plan_exchange
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.views import element_bytes
from spyre_sched.normalize.scratchpad_slots import (
    Slot,
    aligned,
    index_constant,
    pinned_end,
    scratchpad_slot,
)
from spyre_sched.schedule.common import fail, tensor_producers

NAME = "lower-inter-tile"

def _inline(block: Block, args: list[SSAValue], at: InsertPoint, origin: Operation
            ) -> list[SSAValue]:
    """Clone `block`'s ops before `at` with its arguments bound to `args`; the values its
    terminator yields."""
    mapping: dict[SSAValue, SSAValue] = dict(zip(block.args, args))
    ops = list(block.ops)
    for op in ops[:-1]:
        clone = op.clone(value_mapper=mapping)
        Rewriter.insert_op(clone, at)
        note_origin([clone], origin)
    return [mapping.get(v, v) for v in ops[-1].operands]


def _chain(values: list[SSAValue]) -> list[Operation]:
    """The ops that compute `values` through tensors, back to (and with) their loads."""
    return tensor_producers([v.owner for v in values if isinstance(v.owner, Operation)])


def _rematerialise(partials: list[SSAValue], stores: list[Operation], at: InsertPoint) -> None:
    """Other users of what the partials are computed from get their own copy (loaded and
    computed again after the partials are stored). Programs follow what stores share:
    without the copy, work after the exchange would join the partials' program, which runs
    after the reads it must precede."""
    chain = _chain(partials)
    if not chain:
        return
    block = chain[0].parent_block()
    inside = set(chain) | set(stores)
    outer = [v for op in chain for v in op.results
             if any(u.operation not in inside for u in v.uses)]
    if not outer or any(op.parent_block() is not block for op in chain):
        return
    ordered = [op for op in block.ops if op in set(chain)]
    mapping: dict[SSAValue, SSAValue] = {}
    for op in ordered:
        clone = op.clone(value_mapper=mapping)
        Rewriter.insert_op(clone, at)
    for value in outer:
        copy = mapping[value]
        for use in list(value.uses):
            if use.operation not in inside:
                use.operation.operands[use.index] = copy


def _member(tile: SSAValue, tiles: tuple[int, ...], count: int, at: InsertPoint
            ) -> SSAValue | None:
    """An i1 that holds on exactly the tiles `tiles` of a `count`-tile grid (None: on all):
    two bounds for a run of consecutive ids, else one equality per tile."""
    ops: list[Operation] = []

    def compare(pred: str, value: int) -> SSAValue:
        c = index_constant(value)
        cmp = arith.CmpiOp(tile, c.result, pred)
        ops.extend([c, cmp])
        return cmp.result

    def combine(kind, a: SSAValue | None, b: SSAValue) -> SSAValue:
        if a is None:
            return b
        both = kind(a, b)
        ops.append(both)
        return both.result

    result: SSAValue | None = None
    lo, hi = tiles[0], tiles[-1]
    if hi - lo + 1 == len(tiles):
        if lo > 0:
            result = compare("sge", lo)
        if hi < count - 1:
            result = combine(arith.AndIOp, result, compare("sle", hi))
    else:
        for t in tiles:
            result = combine(arith.OrIOp, result, compare("eq", t))
    Rewriter.insert_op(ops, at)
    return result


def _lower(fn, produce: ktdp.InterTileProduceOp, model: KernelModel, offset: int) -> int:
    """Rewrite one produce and its consumers; returns the first byte after its slots."""
    users = [u.operation for u in produce.result.uses]
    plans = []
    for user in users:
        if not isinstance(user, (ktdp.InterTileConsumeOp, ktdp.InterTileReduceOp)):
            raise fail(user, NAME, f"not supported yet: a tile future used by {user.name}")
        try:
            plans.append(plan_exchange(model, user))
        except ExchangeRefused as err:
            raise fail(err.op, NAME, err.message) from None
        except UnsupportedError as err:
            raise fail(user, NAME, err.message) from None

    def reserve(ttype: ShapedType) -> int:
        nonlocal offset
        at_bytes = offset
        nbytes = prod(ttype.get_shape()) * element_bytes(ttype.element_type)
        offset += aligned(nbytes)
        return at_bytes

    # the partials, as the producer tiles compute them (the group id bound to the group;
    # a body over several groups does not use it, `plan_exchange` checks)
    at = InsertPoint.before(produce)
    group = index_constant(plans[0].groups[0] if plans else 0)
    Rewriter.insert_op(group, at)
    partials = _inline(produce.body.block, [group.result], at, produce)
    # consumers needing different producers read by owner tables where they can; the
    # others through one view per producer
    tables = [None if plan.uniform else _owner_tables(plan, model.tile_count) for plan in plans]
    every_table = tuple(dict.fromkeys(t for found in tables if found for t in found))
    producers = sorted({p for plan, found in zip(plans, tables) if found is None
                        for route in plan.routes for p in route.sources})
    slots = []
    for value in partials:
        ttype = value.type
        assert isinstance(ttype, ShapedType)
        slots.append(scratchpad_slot(fn, reserve(ttype), ttype, tuple(producers), every_table))
    stores = [ktdp.StoreOp.build(operands=[value, slot.own])
              for value, slot in zip(partials, slots)]
    Rewriter.insert_op(stores, at)
    note_origin(stores, produce)
    for plan, user, table in zip(plans, users, tables):
        here = InsertPoint.before(user)

        def read(core: int | tuple[int, ...], at: InsertPoint) -> list[SSAValue]:
            loads = [ktdp.LoadOp.build(
                operands=[slot.by_tile[core] if isinstance(core, tuple) else slot.tiles[core]],
                result_types=[slot.type]) for slot in slots]
            Rewriter.insert_op(loads, at)
            note_origin(loads, user)
            return [load.result for load in loads]

        def gather(sources: tuple[int | tuple[int, ...], ...], at: InsertPoint) -> list[SSAValue]:
            if isinstance(user, ktdp.InterTileConsumeOp):
                return read(sources[0], at)
            values = list(user.identity)
            for core in sources:  # ascending, from the identity: the reference's order
                values = _inline(user.combiner.block, [*values, *read(core, at)], at, user)
            return values

        reshaped = any(r.type != s.type for r, s in zip(user.results, slots))
        if plan.uniform and not reshaped:
            values = gather(plan.routes[0].sources, here)
        elif table is not None and not reshaped:
            # the k-th producer of each tile's route, read through one view per k
            values = gather(table, here)
        else:
            values = _through_own_slots(fn, user, plan, slots, reserve, gather, model, here,
                                        table)
        for result, value in zip(user.results, values):
            result.replace_all_uses_with(value)
        Rewriter.erase_op(user)
    Rewriter.erase_op(produce)
    _rematerialise(partials, stores, InsertPoint.after(stores[-1]))
    return offset


def _owner_tables(plan, tiles: int) -> tuple[tuple[int, ...], ...] | None:
    """When every tile of the grid is a consumer and every route has as many producers:
    per position k, the k-th (ascending) producer of each tile's route. The consumers
    then all read the same way, each from the cores its table entries name, in one
    program (a guard per route would make one program per route, run one after another).
    None otherwise."""
    route_of = {t: r for r in plan.routes for t in r.consumers}
    widths = {len(r.sources) for r in plan.routes}
    if sorted(route_of) != list(range(tiles)) or len(widths) != 1:
        return None
    return tuple(tuple(route_of[t].sources[k] for t in range(tiles)) for k in range(widths.pop()))


def _through_own_slots(fn, user: Operation, plan, slots: list[Slot], reserve, gather,
                       model: KernelModel, here: InsertPoint,
                       tables: tuple[tuple[int, ...], ...] | None) -> list[SSAValue]:
    """Consumers that need different producers, or a result shaped unlike its partials:
    each route's consumer tiles (under a guard on the tile id; every tile at once when
    the owner `tables` say whom each reads) gather their partials and store the outcome
    in a slot of their own scratchpad; every tile then loads that slot as the result's
    type (the same bytes in row-major order)."""
    outs: list[tuple[Slot, Slot]] = []
    for result, slot in zip(user.results, slots):
        rtype = result.type
        if not isinstance(rtype, ShapedType) or rtype.element_type != slot.type.element_type \
                or prod(rtype.get_shape()) != prod(slot.type.get_shape()):
            raise fail(user, NAME, f"not supported yet: an inter-tile result of type "
                       f"{rtype} from partials of type {slot.type}")
        at_bytes = reserve(slot.type)
        outs.append((scratchpad_slot(fn, at_bytes, slot.type, ()), scratchpad_slot(fn, at_bytes, rtype, ())))
    tile = None
    routes = plan.routes
    if tables is not None:
        routes = (Route(tuple(range(model.tile_count)), tables),)
    elif not plan.uniform:
        tile_op = ktdp.GetComputeTileIdOp()
        Rewriter.insert_op(tile_op, here)
        tile = tile_op.ids[0]
    for route in routes:
        cond = None if tile is None else _member(tile, route.consumers, model.tile_count, here)
        if cond is None:
            values = gather(route.sources, here)
            stores = [ktdp.StoreOp.build(operands=[v, out.own]) for v, (out, _) in zip(values, outs)]
            Rewriter.insert_op(stores, here)
        else:
            body = Block()
            body.add_op(scf.YieldOp())
            values = gather(route.sources, InsertPoint.before(body.last_op))
            stores = [ktdp.StoreOp.build(operands=[v, out.own]) for v, (out, _) in zip(values, outs)]
            Rewriter.insert_op(stores, InsertPoint.before(body.last_op))
            Rewriter.insert_op(scf.IfOp(cond, [], Region(body)), here)
        note_origin(stores, user)
    loads = [ktdp.LoadOp.build(operands=[back.own], result_types=[r.type])
             for r, (_, back) in zip(user.results, outs)]
    Rewriter.insert_op(loads, here)
    note_origin(loads, user)
    return [load.result for load in loads]


@dataclass(frozen=True)
class LowerInterTile(ModulePass):
    """Inter-tile produce/consume/reduce -> pinned scratchpad stores and reads."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            produces = [o for o in fn.walk() if isinstance(o, ktdp.InterTileProduceOp)]
            if not produces:
                continue
            model = KernelModel(fn)
            offset = aligned(pinned_end(fn))
            for produce in produces:
                offset = _lower(fn, produce, model, offset)
