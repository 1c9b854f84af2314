"""Write races between compute tiles, and whether the stores cover an output exactly.

A race: two stores (or one store in two tiles) whose instances in *different* compute
tiles write one memory element (see `overlap`). Tiles run concurrently, so the final
value would depend on timing.

Coverage: for each view written by a store, the coordinates of the view that no store
instance writes (all tiles, all iterations). An output the kernel leaves partly unwritten
is usually a bug in the work division.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.isl_text import conj, make_set, witness
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.overlap import OverlapWitness, find_overlap
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
    for i, first in enumerate(stores):
        for second in stores[i:]:
            if not (first.exact and second.exact):
                continue
            found = find_overlap(first, second, "different")
            if found is not None:
                races.append(WriteRace(first, second, found))
    return races


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
        written_parts = [
            _exists(instance, conj(values.context(), s.contains_text(coords))) for s in stores
        ]
        written = make_set(shared, coords, conj(
            shared_ctx, " or ".join(f"({w})" for w in written_parts)))
        missing = whole.subtract(written)
        if missing.is_empty():
            result.append(Coverage(view, tuple(stores), True, None, {}))
            continue
        point = witness(missing)
        result.append(Coverage(view, tuple(stores), False, tuple(point[c] for c in coords),
                               {n: point[n] for n in shared if n in point and
                                values.variable_named(n).kind.value == "runtime"}))
    return result


def _exists(names: list[str], formula: str) -> str:
    return f"exists ({', '.join(names)} : {formula})" if names else formula
