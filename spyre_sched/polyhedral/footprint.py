"""Footprint of an access tile: its points, bounding box, density and size.

Concrete: for one compute tile (and given loop iterations, or the union over all of
them when a loop variable is left unbound). Run-time sizes default to their upper bound
(`KernelModel.default_env`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spyre_sched.polyhedral.accesses import AccessModel
from spyre_sched.polyhedral.iterations import iterations
from spyre_sched.polyhedral.kernel_model import KernelModel

STICK_BYTES = 128


@dataclass(frozen=True)
class Footprint:
    points: np.ndarray  # (N, rank) int64, sorted lexicographically (unique)
    lo: tuple[int, ...]  # bounding box, inclusive
    hi: tuple[int, ...]
    element_bytes: int
    sticks: int  # 128-byte sticks touched along the innermost dimension

    @property
    def elements(self) -> int:
        return int(self.points.shape[0])

    @property
    def bytes(self) -> int:
        return self.elements * self.element_bytes

    @property
    def extents(self) -> tuple[int, ...]:
        return tuple(h - l + 1 for l, h in zip(self.lo, self.hi))

    @property
    def is_dense_box(self) -> bool:
        return self.elements > 0 and self.elements == int(np.prod(self.extents))

    def __str__(self) -> str:
        box = " x ".join(f"[{l}, {h}]" for l, h in zip(self.lo, self.hi))
        return (f"{self.elements} elements ({self.bytes} bytes, {self.sticks} sticks) in "
                f"box {box}{' (dense)' if self.is_dense_box else ''}")


def access_points(model: KernelModel, access: AccessModel, tile: int,
                  env: dict[str, int] | None = None) -> np.ndarray:
    """Unique coordinates touched by `access` in `tile` over the unbound loop iterations."""
    base_env = model.default_env(tile)
    base_env.update(env or {})
    base_env[model.values.tile.name] = tile
    chunks = [access.points(e) for e in iterations(model.values, access.loops, base_env)]
    if not chunks:
        return np.zeros((0, access.rank), dtype=np.int64)
    pts = np.concatenate(chunks) if len(chunks) > 1 else chunks[0]
    return np.unique(pts, axis=0) if len(chunks) > 1 else pts[np.lexsort(pts.T[::-1])]


def footprint(model: KernelModel, access: AccessModel, tile: int = 0,
              env: dict[str, int] | None = None, stick_bytes: int = STICK_BYTES) -> Footprint:
    pts = access_points(model, access, tile, env)
    eb = access.view.element_bytes
    if len(pts) == 0:
        zero = tuple(0 for _ in range(access.rank))
        return Footprint(pts, zero, tuple(-1 for _ in zero), eb, 0)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    # Sticks: chunks of `stick_bytes` along the innermost dimension, counted from the
    # view's first column (rows are taken to start on a stick boundary).
    first = _innermost_origin(model, access, tile, env)
    chunk = ((pts[:, -1] - first) * eb) // stick_bytes
    keys = np.column_stack([pts[:, :-1], chunk])
    sticks = int(len(np.unique(keys, axis=0)))
    return Footprint(pts, tuple(int(x) for x in lo), tuple(int(x) for x in hi), eb, sticks)


def _innermost_origin(model, access, tile, env) -> int:
    e = model.default_env(tile)
    e.update(env or {})
    part = access.view.parts[0]
    return int(part.concrete_minima(e)[-1])
