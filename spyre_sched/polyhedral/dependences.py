"""Which loads read what an earlier store of the same kernel wrote.

A store before a load (in program order) that touches an element the load reads is a
dependence, and every dependence splits the kernel into programs: a load -> compute ->
store pipeline streams its loads ahead of its stores, so a load of what the same kernel
stores must belong to a later program (the intermediate stays where the kernel put it,
e.g. on chip in a ct_local view). `same_tile`: a tile reads back its own write;
`cross_tile`: a tile reads what another tile wrote; tiles run concurrently, so the split
also needs a barrier between the tiles (`needs_barrier`).

A store textually after the load reaches it only in a later iteration of a loop enclosing
both (`loop_carried`); a store before the load in one loop is compared with the load over
all iterations (conservative).

Conservative where the model is blind: an indirect tile's coordinates are over-approximated
(any coordinate of the view), and a store and a load whose elements cannot be compared
(different views of one tensor with dynamic strides, see `unmodelled`) are taken to
depend, with `assumed` saying why.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.overlap import OverlapWitness, find_overlap
from spyre_sched.polyhedral.unmodelled import incomparable


@dataclass(frozen=True)
class Dependence:
    store: AccessModel
    load: AccessModel
    same_tile: OverlapWitness | None
    cross_tile: OverlapWitness | None
    #: the store is after the load in program order and reaches it in a later iteration
    loop_carried: bool = False
    #: why the dependence is assumed rather than shown (the model cannot compare them)
    assumed: str | None = None

    @property
    def splits_kernel(self) -> bool:
        return self.same_tile is not None or self.cross_tile is not None or bool(self.assumed)

    @property
    def needs_barrier(self) -> bool:
        return self.cross_tile is not None or bool(self.assumed)


def find_dependences(model: KernelModel) -> list[Dependence]:
    order = {a.op: k for k, a in enumerate(model.accesses)}
    result = []
    for store in model.stores:
        for load in model.loads:
            earlier = None
            if order[store.op] > order[load.op]:
                # A store after the load in program order reaches it only around a loop
                # enclosing both: from an earlier iteration (loop-carried).
                earlier = _shared_loops(store, load)
                if not earlier:
                    continue
            # Indirect tiles are over-approximated: any element of the view may be read.
            same = find_overlap(store, load, "same", earlier)
            cross = find_overlap(store, load, "different", earlier)
            assumed = None if same or cross else incomparable(store, load)
            if same is not None or cross is not None or assumed is not None:
                result.append(Dependence(store, load, same, cross,
                                         loop_carried=earlier is not None, assumed=assumed))
    return result


def _shared_loops(a: AccessModel, b: AccessModel) -> list:
    """The loops enclosing both accesses, outermost first."""
    shared = []
    for x, y in zip(a.loops, b.loops):
        if x is not y:
            break
        shared.append(x)
    return shared
