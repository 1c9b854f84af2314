"""Handlers of the ktdp ops: tile ids, views, access tiles, loads/stores, run-time
arguments, and inter-tile produce / consume / reduce."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType

from emulator.reference import affine_sets, error_tracking, views
from emulator.reference.exchange import Future
from emulator.reference.interpreter import Undelivered, handles, op_static
from emulator.reference.tile_scheduler import Wait
from emulator.reference.types import element_name
from spyre_sched.dialects.ktdp import coordinates_grid
from spyre_sched.errors import ExecutionError
from spyre_sched.polyhedral.point_sets import tile_extents


class RuntimeArg:
    """A `!ktdp.runtime_arg` function argument's launch value and bounds."""

    def __init__(self, value, granularity: int | None, upperbound: int | None):
        self.value, self.granularity, self.upperbound = value, granularity, upperbound


@handles("ktdp.get_compute_tile_id")
def _tile_id(ex, op, vals):
    if len(op.results) == 1:
        return [ex.tile]
    if len(op.results) < len(ex.machine.grid):
        raise ExecutionError(
            f"ktdp.get_compute_tile_id has {len(op.results)} results but the grid "
            f"{list(ex.machine.grid)} has {len(ex.machine.grid)} dimensions (give the "
            "function a `grid` attribute of that rank, or take 1 result: the linear id)")
    coords, rest = [], ex.tile
    for n in coordinates_grid(ex.machine.grid, len(op.results)):
        coords.append(rest % n)
        rest //= n
    return coords


def _view_static(op):
    """What a memory view op says apart from its operands (read once per op)."""
    space_attr = op.memory_space
    # the operand lists too: xDSL finds a variadic operand group through the segment
    # sizes property, tens of microseconds per look-up
    return (op.coordinate_set.data, op.coordinate_set.data.num_symbols,
            [int(s) for s in op.static_sizes.get_values()],
            [int(s) for s in op.static_strides.get_values()],
            space_attr.space, space_attr.tile, element_name(op.result.type),
            tuple(op.sizes), tuple(op.strides), op.offset, _owner_table(op))


def _owner_table(op) -> tuple[int, ...] | None:
    """The core per tile of a view printed after spyre-sched's normal form
    (`ktdf.owner_by_tile`: tile t reaches core table[t]'s scratchpad), else None."""
    owners = op.attributes.get("ktdf.owner_by_tile")
    if owners is None or op.memory_space.tile is None:
        return None
    return tuple(int(c) for c in owners.get_values())


def _merge_values(static: list[int], dynamic) -> list[int]:
    dyn = iter(int(v) for v in dynamic)
    return [next(dyn) if s == DYNAMIC_INDEX else s for s in static]


@handles("ktdp.construct_memory_view")
def _memory_view(ex, op, vals):
    env = ex.env
    (cset, num_symbols, static_sizes, static_strides, kind, core, etype, size_values,
     stride_values, offset_value, table) = op_static(op, _view_static)
    if table is not None:
        if ex.tile >= len(table):
            raise ex.error(op, f"ktdf.owner_by_tile names cores for tiles 0..{len(table) - 1}")
        core = table[ex.tile]
    dyn_sizes = [int(env[v]) for v in size_values]
    # The set's symbols bind to the dynamic sizes, left to right (there may be fewer).
    symbols = dyn_sizes[:num_symbols]
    if kind == "global":
        space = "global"
    else:
        space = core if core is not None else ex.tile
    offset = int(env[offset_value])
    watched = ex.machine.watched.get((space, offset))
    if watched is not None:
        watched.append((cset, symbols))
    sizes = _merge_values(static_sizes, dyn_sizes)
    strides = _merge_values(static_strides, [env[v] for v in stride_values])
    key = (op, offset, tuple(sizes), tuple(strides), tuple(symbols), space)
    view = ex.machine.views.get(key)
    if view is None:
        view = ex.machine.views[key] = views.MemoryView(
            op, offset, sizes, strides, cset, symbols, space, etype)
    return [view]


@handles("ktdp.construct_distributed_memory_view")
def _distributed_view(ex, op, vals):
    parts = []
    for view in vals:
        parts.extend(view.parts)
    return [views.DistributedView(op, parts)]


def _access_tile_static(op):
    return (tuple(op.indices), affine_sets.compiled_map(op.base_map.data),
            tuple(op.tile_symbols), op.view, op.access_tile_set.data, op.access_tile_order.data)


