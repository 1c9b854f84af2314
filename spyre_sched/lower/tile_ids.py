"""The compute tile id on every core, as forms the lowering can split into per-core parts.

Compute tile t runs on core t. A kernel over a multi-dimensional grid `[n0, n1, ...]` asks
for its coordinates (`%r, %c = ktdp.get_compute_tile_id : index, index`); KTIR numbers the
tiles with the first grid dimension varying fastest (the reference interpreter and the
polyhedral layer agree): coordinate k of tile t is `(t // (n0 * ... * n(k-1))) mod nk`.
Each coordinate is a per-core constant, so the unit looks it up in a per-core map
(`uniform.query_map`) like any other value that differs between cores.
"""

from __future__ import annotations

from spyre_sched.dialects import ktdp
from spyre_sched.errors import UnsupportedError
from spyre_sched.lower.values import Form


def tile_coordinates(grid: tuple[int, ...], tile: int) -> tuple[int, ...]:
    """Tile `tile`'s coordinate along each grid dimension (first dimension fastest)."""
    coords = []
    for n in grid:
        coords.append(tile % n)
        tile //= n
    return tuple(coords)


def tile_id_forms(op: ktdp.GetComputeTileIdOp, num_tiles: int, where: str) -> list[Form]:
    """One form per result of `op`: the linear id, or one coordinate per grid dimension,
    each a constant per core."""
    if len(op.ids) == 1:
        return [Form.constant(tuple(range(num_tiles)))]
    grid = ktdp.enclosing_grid(op)
    if grid is None or len(grid) != len(op.ids):
        raise UnsupportedError(
            f"lowering: ktdp.get_compute_tile_id has {len(op.ids)} results but the program's "
            f"grid is {list(grid) if grid else None}", where)
    size = 1
    for n in grid:
        size *= n
    if size != num_tiles:
        raise UnsupportedError(f"lowering: the program's grid {list(grid)} has {size} tiles, "
                               f"the kernel {num_tiles}", where)
    coords = [tile_coordinates(grid, t) for t in range(num_tiles)]
    return [Form.constant(tuple(c[axis] for c in coords)) for axis in range(len(grid))]
