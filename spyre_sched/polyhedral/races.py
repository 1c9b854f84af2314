"""Races between compute tiles, and whether the stores cover an output exactly.

A write race: two stores (or one store in two tiles) whose instances in *different*
compute tiles write one memory element (see `overlap`). Tiles run concurrently, so the
final value would depend on timing.

A read/write race: a store instance in one tile writes an element that a load instance
in another tile reads, and the store does not come before the load. A store that comes
before the load (in program order, the tiles taken in lock step: see `dependences`) is a
cross-tile dependence, which the kernel is split at with a barrier; anything else is
unordered: the other tile may run ahead and store first, or not. In a scratchpad
(`ct_local`) nothing but the inter-tile ops orders tiles, so there any store and load of
one element in different tiles race; a store program order puts first is reported
(`program_ordered`) but only as a warning, since the compiler's program boundary does
order it. "Not before" means: the
store is textually after the load with no loop around both (every instance pair), or,
within the loops enclosing both, the store's iteration is the load's or a later one (the
same one only when the store is textually after the load).

Coverage: for each view written by a store, the coordinates of the view that no store
instance writes (all tiles, all iterations). An output the kernel leaves partly unwritten
is usually a bug in the work division.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import prod

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.affine_values import MAX_TILES_SPLIT, VariableKind
from spyre_sched.polyhedral.dependences import shared_loops
from spyre_sched.polyhedral.isl_text import conj, make_set, witness
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.overlap import OverlapWitness, find_overlap, sharing_memory
from spyre_sched.polyhedral.views import AnyViewModel


@dataclass(frozen=True)
class WriteRace:
    first: AccessModel
    second: AccessModel
    witness: OverlapWitness

    def __str__(self) -> str:
        w = self.witness
        return (f"tiles {w.tile1} and {w.tile2} both write coordinate "
                f"{list(w.coordinate)} in {w.memory}")


def find_write_races(model: KernelModel) -> list[WriteRace]:
    """Every pair of stores (a store with itself included) racing between tiles."""
    races = []
    stores = model.stores
    sharing = sharing_memory(stores, stores)
    for i, first in enumerate(stores):
        for second in (stores[j] for j in sharing[i] if j >= i):
            if not (first.exact and second.exact):
                continue
            found = find_overlap(first, second, "different")
            if found is not None:
                races.append(WriteRace(first, second, found))
    return races


@dataclass(frozen=True)
class ReadWriteRace:
    load: AccessModel
    store: AccessModel
    #: tile1 / loops1 / coordinate: the load's instance; tile2 / loops2: the store's
    witness: OverlapWitness
    #: a scratchpad store that program order puts before the load: the compiler's program
    #: boundary orders it, KTIR's semantics do not (only inter-tile ops order tiles)
    program_ordered: bool = False

    def __str__(self) -> str:
        w = self.witness
        at = ""
        if w.loops1 or w.loops2:
            def its(loops):
                return ", ".join(f"{k} = {v}" for k, v in loops.items()) or "outside loops"
            at = f" (store at {its(w.loops2)}, load at {its(w.loops1)})"
        return (f"tile {w.tile2} writes coordinate {list(w.coordinate)} in {w.memory}, "
                f"which tile {w.tile1} reads{at}; nothing orders the store before the load")


def find_read_write_races(model: KernelModel) -> list[ReadWriteRace]:
    """Every (load, store) pair whose instances in different tiles touch one element with
    the store not before the load; in program order of the load, then the store."""
    order = {a.op: k for k, a in enumerate(model.accesses)}
    races = []
    stores = model.stores
    sharing = sharing_memory(model.loads, stores)
    for i, load in enumerate(model.loads):
        for store in (stores[j] for j in sharing[i]):
            if not (load.exact and store.exact):
                continue  # listed as not checked (`unmodelled`)
            shared = shared_loops(load, store)
            after = order[store.op] > order[load.op]
            if not shared:
                # a store before the load is a dependence, not a race (but below)
                found = find_overlap(load, store, "different") if after else None
            else:
                # the load's iteration earlier than the store's, or the same one when the
                # store is textually after the load
                found = find_overlap(load, store, "different", shared, strict=not after)
            if found is not None:
                races.append(ReadWriteRace(load, store, found))
            elif _in_scratchpad(load) and _in_scratchpad(store):
                # A scratchpad is no memory program order orders across tiles: only
                # inter-tile ops do. The compiler's program boundary keeps the order, so
                # this one is told apart (`program_ordered`).
                found = find_overlap(load, store, "different")
                if found is not None:
                    races.append(ReadWriteRace(load, store, found, program_ordered=True))
    return races


def _in_scratchpad(access: AccessModel) -> bool:
    return all(part.memory.space == "ct_local" for part in access.view.parts)


@dataclass(frozen=True)
class Coverage:
    view: AnyViewModel
    stores: tuple[AccessModel, ...]
    complete: bool
    #: a coordinate of the view that no store writes (None when complete)
    missing: tuple[int, ...] | None
    #: values of launch-wide variables (run-time sizes) for which `missing` is unwritten
    others: dict[str, int]


def store_coverage(model: KernelModel) -> list[Coverage]:
    """For each view stored through: are all its coordinates written by some instance?"""
    values = model.values
    shared = [v.name for v in values.variables if not v.per_instance]
    instance = [v.name for v in values.variables if v.per_instance]
    by_view: dict[int, tuple[AnyViewModel, list[AccessModel]]] = {}
    for store in model.stores:
        by_view.setdefault(id(store.view), (store.view, []))[1].append(store)
    result = []
    for view, stores in by_view.values():
        if not all(s.exact for s in stores):
            continue
        coords = [f"c{k}" for k in range(view.rank)]
        shared_ctx = values.context(names=set(shared))
        # The view's coordinate set may depend on the tile (a per-tile view): any tile's.
        whole = make_set(shared, coords, conj(
            shared_ctx, _exists(instance, conj(values.context(), view.contains_text(coords)))))
        missing = whole.subtract(_written(values, stores, shared, instance, coords,
                                          shared_ctx))
        if missing.is_empty():
            result.append(Coverage(view, tuple(stores), True, None, {}))
            continue
        point = witness(missing)
        result.append(Coverage(view, tuple(stores), False, tuple(point[c] for c in coords),
                               {n: point[n] for n in shared if n in point and
                                values.variable_named(n).kind.value == "runtime"}))
    return result


def _written(values, stores: list[AccessModel], shared: list[str], instance: list[str],
             coords: list[str], shared_ctx: str):
    """The coordinates some instance's store writes. With few tiles (constant tile-id
    bounds, at most `MAX_TILES_SPLIT` tiles) the union is made tile by tile: isl's
    projection of the tile ids out of one formula, where the kernel splits a linear tile
    id into grid coordinates (floor divisions), can take minutes on a 32-tile 3-D grid,
    while one tile's part has no such division left."""
    tiles = [v for v in values.variables if v.kind is VariableKind.TILE]
    counts = [None if v.lower is None or v.upper is None else v.upper - v.lower + 1
              for v in tiles]
    if tiles and None not in counts and prod(counts) <= MAX_TILES_SPLIT:
        pinned = [" and ".join(f"{v.name} = {k}" for v, k in zip(tiles, point))
                  for point in itertools.product(*(range(v.lower, v.upper + 1)
                                                   for v in tiles))]
    else:
        pinned = ["true"]
    written = None
    for pin in pinned:
        parts = [_exists(instance, conj(values.context(), pin, s.contains_text(coords)))
                 for s in stores]
        part = make_set(shared, coords, conj(shared_ctx, " or ".join(f"({w})" for w in parts)))
        written = part if written is None else written.union(part)
    return written


def _exists(names: list[str], formula: str) -> str:
    return f"exists ({', '.join(names)} : {formula})" if names else formula