@handles("ktdp.construct_access_tile")
def _access_tile(ex, op, vals):
    env = ex.env
    indices, base_map, tile_symbols, view, tset, order = op_static(op, _access_tile_static)
    base = base_map([int(env[v]) for v in indices])
    symbols = [int(env[v]) for v in tile_symbols]
    checked = op_static(op, _checked_symbols)
    if tuple(symbols) not in checked:
        _check_tile_type(op, tset, symbols, order)
        checked.add(tuple(symbols))
    return [views.AccessTile(op, env[view], base, tset, symbols, order)]


def _checked_symbols(op) -> set:
    """The symbol values whose tile shape was already checked against the type."""
    return set()


def _check_tile_type(op, aset, symbols, order) -> None:
    """The tile's points must take its type's shape; checked before enumerating them (a
    set that does not fit its type may be huge)."""
    want = tuple(op.result.type.get_shape())
    if DYNAMIC_INDEX in want:
        return
    shape = tile_extents(aset, symbols, order)
    if tuple(shape) != want:
        raise ExecutionError(
            f"the access tile has shape {list(shape)} (its set's extents permuted by its "
            f"order) but its type and so the tensor type says {list(want)}"
        )


@handles("ktdp.construct_indirect_access_tile")
def _indirect_access_tile(ex, op, vals):
    env = ex.env
    _check_tile_type(op, op.variables_space_set.data, [int(env[v]) for v in op.tile_symbols],
                     op.variables_space_order.data)
    return [
        views.IndirectAccessTile(
            op, env[op.view], [env[v] for v in op.index_views], [int(env[v]) for v in op.outer],
            [int(env[v]) for v in op.tile_symbols],
        )
    ]


def _load_shape(op) -> tuple[int, ...]:
    return tuple(op.result.type.get_shape())


def _store_shape(op) -> tuple[int, ...]:
    return tuple(op.value.type.get_shape())


@handles("ktdp.load")
def _load(ex, op, vals):
    data = views.load(vals[0], ex.machine.memory)
    _check_shape(op_static(op, _load_shape), data.shape)
    return [data]


def _check_shape(want: tuple[int, ...], shape) -> None:
    if tuple(shape) != want:
        raise ExecutionError(
            f"the access tile has shape {list(shape)} (its set's extents permuted by its "
            f"order) but the tensor type says {list(want)}"
        )


@handles("ktdp.store")
def _store(ex, op, vals):
    data, tile = vals
    resolved = tile.resolve(ex.machine.memory)
    _check_shape(op_static(op, _store_shape), resolved.shape)
    if isinstance(tile, views.IndirectAccessTile):
        twice = tile.repeated()
        if twice is not None:
            raise ExecutionError(
                f"the store through an indirect access tile writes coordinate "
                f"{views._fmt(twice)} more than once: KTIR names no combiner for a scatter, "
                "so its indices must be distinct")
    views.store(tile, np.asarray(data), ex.machine.memory)


@handles("ktdp.runtime_arg_extract")
def _runtime_arg(ex, op, vals):
    arg = vals[0]
    return [int(getattr(arg, op.field.data))]


# ---- inter-tile -----------------------------------------------------------------------


@handles("ktdp.inter_tile_produce", generator=True)
def _produce(ex, op, vals):
    instance = ex.instances[op]
    ex.instances[op] += 1
    exchange = ex.machine.exchange
    producers = op.producer_tiles_per_group.data
    for group in exchange.groups_with(op.result.type.groups.data, producers, ex.tile):
        values = yield from ex.run_block(op.body.block, [group])
        exchange.put(op, instance, group, ex.tile, [_frozen(v) for v in values])
        if ex.errors is not None:
            exchange.put_bounds(op, instance, group, ex.tile,
                                error_tracking.yielded(ex, op.body.block))
    return [Future(op, instance)]


def _frozen(value):
    if isinstance(value, np.ndarray):
        value = value.copy()
        value.flags.writeable = False
    return value


