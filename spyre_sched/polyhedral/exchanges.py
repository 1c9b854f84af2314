"""Inter-tile exchanges as plain data: who must send what to whom.

For every `ktdp.inter_tile_consume` and `ktdp.inter_tile_reduce` of a kernel, per group
of its future: the producer tiles (those with `(i)[g]` in the produce op's
`producer_tiles_per_group`), the consumer tiles (the same with the consumer's set), and
for each consumer the producers whose partials it needs: one for a consume (the group's
only producer, or the one `producer_dependency_per_consumer` pairs with the consumer's
rank), all of them for a reduce. `bytes` is the size of one partial (every value the
produce op yields), `executions` how often each tile runs the consumer (and the
producer) op: the product of its enclosing loops' trip counts.

The reference interpreter (emulator/reference/exchange.py) gives these sets their
meaning; this module answers the same set questions for the compiler side (the roofline),
which may not import the emulator.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Operation
from xdsl.ir.affine.affine_set import AffineSet

import numpy as np

from spyre_sched.dialects.ktdp import (
    InterTileConsumeOp,
    InterTileProduceOp,
    InterTileReduceOp,
    TileFutureType,
)
from spyre_sched.errors import UnsupportedError
from spyre_sched.polyhedral.iterations import iterations
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.point_sets import box_bounds, contains
from spyre_sched.polyhedral.views import element_bytes


@dataclass(frozen=True)
class Exchange:
    """One consumer op's group: each consumer tile and the producer tiles it needs."""

    op: Operation  # the consume or reduce
    group: int
    producers: tuple[int, ...]
    needs: dict[int, tuple[int, ...]]  # consumer tile -> producers whose partial it needs
    bytes: int  # one partial
    executions: dict[int, int]  # tile -> times it runs the consumer op
    produced: dict[int, int]  # producer tile -> times it runs the produce op


def partial_bytes(future: TileFutureType) -> int:
    total = 0
    for t in future.partial_types.data:
        if isinstance(t, ShapedType):
            total += int(np.prod(t.get_shape(), dtype=np.int64)) * element_bytes(t.element_type)
        else:
            total += element_bytes(t)
    return total


def members(tiles_per_group: AffineSet, group: int, num_tiles: int) -> list[int]:
    """Tile ids i in [0, num_tiles) with (i)[group] in the set, ascending."""
    ids = np.arange(num_tiles, dtype=np.int64)[:, None]
    return [int(i) for i in np.nonzero(contains(tiles_per_group, ids, [group]))[0]]


def _groups(future: TileFutureType) -> list[int]:
    bounds = box_bounds(future.groups.data, [])
    if bounds is None:
        raise UnsupportedError(f"the group set {future.groups.data} of a tile future is "
                               "not bounded")
    (lo, hi), = bounds
    candidates = np.arange(lo, hi + 1, dtype=np.int64)[:, None]
    return [int(g) for g in candidates[contains(future.groups.data, candidates, [])][:, 0]]


def _executions(model: KernelModel, op: Operation, tile: int) -> int:
    loops = model.values.enclosing_loops(op)
    return sum(1 for _ in iterations(model.values, loops, model.default_env(tile)))


def exchanges(model: KernelModel, op: InterTileConsumeOp | InterTileReduceOp) -> list[Exchange]:
    """Every group of `op`'s future, with what each of its consumer tiles needs."""
    produce = op.future.owner
    if not isinstance(produce, InterTileProduceOp):
        raise UnsupportedError(f"{op.name}: its future does not come from "
                               "ktdp.inter_tile_produce in this kernel")
    future = produce.result.type
    assert isinstance(future, TileFutureType)
    count = model.tile_count
    nbytes = partial_bytes(future)
    found = []
    for group in _groups(future):
        producers = members(produce.producer_tiles_per_group.data, group, count)
        consumers = members(op.consumer_tiles_per_group.data, group, count)
        if not consumers:
            continue
        needs: dict[int, tuple[int, ...]] = {}
        for rank, tile in enumerate(consumers):
            if isinstance(op, InterTileReduceOp):
                needs[tile] = tuple(producers)
                continue
            dep = op.producer_dependency_per_consumer
            if dep is None:
                needs[tile] = tuple(producers[:1]) if len(producers) == 1 else ()
                continue
            ranks = np.arange(len(producers), dtype=np.int64)[:, None]
            chosen = np.nonzero(contains(dep.data, ranks, [rank]))[0]
            needs[tile] = (producers[int(chosen[0])],) if len(chosen) == 1 else ()
        found.append(Exchange(
            op, group, tuple(producers), needs, nbytes,
            {t: _executions(model, op, t) for t in consumers},
            {p: _executions(model, produce, p) for p in producers}))
    return found


