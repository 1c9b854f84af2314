"""Where the parts of a tensor spread over several scratchpads go.

The array passed for a pointer argument is the memory at that pointer
(`spyre_sched.frontend.arguments` states the rule), so the runner places it as one block.
The exception is an argument whose views name different compute tiles' scratchpads (a
distributed tensor): there is no one memory at the pointer, so the caller hands over the
logical tensor over the union of the views' coordinates, and each view places its
elements in the scratchpad it names. Element at global coordinate c of a view is at
`offset + sum((c - min) * stride)`, where `min` is the per-axis minimum of the view's
coordinate set. The layout applies when every view of the argument starts exactly at the
argument and has static sizes, strides and coordinate set.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import BlockArgument
from xdsl.ir.affine.affine_set import AffineSet

from emulator.reference import affine_sets
from spyre_sched.dialects.ktdp import ConstructMemoryViewOp
from spyre_sched.polyhedral.point_sets import bounding_box


@dataclass(frozen=True)
class StridedPart:
    """One view of the argument: its coordinate set, where it starts, its strides."""

    cset: AffineSet
    minimum: tuple[int, ...]
    strides: tuple[int, ...]
    #: the scratchpad (compute tile) the view names, or None (global / the executing tile's)
    tile: int | None = None

    def max_address(self) -> int:
        lo, hi = bounding_box(self.cset, [])
        return int(sum((int(h) - int(m)) * s for h, m, s in zip(hi, self.minimum, self.strides)))


@dataclass(frozen=True)
class ArgumentLayout:
    """The tensor's index 0 is global coordinate `origin`; `parts` place its elements."""

    origin: tuple[int, ...]
    parts: tuple[StridedPart, ...]

    def size(self) -> int:
        """Elements to allocate: one past the largest address any part uses."""
        return max(p.max_address() for p in self.parts) + 1

    def part_addresses(self, part: StridedPart, shape: tuple[int, ...]):
        """(flat tensor indices, element addresses) of the elements `part` holds; an element
        held by several parts (overlapping views) is placed by each."""
        lo, hi = bounding_box(part.cset, [])
        lo = np.maximum(lo, self.origin)
        hi = np.minimum(hi, np.asarray(self.origin) + np.asarray(shape) - 1)
        if np.any(hi < lo):
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        axes = [np.arange(a, b + 1) for a, b in zip(lo, hi)]
        grids = np.meshgrid(*axes, indexing="ij")
        coords = np.stack([g.reshape(-1) for g in grids], axis=1)
        if affine_sets.box_bounds(part.cset, []) is None:
            coords = coords[affine_sets.contains(part.cset, coords, [])]
        local = coords - np.asarray(self.origin)
        index = np.ravel_multi_index(tuple(local.T), shape)
        return index, (coords - np.asarray(part.minimum)) @ np.asarray(part.strides)


def layout_of(func, position: int) -> ArgumentLayout | None:
    """The strided layout of argument `position`, or None when its views do not give one."""
    arg = func.body.block.args[position]
    users = {use.operation for use in arg.uses}
    if any(not isinstance(op, ConstructMemoryViewOp) or op.offset is not arg for op in users):
        return None  # the pointer is offset (per tile, say): a flat block
    parts = []
    for op in func.walk():  # program order, so the layout does not depend on set order
        if op not in users:
            continue
        sizes = op.static_sizes.get_values()
        strides = op.static_strides.get_values()
        cset = op.coordinate_set.data
        if (DYNAMIC_INDEX in sizes or DYNAMIC_INDEX in strides or cset.num_symbols
                or any(s <= 0 for s in strides)):
            return None
        lo, _ = bounding_box(cset, [])
        parts.append(StridedPart(cset, tuple(int(v) for v in lo), tuple(int(s) for s in strides),
                                 op.memory_space.tile))
    if not parts or not isinstance(arg, BlockArgument):
        return None
    if max(p.max_address() for p in parts) >= 2**62:
        return None  # addresses beyond 64 bits: the view itself is reported when it runs
    origin = tuple(int(v) for v in np.min([p.minimum for p in parts], axis=0))
    return ArgumentLayout(origin, tuple(parts))
