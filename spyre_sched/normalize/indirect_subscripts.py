"""Normal-form pass `simplify-indirect-subscripts`: a subscript of an indirect access tile
(direct, or of an index tensor) written with `floordiv` / `mod` of its variables becomes
the linear expression it equals over the variables' box.

A producer that linearises and splits again (`(%page * 64 + %lane) floordiv 64,
(%page * 64 + %lane) mod 64` for a 2 x 64 box) writes subscripts that are quasi-affine
but, over the box the variables range over, equal linear ones (`%page`, `%lane`). The
gather machinery addresses linear subscripts; isl's `gist` of the subscript over the box
(outer values free) finds the linear expression when there is one
(`polyhedral/linear_over_box.py`). A subscript that stays quasi-affine over the box is
refused by the legality check, before this pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import kernel_of
from spyre_sched.polyhedral.linear_over_box import linear_subscript

NAME = "simplify-indirect-subscripts"


def _simplified(m: AffineMap, domain, keep=()) -> AffineMap:
    """`m` with each result not in `keep` replaced by the linear one it equals over
    `domain`, where it has one."""
    return AffineMap(m.num_dims, m.num_symbols, tuple(
        e if k in keep else linear_subscript(e, domain, m.num_symbols) or e
        for k, e in enumerate(m.results)))


def _simplify(tile: ktdp.ConstructIndirectAccessTileOp) -> None:
    if tile.tile_symbols:
        return  # (a box of run-time extent: the legality check refuses it)
    domain = tile.variables_space_set.data
    ind = tile.ind_dims.get_values()
    # (an `ind` result of dim_map stands for the index tensor's value)
    dim_map = _simplified(tile.dim_map.data, domain, {k for k, j in enumerate(ind) if j >= 0})
    if dim_map != tile.dim_map.data:
        tile.properties["dim_map"] = AffineMapAttr(dim_map)
    maps = [AffineMapAttr(_simplified(attr.data, domain)) for attr in tile.index_maps.data]
    if maps != list(tile.index_maps.data):
        tile.properties["index_maps"] = ArrayAttr(maps)


@dataclass(frozen=True)
class SimplifyIndirectSubscripts(ModulePass):
    """Quasi-affine subscripts of indirect access tiles -> the linear ones they equal."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for tile in [o for o in fn.walk() if isinstance(o, ktdp.ConstructIndirectAccessTileOp)]:
                _simplify(tile)