def _my_group(ex, op, future: Future):
    """(group, producers, consumers) for this tile as a consumer, or an Undelivered."""
    exchange = ex.machine.exchange
    consumers_set = op.consumer_tiles_per_group.data
    groups = exchange.groups_with(future.op.result.type.groups.data, consumers_set, ex.tile)
    if not groups:
        return Undelivered(
            f"uses the result of {op.name} at {ex.machine.kernel.location_of(op)}, but tile "
            f"{ex.tile} is a consumer in no group"
        )
    if len(groups) > 1:
        raise ExecutionError(
            f"tile {ex.tile} is a consumer in groups {groups}; a consumer receives from one group"
        )
    group = groups[0]
    producers = exchange.members(future.op.producer_tiles_per_group.data, group)
    consumers = exchange.members(consumers_set, group)
    return group, producers, consumers


def _shaped(values, results):
    out = []
    for value, result in zip(values, results):
        if isinstance(result.type, TensorType) and isinstance(value, np.ndarray):
            value = value.reshape(tuple(result.type.get_shape())).copy()
        out.append(value)
    return out


def _wait_for(ex, op, future: Future, group: int, tiles: list[int]):
    exchange = ex.machine.exchange
    location = ex.machine.kernel.location_of(future.op)

    def missing():
        return [t for t in tiles if exchange.get(future.op, future.instance, group, t) is None]

    def what():
        return (
            f"the partial(s) of tile(s) {missing()} in group {group} of "
            f"ktdp.inter_tile_produce ({location})"
        )

    while missing():
        yield Wait(ex.tile, op, what, lambda: not missing())


@handles("ktdp.inter_tile_consume", generator=True)
def _consume(ex, op, vals):
    future = vals[0]
    mine = _my_group(ex, op, future)
    if isinstance(mine, Undelivered):
        return [mine] * len(op.results)
    group, producers, consumers = mine
    dep = op.producer_dependency_per_consumer
    if dep is not None:
        rank = consumers.index(ex.tile)
        candidates = [
            p for p in range(len(producers))
            if ex.machine.exchange.members_of_local(dep.data, p, rank)
        ]
        if len(candidates) != 1:
            raise ExecutionError(
                f"producer_dependency_per_consumer gives consumer #{rank} (tile {ex.tile}) of "
                f"group {group} {len(candidates)} producers {candidates} among the group's "
                f"{len(producers)}; it must give exactly one"
            )
        source = producers[candidates[0]]
    else:
        if len(producers) != 1:
            raise ExecutionError(
                f"group {group} has {len(producers)} producers {producers}; a consume without "
                "producer_dependency_per_consumer needs exactly one (a broadcast)"
            )
        source = producers[0]
    yield from _wait_for(ex, op, future, group, [source])
    values = ex.machine.exchange.get(future.op, future.instance, group, source)
    if ex.errors is not None:
        bounds = ex.machine.exchange.get_bounds(future.op, future.instance, group, source)
        _bound_results(ex, op.results, bounds, values)
    return _shaped(values, op.results)


@handles("ktdp.inter_tile_reduce", generator=True)
def _reduce(ex, op, vals):
    future, identity = vals[0], vals[1:]
    mine = _my_group(ex, op, future)
    if isinstance(mine, Undelivered):
        return [mine] * len(op.results)
    group, producers, _ = mine
    yield from _wait_for(ex, op, future, group, producers)
    exchange = ex.machine.exchange
    acc = list(identity)
    tracking = ex.errors is not None
    bounds = [ex.errors.get(v) for v in op.identity] if tracking else []
    for tile in producers:  # ascending producer order, from the identity
        partial = exchange.get(future.op, future.instance, group, tile)
        if tracking:
            theirs = exchange.get_bounds(future.op, future.instance, group, tile)
            theirs = theirs or [None] * len(partial)
            error_tracking.bind_block(ex, op.combiner.block, [*bounds, *theirs], lambda e: e)
        acc = ex.run_pure(op.combiner.block, [*acc, *partial], op)
        if tracking:
            bounds = error_tracking.yielded(ex, op.combiner.block)
    if tracking:
        _bound_results(ex, op.results, bounds, acc)
    return _shaped(acc, op.results)


def _bound_results(ex, results, bounds, values) -> None:
    """Give an exchange's results the bounds of the values they were made from (reshaped
    as the results are)."""
    for result, bound, value in zip(results, bounds or [None] * len(results), values):
        if bound is None or not np.any(bound):
            ex.errors.pop(result, None)
        else:
            shape = result.type.get_shape() if isinstance(result.type, TensorType) else ()
            ex.errors[result] = np.broadcast_to(
                np.asarray(bound, dtype=np.float64), np.shape(value)).reshape(shape).copy()
