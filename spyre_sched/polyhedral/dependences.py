"""Which loads read what an earlier store of the same kernel wrote.

A store before a load (in program order) that touches an element the load reads is a
dependence, and every dependence splits the kernel into programs: a load -> compute ->
store pipeline streams its loads ahead of its stores, so a load of what the same kernel
stores must belong to a later program (the intermediate stays where the kernel put it,
e.g. on chip in a ct_local view). `same_tile`: a tile reads back its own write;
`cross_tile`: a tile reads what another tile wrote; tiles run concurrently, so the split
also needs a barrier between the tiles (`needs_barrier`).

Within a tile, a store instance reaches a load instance when it runs first: a store
textually after the load reaches it only from an earlier iteration of the loops enclosing
both (`loop_carried`); a store textually before the load, from the same or an earlier
iteration (a store in iteration 5 of row 5 does not reach the load of row 5 in iteration 4).
Instances in different tiles are ordered the same way, as if the tiles ran in lock step.

Conservative where the model is blind: an indirect tile's coordinates are over-approximated
(any coordinate of the view), and a store and a load whose elements cannot be compared
(different views of one tensor with dynamic strides, see `unmodelled`) are taken to
depend, with `assumed` saying why.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.overlap import OverlapWitness, find_overlap, sharing_memory
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
    loads = model.loads
    sharing = sharing_memory(model.stores, loads)
    for i, store in enumerate(model.stores):
        # only a load sharing a memory root can overlap (or be incomparable with) it
        for load in (loads[j] for j in sharing[i]):
            shared = shared_loops(store, load) or None
            after = order[store.op] > order[load.op]
            if after and shared is None:
                continue  # a store after the load, no loop around both: never reaches it
            # Indirect tiles are over-approximated: any element of the view may be read.
            same = find_overlap(store, load, "same", shared, strict=after)
            cross = find_overlap(store, load, "different", shared, strict=after)
            assumed = None if same or cross else incomparable(store, load)
            if same is not None or cross is not None or assumed is not None:
                result.append(Dependence(store, load, same, cross,
                                         loop_carried=after, assumed=assumed))
    return result


def shared_loops(a: AccessModel, b: AccessModel) -> list:
    """The loops enclosing both accesses, outermost first."""
    shared = []
    for x, y in zip(a.loops, b.loops):
        if x is not y:
            break
        shared.append(x)
    return shared
