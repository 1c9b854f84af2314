"""Normal-form pass `mark-masked-views`: a view some access tile sticks out of is marked
`ktdf.masked`.

KTIR masks the positions of an access tile outside its view's coordinate set (a fixed
1024-element tile over a view of `n` elements: loads read zeros there, stores skip them;
docs/ktir.md, "Masked accesses"). The schedule moves whole tiles of data, so the
transfers between such a view and a scratchpad must be masked where the box leaves the
set. Whether it can leave it depends on the tile, the loop iteration and the run-time
sizes, so the mark only says that it may; the lowering then carries the view's set, with
the box's origin and the view's sizes as launch-time values, on every transfer of the
view (`agen.composite_load_and_store ... clip(...)`). Views no tile sticks out of are left
as they are, and their transfers unmasked.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.passes import ModulePass

from spyre_sched.dialects.ktdf import MASKED_VIEW_ATTR
from spyre_sched.errors import UnsupportedError
from spyre_sched.normalize.common import kernel_of
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.out_of_bounds import find_out_of_bounds
from spyre_sched.polyhedral.views import ViewModel
from spyre_sched.schedule.common import fail

NAME = "mark-masked-views"


@dataclass(frozen=True)
class MarkMaskedViews(ModulePass):
    """Mark every view some exactly modelled access tile may stick out of."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            try:
                model = KernelModel(fn)
            except UnsupportedError as err:
                raise fail(getattr(err, "op", None) or fn, NAME, err.message) from None
            for access in model.accesses:
                if not access.exact or find_out_of_bounds(access) is None:
                    continue
                if not isinstance(access.view, ViewModel) or access.indirect_dims:
                    raise fail(access.op, NAME, "not supported yet: masked accesses through a "
                               "distributed or indirect view")
                access.view.op.attributes[MASKED_VIEW_ATTR] = UnitAttr()
