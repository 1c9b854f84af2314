"""Inter-tile communication state: which tiles produce/consume in which group, and the
partials produced so far, keyed by (produce op, its execution count on the tile, group)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.ir.affine.affine_set import AffineSet

from emulator.reference import affine_sets


@dataclass(frozen=True)
class Future:
    """The value of `ktdp.inter_tile_produce` on one tile: names the exchange slot."""

    op: Operation
    instance: int


class Exchange:
    def __init__(self, num_tiles: int):
        self.num_tiles = num_tiles
        self.partials: dict[tuple[Operation, int, int], dict[int, list]] = {}
        self._members = lru_cache(maxsize=None)(self._members_uncached)
        self._groups = lru_cache(maxsize=None)(self._groups_uncached)

    def groups(self, groups_set: AffineSet) -> list[int]:
        return self._groups(groups_set)

    def _groups_uncached(self, groups_set: AffineSet) -> list[int]:
        points, _, _, _ = affine_sets.points_in_order(groups_set, [], AffineMap.identity(1))
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

    def get(self, op: Operation, instance: int, group: int, tile: int):
        return self.partials.get((op, instance, group), {}).get(tile)

    def members_of_local(self, dependency: AffineSet, producer_rank: int, consumer_rank: int) -> bool:
        """Does `affine_set<(p)[c]>` pair producer rank p with consumer rank c?"""
        point = np.asarray([[producer_rank]], dtype=np.int64)
        return bool(affine_sets.contains(dependency, point, [consumer_rank])[0])
