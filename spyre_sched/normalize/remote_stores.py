"""Normal-form pass `mark-remote-stores`: a view of a named core's scratchpad (`ct_local,
ct_id`, or a core per tile: `ktdf.owner_by_tile`) that some tile of another core stores
through is marked `ktdf.stored_from_other_cores`.

The scheduler routes a store by its view: into the executing core's scratchpad, or into
a named one by its owner alone (a tile 0 that fills core 0's scratchpad under `t == 0`),
the route of any store into the scratchpad; into another core's, the result lands in the
storing core's own scratchpad first and then crosses the interconnect (one more stage).
Which tiles run a store is the polyhedral model's question (its enclosing conditions on
the tile id included), asked here once the normal form has settled every view.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import BoolAttr, ModuleOp
from xdsl.passes import ModulePass

from spyre_sched.dialects import ktdf
from spyre_sched.normalize.common import kernel_of
from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.views import ViewModel

NAME = "mark-remote-stores"


def _stored_from_other_cores(model: KernelModel, access: AccessModel) -> bool:
    view = access.view
    if access.kind != "store" or not isinstance(view, ViewModel):
        return False
    memory = view.memory
    if memory.space != "ct_local" or memory.core is None:
        return False
    return any(memory.resolve(t).core != t for t in model.tiles_running(access))


@dataclass(frozen=True)
class MarkRemoteStores(ModulePass):
    """Views of a named scratchpad that other cores store into -> marked."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            if not any(o.name == "ktdp.construct_memory_view"
                       and getattr(o.memory_space, "tile", None) is not None
                       for o in fn.walk()):
                continue
            model = KernelModel(fn)
            for access in model.accesses:
                if _stored_from_other_cores(model, access):
                    access.view.op.attributes[ktdf.STORED_FROM_OTHER_CORES_ATTR] = BoolAttr.from_bool(True)
