"""Which memories a compute tile's accesses touch, split into one piece per memory.

An access through a distributed view touches the part (and so the memory: device memory
or a given core's scratchpad) that holds each coordinate; a tile reading rows that
straddle two scratchpads gets two pieces. `ct_local` without `ct_id` is the executing
tile's own scratchpad.

An indirect access tile reads some coordinates from an index tensor at run time; its
pieces are over-approximated (`Piece.exact` False): every coordinate of the view whose
other (affine) dims the tile's instances produce, i.e. the whole view along the gathered
dims. A scheduler placing data for it must place all of that.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spyre_sched.dialects.ktdp import ConstructIndirectAccessTileOp
from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.iterations import iterations
from spyre_sched.polyhedral.point_sets import contains, enumerate_points, eval_affine_exprs
from spyre_sched.polyhedral.footprint import access_points
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.views import MemoryRef


@dataclass(frozen=True)
class Piece:
    access: AccessModel
    tile: int
    part: int  # index of the view part (0 for a plain view)
    memory: MemoryRef  # resolved: ct_local(own) becomes the tile's core
    points: np.ndarray  # (N, rank) coordinates in this memory
    lo: tuple[int, ...]
    hi: tuple[int, ...]
    #: element address range [first, last] in the memory (pointer-relative for views on
    #: a pointer argument; run-time sizes at the values of `env`)
    addresses: tuple[int, int]
    #: False for an indirect tile: `points` is every coordinate it may touch
    exact: bool = True

    @property
    def elements(self) -> int:
        return int(self.points.shape[0])

    @property
    def remote(self) -> bool:
        """A scratchpad that is not the executing tile's own."""
        return self.memory.space == "ct_local" and self.memory.core != self.tile

    def __str__(self) -> str:
        box = " x ".join(f"[{l}, {h}]" for l, h in zip(self.lo, self.hi))
        return f"tile {self.tile} {self.access.kind} {box} from {self.memory}"


def pieces(model: KernelModel, access: AccessModel, tile: int,
           env: dict[str, int] | None = None) -> list[Piece]:
    """The pieces of `access` for compute tile `tile` (all loop iterations, unless bound);
    over-approximated for an indirect tile (see the module docstring)."""
    e = model.default_env(tile)
    e.update(env or {})
    if access.exact:
        pts = access_points(model, access, tile, env)
    else:
        pts = indirect_points(model, access, tile, env)
    result = []
    remaining = np.ones(len(pts), dtype=bool)
    for k, part in enumerate(access.view.parts):
        mask = remaining & contains(part.coordinate_set, pts, part.symbol_values(e))
        if len(access.view.parts) == 1:
            mask = remaining.copy()  # a plain view: every point is its (bounds are checked apart)
        remaining &= ~mask
        sub = pts[mask]
        if len(sub) == 0:
            continue
        addr = part.address_of(sub, {**e, **{v.name: 0 for v in part.root}})
        addresses = (int(addr.min()), int(addr.max()))
        result.append(Piece(access, tile, k, part.memory.resolve(tile), sub,
                            tuple(int(x) for x in sub.min(axis=0)),
                            tuple(int(x) for x in sub.max(axis=0)), addresses,
                            exact=access.exact))
    return result


def indirect_points(model: KernelModel, access: AccessModel, tile: int,
                    env: dict[str, int] | None = None) -> np.ndarray:
    """Every coordinate an indirect access may touch in `tile`: the view's coordinates
    whose affine (not gathered) dims take a value some instance gives them; sorted."""
    op = access.tile_op
    assert isinstance(op, ConstructIndirectAccessTileOp)
    e = model.default_env(tile)
    e.update(env or {})
    e[model.values.tile.name] = tile
    chunks = [enumerate_points(part.coordinate_set, part.symbol_values(e))
              for part in access.view.parts]
    view_pts = np.unique(np.concatenate(chunks), axis=0)
    direct = [k for k in range(access.rank) if k not in access.indirect_dims]
    if not direct or not len(view_pts):
        return view_pts
    exprs = [op.dim_map.data.results[k] for k in direct]
    values = model.values
    produced = []
    for inst in iterations(values, access.loops, e):
        outer = access._eval([values.expr(v) for v in op.outer], inst)
        syms = access._eval([values.expr(v) for v in op.tile_symbols], inst)
        qs = enumerate_points(op.variables_space_set.data, syms)
        if len(qs):
            produced.append(eval_affine_exprs(exprs, qs, outer))
    if not produced:
        return view_pts[:0]
    wanted = {tuple(row) for row in np.unique(np.concatenate(produced), axis=0).tolist()}
    keep = np.fromiter((tuple(row) in wanted for row in view_pts[:, direct].tolist()),
                       dtype=bool, count=len(view_pts))
    return view_pts[keep]


def tile_pieces(model: KernelModel, tile: int,
                env: dict[str, int] | None = None) -> list[Piece]:
    """Every piece of every access of one compute tile, in program order (indirect
    tiles over-approximated: `Piece.exact`)."""
    return [p for a in model.accesses for p in pieces(model, a, tile, env)]


def all_tile_pieces(model: KernelModel,
                    env: dict[str, int] | None = None) -> dict[int, list[Piece]]:
    """`tile_pieces` for every compute tile of the grid."""
    return {t: tile_pieces(model, t, env) for t in range(model.tile_count)}


def memories_touched(model: KernelModel, tile: int,
                     env: dict[str, int] | None = None) -> list[MemoryRef]:
    seen: list[MemoryRef] = []
    for p in tile_pieces(model, tile, env):
        if p.memory not in seen:
            seen.append(p.memory)
    return seen
