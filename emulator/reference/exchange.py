"""Inter-tile communication state: which tiles produce/consume in which group, and the
partials produced so far, keyed by (produce op, its execution count on the tile, group)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from xdsl.ir import Operation
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.ir.affine.affine_set import AffineConstraintExpr, AffineSet

from emulator.reference import affine_sets
from spyre_sched.errors import AnalysisError, ExecutionError


@dataclass(frozen=True)
class Future:
    """The value of `ktdp.inter_tile_produce` on one tile: names the exchange slot."""

    op: Operation
    instance: int


class Exchange:
    def __init__(self, num_tiles: int):
        self.num_tiles = num_tiles
        self.partials: dict[tuple[Operation, int, int], dict[int, list]] = {}
        #: the error bound of each partial value (None: exact), when bounds are tracked
        self.bounds: dict[tuple[Operation, int, int], dict[int, list]] = {}
        self._members = lru_cache(maxsize=None)(self._members_uncached)
        self._groups_with = lru_cache(maxsize=None)(self._groups_with_uncached)

    def groups_with(self, groups_set: AffineSet, tiles_per_group: AffineSet, tile: int) -> list[int]:
        """Groups g of `groups_set` with (tile)[g] in `tiles_per_group`, ascending.

        Enumerated from the two sets' intersection, not group by group: a group set may be
        far larger than the grid (most of its groups then have no tile)."""
        return self._groups_with(groups_set, tiles_per_group, tile)

    def _groups_with_uncached(self, groups_set: AffineSet, tiles_per_group: AffineSet,
                              tile: int) -> list[int]:
        # (i)[g] with i := tile and the symbol g as the one dimension of the group set.
        dims, syms = [AffineExpr.constant(tile)], [AffineExpr.dimension(0)]
        bound = tuple(
            AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(dims, syms),
                                 c.rhs.replace_dims_and_symbols(dims, syms))
            for c in tiles_per_group.constraints
        )
        both = AffineSet(1, 0, tuple(groups_set.constraints) + bound)
        try:
            points, _, _, _ = affine_sets.points_in_order(both, [], AffineMap.identity(1))
        except AnalysisError:
            raise ExecutionError(
                f"tile {tile} is a member of infinitely many groups: neither the group set "
                f"({groups_set}) nor the tiles-per-group set ({tiles_per_group}) bounds g"
            ) from None
        return sorted(int(g) for g in points[:, 0])

    def members(self, tiles_per_group: AffineSet, group: int) -> list[int]:
        """Tile ids i in [0, num_tiles) with (i)[group] in the set, ascending."""
        return self._members(tiles_per_group, group)

    def _members_uncached(self, tiles_per_group: AffineSet, group: int) -> list[int]:
        ids = np.arange(self.num_tiles, dtype=np.int64)[:, None]
        inside = affine_sets.contains(tiles_per_group, ids, [group])
        return [int(i) for i in np.nonzero(inside)[0]]

    def put(self, op: Operation, instance: int, group: int, tile: int, values: list) -> None:
        self.partials.setdefault((op, instance, group), {})[tile] = values

    def put_bounds(self, op: Operation, instance: int, group: int, tile: int, bounds: list) -> None:
        self.bounds.setdefault((op, instance, group), {})[tile] = bounds

    def get_bounds(self, op: Operation, instance: int, group: int, tile: int) -> list:
        return self.bounds.get((op, instance, group), {}).get(tile) or []

    def get(self, op: Operation, instance: int, group: int, tile: int):
        return self.partials.get((op, instance, group), {}).get(tile)

    def members_of_local(self, dependency: AffineSet, producer_rank: int, consumer_rank: int) -> bool:
        """Does `affine_set<(p)[c]>` pair producer rank p with consumer rank c?"""
        point = np.asarray([[producer_rank]], dtype=np.int64)
        return bool(affine_sets.contains(dependency, point, [consumer_rank])[0])
