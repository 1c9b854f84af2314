"""How a pointer argument's tensor lies in memory: the layout its memory views describe.

The caller hands over logical tensors; the kernel's views say where each element lives:
element at global coordinate c of a view is at `offset + sum((c - min) * stride)`, where
`min` is the per-axis minimum of the view's coordinate set. So a view with strides
[1, 96] holds its 96x64 tensor column-major, and a view with strides [128, 1] a 64-wide
tensor in 128-element rows. The runner writes inputs and reads outputs through this
layout. A tensor distributed over several scratchpads (views of one argument naming
different `ct_id`s) is placed part by part, each in the scratchpad its view names. The
layout applies when every view of the argument starts exactly at the argument and has
static sizes, strides and coordinate set; otherwise (an offset computed from the
tile id, run-time strides) the tensor is a flat or row-major block, as argument
inference describes it.
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

    def element_addresses(self, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """(flat tensor indices, element addresses) of every element some part holds; an
        element held by several parts (overlapping views) is placed by each."""
        pieces = [self.part_addresses(part, shape) for part in self.parts]
        return (np.concatenate([i for i, _ in pieces]), np.concatenate([a for _, a in pieces]))

    def part_addresses(self, part: StridedPart, shape: tuple[int, ...]):
        """(flat tensor indices, element addresses) of the elements `part` holds."""
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

    def is_row_major(self, shape: tuple[int, ...]) -> bool:
        """True when the tensor is simply stored row-major from address 0."""
        if len(self.parts) != 1:
            return False
        (part,) = self.parts
        c_strides = tuple(int(np.prod(shape[k + 1:])) for k in range(len(shape)))
        bounds = affine_sets.box_bounds(part.cset, [])
        whole = [(o, o + n - 1) for o, n in zip(self.origin, shape)]
        return (part.strides == c_strides and bounds == whole
                and tuple(part.minimum) == tuple(self.origin))


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
