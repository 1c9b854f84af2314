"""Whether two access tiles of one tile's program may touch a common element, told from
the IR alone (no kernel model): the question the passes that keep a store after the reads
of what it overwrites, and the programs in the order of their conflicting accesses, ask.

Two tiles are apart for sure when their views are in different memory spaces or named
cores' scratchpads, are views on different pointer arguments of the kernel (the kernel's
tensors do not overlap, as the lowering also assumes), are scratchpad views at constant
byte ranges that do not meet, or are tiles of one view at constant subscripts whose
bounding boxes do not meet. Anything else may overlap. `memory_key` names the memory a
tile reaches coarsely enough that tiles whose keys do not meet are apart for sure;
`MemoryIndex` files tiles by it, so a pass comparing many tiles with each other compares
only those whose keys meet (a kernel's programs mostly touch tensors of their own, so the
work grows with the tiles, not with their pairs).
"""

from __future__ import annotations

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, MemRefType
from collections.abc import Iterable
from typing import Generic, TypeVar

from xdsl.ir import BlockArgument, Operation, SSAValue

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.ktdf import OWNER_BY_TILE_ATTR
from spyre_sched.polyhedral.point_sets import bounding_box
from spyre_sched.polyhedral.views import element_bytes


def _constant(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _view_of(tile: SSAValue) -> Operation | None:
    owner = tile.owner
    if isinstance(owner, (ktdp.ConstructAccessTileOp, ktdp.ConstructIndirectAccessTileOp)):
        view = owner.view.owner
        return view if isinstance(view, Operation) else None
    return None


def _pointer(value: SSAValue) -> BlockArgument | None:
    """The function argument a device-memory offset is, plus constants (None when it is
    something else)."""
    while not isinstance(value, BlockArgument):
        owner = value.owner
        if not isinstance(owner, arith.AddiOp):
            return None
        if _constant(owner.rhs) is not None:
            value = owner.lhs
        elif _constant(owner.lhs) is not None:
            value = owner.rhs
        else:
            return None
    return value if isinstance(value.owner.parent_op(), func.FuncOp) else None


def _scratchpad_bytes(view: ktdp.ConstructMemoryViewOp) -> tuple[int, int] | None:
    """Bytes [start, end) of its scratchpad a view at a constant offset with static sizes
    and strides spans."""
    first = _constant(view.offset)
    mtype = view.result.type
    if first is None or view.sizes or view.strides or not isinstance(mtype, MemRefType):
        return None
    last = first + sum((s - 1) * abs(d) for s, d in zip(view.static_sizes.get_values(),
                                                       view.static_strides.get_values()))
    width = element_bytes(mtype.element_type)
    return first * width, (last + 1) * width


def _box(tile: SSAValue) -> list[tuple[int, int]] | None:
    """Inclusive bounds per dim of the coordinates a tile at constant subscripts reaches."""
    owner = tile.owner
    if not isinstance(owner, ktdp.ConstructAccessTileOp):
        return None
    indices = [_constant(v) for v in owner.indices]
    symbols = [_constant(v) for v in owner.tile_symbols]
    if any(v is None for v in [*indices, *symbols]):
        return None
    base = owner.base_map.data.eval([], indices)  # type: ignore[arg-type]
    lo, hi = bounding_box(owner.access_tile_set.data, symbols)  # type: ignore[arg-type]
    return [(b + int(a), b + int(z)) for b, a, z in zip(base, lo, hi)]


def tiles_may_overlap(a: SSAValue, b: SSAValue) -> bool:
    """Whether the access tiles `a` and `b` may reach a common element of memory."""
    va, vb = _view_of(a), _view_of(b)
    if not isinstance(va, ktdp.ConstructMemoryViewOp) \
            or not isinstance(vb, ktdp.ConstructMemoryViewOp):
        return True
    if va is vb:
        box_a, box_b = _box(a), _box(b)
        if box_a is None or box_b is None:
            return True
        return all(la <= hb and lb <= ha for (la, ha), (lb, hb) in zip(box_a, box_b))
    sa, sb = va.memory_space, vb.memory_space
    if sa.space != sb.space:
        return False
    if sa.space == "ct_local":
        # a core given per tile (`ktdf.owner_by_tile`) may be any core
        if sa.tile is not None and sb.tile is not None and sa.tile != sb.tile \
                and OWNER_BY_TILE_ATTR not in va.attributes \
                and OWNER_BY_TILE_ATTR not in vb.attributes:
            return False
        span_a, span_b = _scratchpad_bytes(va), _scratchpad_bytes(vb)
        if span_a is None or span_b is None:
            return True
        return span_a[0] < span_b[1] and span_b[0] < span_a[1]
    pa, pb = _pointer(va.offset), _pointer(vb.offset)
    return pa is None or pb is None or pa is pb


#: the key of a tile that may reach any memory
ANY_MEMORY = ("any", None)


def memory_key(tile: SSAValue) -> tuple:
    """(memory space, pointer argument or None): two tiles whose keys differ, neither
    being `ANY_MEMORY` nor naming the same space with None, never overlap
    (`tiles_may_overlap` is False for them). Scratchpad tiles all share one key: their
    byte ranges are compared pairwise."""
    view = _view_of(tile)
    if not isinstance(view, ktdp.ConstructMemoryViewOp):
        return ANY_MEMORY
    space = view.memory_space.space
    if space == "ct_local":
        return (space, None)
    return (space, _pointer(view.offset))



T = TypeVar("T")


class MemoryIndex(Generic[T]):
    """Items filed under the memory key of a tile (`add`); `near(tile)` gives, in filing
    order, every item whose tile may overlap `tile` by their keys (a superset of those
    `tiles_may_overlap` accepts: ask it of each)."""

    def __init__(self) -> None:
        self._by_key: dict[tuple, list[tuple[int, T]]] = {}
        self._by_space: dict[str, list[tuple]] = {}
        self._count = 0

    def add(self, tile: SSAValue, item: T) -> None:
        key = memory_key(tile)
        if key not in self._by_key:
            self._by_key[key] = []
            self._by_space.setdefault(key[0], []).append(key)
        self._by_key[key].append((self._count, item))
        self._count += 1

    def _meeting(self, key: tuple) -> Iterable[tuple]:
        if key == ANY_MEMORY:
            return list(self._by_key)
        anywhere = self._by_space.get(ANY_MEMORY[0], [])
        if key[1] is None:
            return self._by_space.get(key[0], []) + anywhere
        return [k for k in (key, (key[0], None)) if k in self._by_key] + anywhere

    def near(self, tile: SSAValue) -> list[T]:
        found = [entry for key in self._meeting(memory_key(tile))
                 for entry in self._by_key[key]]
        return [item for _, item in sorted(found, key=lambda entry: entry[0])]
