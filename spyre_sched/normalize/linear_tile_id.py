"""Normal-form pass `linear-tile-id`: on a grid of any rank, every tile coordinate is
computed from the linear tile id, so the scheduler meets one spelling of "which tile am I"
(the published scheduler's: the grid numbered along one dimension).

KTIR numbers the tiles of a grid `[n0, n1, ..., nk]` with the first dimension varying
fastest (the reference interpreter, the polyhedral layer and the lowering agree), so
tile t's coordinate along dimension a is `(t / (n0 * ... * n(a-1))) mod na` (the
remainder written `q - (q / n) * n`):

```mlir
%i, %j, %k = ktdp.get_compute_tile_id : index, index, index     // grid = [2, 2, 2]
```
becomes
```mlir
%tile = ktdp.get_compute_tile_id : index
%0 = arith.divui %tile, %c2 : index
%1 = arith.muli %0, %c2 : index
%i = arith.subi %tile, %1 : index
...
%k = arith.divui %tile, %c4 : index
```

The last coordinate needs no remainder (t < n0 * ... * nk), nor does any after which
every dimension has extent 1. More coordinates than the grid has dimensions see it
extended with dimensions of extent 1 (`ktdp.coordinates_grid`), whose coordinate is the
constant 0. The coordinates are per-core
constants, which the lowering folds core by core. The `grid` attribute keeps its shape:
it is the launch's shape, which the bundle records and the runtime checks against the
kernel's; tile t runs on core t whatever the rank.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import kernel_of, note_origin

NAME = "linear-tile-id"


def _coordinates(op: ktdp.GetComputeTileIdOp, grid: tuple[int, ...]) -> list[Operation]:
    """The linear id and the ops computing each grid coordinate from it."""
    linear = ktdp.GetComputeTileIdOp(1)
    made: list[Operation] = [linear]
    tile = linear.ids[0]
    tile.name_hint = "tile"
    stride = 1
    # past the last dimension of more than one tile, the id needs no remainder
    last = max((axis for axis, extent in enumerate(grid) if extent > 1), default=-1)
    for axis, (extent, old) in enumerate(zip(grid, op.ids)):
        value: SSAValue = tile
        if extent == 1:  # the one coordinate of a dimension of extent 1
            zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
            made.append(zero)
            value = zero.result
        elif stride > 1:
            divisor = arith.ConstantOp(IntegerAttr(stride, IndexType()))
            quotient = arith.DivUIOp(value, divisor.result)
            made += [divisor, quotient]
            value = quotient.result
        if axis < last and extent > 1:
            # q mod n as q - (q / n) * n: xDSL counts `arith.remui` as having side
            # effects, which would keep program-split from copying it into the programs
            modulus = arith.ConstantOp(IntegerAttr(extent, IndexType()))
            whole = arith.DivUIOp(value, modulus.result)
            back = arith.MuliOp(whole.result, modulus.result)
            remainder = arith.SubiOp(value, back.result)
            made += [modulus, whole, back, remainder]
            value = remainder.result
        if old.name_hint and value is not tile:
            value.name_hint = old.name_hint
        old.replace_all_uses_with(value)
        stride *= extent
    return made


@dataclass(frozen=True)
class LinearTileId(ModulePass):
    """`%i, %j, ... = ktdp.get_compute_tile_id` -> the coordinates from the linear id."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for tile_id in [o for o in fn.walk() if isinstance(o, ktdp.GetComputeTileIdOp)]:
                grid = ktdp.enclosing_grid(tile_id) or (1,)
                if len(tile_id.ids) == 1 or len(tile_id.ids) < len(grid):
                    continue  # already the linear id (the verifier refuses other counts)
                made = _coordinates(tile_id, ktdp.coordinates_grid(grid, len(tile_id.ids)))
                Rewriter.insert_op(made, InsertPoint.before(tile_id))
                note_origin(made, tile_id)
                Rewriter.erase_op(tile_id)