@dataclass(frozen=True)
class Route:
    """Consumer tiles that combine (a reduce, in ascending producer order from the
    identity) or read (a consume) the partials of the same producer tiles, `sources`."""

    consumers: tuple[int, ...]
    sources: tuple[int, ...]


@dataclass(frozen=True)
class ExchangePlan:
    """How one consume or reduce is scheduled: one route per distinct set of producers a
    consumer tile needs (one route: every consumer needs the same partials), each
    partial stored in its producer's scratchpad before any is read."""

    op: Operation
    groups: tuple[int, ...]
    routes: tuple[Route, ...]

    @property
    def uniform(self) -> bool:
        """Every consumer tile needs the same producers' partials."""
        return len(self.routes) == 1


class ExchangeRefused(Exception):
    """An exchange this version cannot schedule ("not supported yet: ...") or one that can
    never complete (a consumer waiting for a partial no tile produces)."""

    def __init__(self, message: str, op: Operation):
        super().__init__(message)
        self.message = message
        self.op = op


def plan_exchange(model: KernelModel, op: InterTileConsumeOp | InterTileReduceOp) -> ExchangePlan:
    produce = op.future.owner
    found = exchanges(model, op)
    if not found:
        raise ExchangeRefused(f"{op.name}: no tile of the grid is a consumer in any group "
                              "(the exchange does nothing)", op)
    needs: dict[int, tuple[int, ...]] = {}
    for ex in found:
        waiting = sorted(t for t, need in ex.needs.items() if not need)
        if not ex.producers or waiting:
            tiles = sorted(ex.needs) if not ex.producers else waiting
            raise ExchangeRefused(
                f"deadlock: tile(s) {', '.join(map(str, tiles))} wait in {op.name} for a "
                f"partial of group {ex.group} that no tile produces (the group's producer "
                f"tiles: {', '.join(map(str, ex.producers)) or 'none'})", op)
        for tile, need in sorted(ex.needs.items()):
            for producer in need:
                runs, made = ex.executions[tile], ex.produced[producer]
                if runs > made:
                    raise ExchangeRefused(
                        f"deadlock: tile {tile} runs {op.name} {runs} times but tile "
                        f"{producer} produces its partial of group {ex.group} {made} "
                        f"time(s): tile {tile} waits forever in execution {made + 1} for "
                        f"a partial of tile {producer}", op)
            if tile in needs:
                raise ExchangeRefused(f"tile {tile} is a consumer of {op.name} in several "
                                      "groups; a consumer receives from one group", op)
            needs[tile] = need
        # In a loop the k-th consume reads the k-th partial; the slot a partial waits in
        # holds one, so producer and consumers must run in step: in one loop body.
        runs = {*ex.executions.values(), *ex.produced.values()}
        if len(runs) > 1 or (runs != {1} and produce.parent_block() is not op.parent_block()):
            raise ExchangeRefused(
                "not supported yet: inter-tile communication whose producer and consumer "
                "run a different number of times or in different loop bodies (each "
                "partial is read before the next is produced)", op)
    block = produce.body.block
    if block.args and block.args[0].uses and len(_groups(produce.result.type)) > 1:
        raise ExchangeRefused("not supported yet: a produce body that uses its group id, "
                              "over several groups", produce)
    for value in block.last_op.operands if block.last_op else ():
        if not isinstance(value.type, ShapedType):
            raise ExchangeRefused("not supported yet: a scalar partial (yield a tensor)", produce)
    by_sources: dict[tuple[int, ...], list[int]] = {}
    for tile, need in sorted(needs.items()):
        by_sources.setdefault(need, []).append(tile)
    routes = tuple(Route(tuple(tiles), sources)
                   for sources, tiles in sorted(by_sources.items(), key=lambda kv: kv[1][0]))
    return ExchangePlan(op, tuple(ex.group for ex in found), routes)
