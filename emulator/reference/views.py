"""Run-time values of ktdp's memory views and access tiles, and how loads/stores resolve them.

An access tile resolves (once per tile object) into *segments*: for each memory it touches,
the element addresses of its points in point order. Loads gather and stores scatter those
addresses in one numpy operation each; nothing loops per element.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.ir.affine.affine_set import AffineSet

from emulator.numerics import element_type, from_memory, to_memory
from emulator.reference import affine_sets
from emulator.reference.memory import DeviceMemory
from spyre_sched.polyhedral import point_sets as polyhedral


class AccessFault(Exception):
    """Raised while resolving an access; the interpreter turns it into a located error."""


@dataclass
class MemoryView:
    """`ktdp.construct_memory_view`: a strided window of one memory."""

    op: Operation
    offset: int
    sizes: list[int]
    strides: list[int]
    cset: AffineSet
    symbols: list[int]  # the dynamic sizes, bound to the coordinate set's symbols
    space: object  # "global" or a tile id
    etype: str
    bounds: list[tuple[int, int]] | None = field(init=False)
    origin: list[int] = field(init=False)
    #: (access tile op, tile symbols) -> _BoxPlan or None: what an access tile through
    #: this view resolves to apart from its base, computed once (loops re-build the
    #: tile every iteration with a new base only)
    plans: dict = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self):
        self.bounds = affine_sets.box_bounds(self.cset, self.symbols)
        self.origin = affine_sets.minimum(self.cset, self.symbols)
        self._check_address_range()

    def _check_address_range(self) -> None:
        """Whether every byte address of the view's bounding box fits in 64 bits. Loads
        and stores compute addresses in int64, where an overflow would wrap silently, so
        a view that does not fit (`wide`) has each access's addresses checked exactly
        instead: a huge view read through a small tile still runs."""
        self.wide = False
        if self.bounds is not None:
            box = self.bounds
        else:
            lo, hi = polyhedral.bounding_box(self.cset, list(self.symbols))
            box = list(zip((int(v) for v in lo), (int(v) for v in hi)))
        if any(lo > hi for lo, hi in box):
            return  # an empty view has no addresses
        low, high = self.address_span(box)
        size = element_type(self.etype).size
        self.wide = low * size < -(2**63) or high * size >= 2**63

    def address_span(self, box) -> tuple[int, int]:
        """Lowest and highest element address of a coordinate box, in exact integers."""
        low = high = self.offset
        for (lo, hi), origin, stride in zip(box, self.origin, self.strides):
            ends = ((lo - origin) * stride, (hi - origin) * stride)
            low, high = low + min(ends), high + max(ends)
        return low, high

    def check_fits_64_bits(self, box) -> None:
        """AccessFault unless the addresses of a coordinate box fit 64-bit byte addresses."""
        low, high = self.address_span(box)
        size = element_type(self.etype).size
        if low * size < -(2**63) or high * size >= 2**63:
            raise AccessFault(
                f"the view's element addresses run from {low} to {high} (offset "
                f"{self.offset}, strides {list(self.strides)}): beyond 64-bit byte addresses"
            )

    @property
    def parts(self) -> list[MemoryView]:
        return [self]

    def holds(self, coords: np.ndarray) -> np.ndarray:
        if self.bounds is not None:
            return affine_sets.box_contains(self.bounds, coords)
        return affine_sets.contains(self.cset, coords, self.symbols)

    def addresses(self, coords: np.ndarray) -> np.ndarray:
        if self.wide and len(coords):
            self.check_fits_64_bits(list(zip((int(v) for v in coords.min(axis=0)),
                                             (int(v) for v in coords.max(axis=0)))))
        local = coords - np.asarray(self.origin, dtype=np.int64)
        return self.offset + local @ np.asarray(self.strides, dtype=np.int64)

    def describe(self) -> str:
        return f"coordinate set {self.cset}"


@dataclass
class DistributedView:
    """`ktdp.construct_distributed_memory_view`: a coordinate goes to the first part holding it."""

    op: Operation
    parts: list[MemoryView]

    @property
    def etype(self) -> str:
        return self.parts[0].etype

    def describe(self) -> str:
        return "the union of the coordinate sets " + ", ".join(str(p.cset) for p in self.parts)


@dataclass
class Segment:
    """The points (`select`: indices in point order, None = all) that live in one memory.

    `strided` = (start, shape, element strides) when the points form a non-overlapping
    strided box of that memory: loads/stores then use a numpy strided view, no addresses.
    """

    space: object
    select: np.ndarray | None
    addresses: np.ndarray | None
    strided: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None
    #: the strided box is one run of consecutive elements in C order (a plain slice)
    contiguous: bool = False
    #: a strided box's last element address, when known (else computed from its strides)
    last: int | None = None


def _strided_view(memory: DeviceMemory, seg: Segment, dtype: np.dtype) -> np.ndarray:
    start, shape, strides = seg.strided  # type: ignore[misc]
    if seg.contiguous:
        count = 1
        for n in shape:
            count *= n
        array, base = memory.elements_at(seg.space, dtype, start, start + max(count, 1) - 1)
        return array[start - base:start - base + count].reshape(shape)
    last = start + sum(s * (n - 1) for s, n in zip(strides, shape) if n > 1)
    array, base = memory.elements_at(seg.space, dtype, start, last)
    base = array[start - base:]
    # An axis of extent 1 never moves: its stride (possibly huge) is not used.
    return np.lib.stride_tricks.as_strided(
        base, shape=shape, strides=[s * dtype.itemsize if n > 1 else 0 for s, n in zip(strides, shape)]
    )


def _non_overlapping(shape, strides) -> bool:
    """True when distinct positions of a strided box have distinct addresses (>= 0 strides)."""
    axes = sorted((s, n) for s, n in zip(strides, shape) if n > 1)
    reach = 1
    for s, n in axes:
        if s < reach:
            return False
        reach = s * n
    return all(s >= 0 for s in strides)


@dataclass
class Resolved:
    shape: tuple[int, ...]
    positions: tuple[np.ndarray, ...] | None  # None: dense, points in C order of the tile
    count: int
    segments: list[Segment]


def _fmt(coord) -> str:
    return "(" + ", ".join(str(int(c)) for c in coord) + ")"


def resolve_coords(view, coords: np.ndarray, memory: DeviceMemory,
                   masked: bool = False) -> list[Segment]:
    """Segments for global coordinates (N, rank) of `view`. A coordinate outside the
    view's coordinate set is an AccessFault, or with `masked` (loads and stores through
    access tiles) simply in no segment: a load reads zero there, a store skips it."""
    n = len(coords)
    remaining = None  # indices not yet placed (None: all)
    segments = []
    for part in view.parts:
        sub = coords if remaining is None else coords[remaining]
        if len(sub) == 0:
            break
        inside = part.holds(sub)
        if remaining is None and inside.all():
            chosen, remaining_next = None, np.empty(0, dtype=np.int64)
            addrs = part.addresses(coords)
        else:
            idx = np.arange(n) if remaining is None else remaining
            chosen, remaining_next = idx[inside], idx[~inside]
            addrs = part.addresses(coords[chosen])
        if addrs.size:
            _check_addresses(part, addrs, coords if chosen is None else coords[chosen], memory)
            segments.append(Segment(part.space, chosen, addrs))
        remaining = remaining_next
    if remaining is None:
        remaining = np.arange(n)
    if len(remaining) and not masked:
        bad = coords[remaining[0]]
        raise AccessFault(
            f"coordinate {_fmt(bad)} is outside the view's {view.describe()}"
        )
    return segments


def _check_addresses(part: MemoryView, addrs: np.ndarray, coords, memory: DeviceMemory):
    """AccessFault unless every address is inside the part's memory; `coords` is the
    (N, rank) array of the points or a function giving point i's coordinate."""
    size = element_type(part.etype).size
    limit = memory.nbytes(part.space) // size
    low, high = int(addrs.min()), int(addrs.max())
    if low >= 0 and high < limit:
        return
    bad = int(np.argmax((addrs < 0) | (addrs >= limit)))
    coord = coords(bad) if callable(coords) else coords[bad]
    raise AccessFault(
        f"coordinate {_fmt(coord)} maps to element address {int(addrs[bad])} "
        f"(byte {int(addrs[bad]) * size}), outside {memory.describe(part.space)} "
        f"of {limit * size} bytes"
    )


@dataclass
class _BoxPlan:
    """A box access tile through a box view, everything but its base: shape, strides in
    the tile's order, and (when positions may share addresses) the address offsets."""

    perm: list[int]
    tile_lo: list[int]
    ext: list[int]
    shape: tuple[int, ...]
    count: int
    strides: tuple[int, ...]
    start0: int  # start address = start0 + sum(lo_d * stride_d)
    reach: int  # last address - first address
    non_overlapping: bool
    contiguous: bool  # the points fill [start, start + count) in C order
    offsets: np.ndarray | None  # overlapping strides: per-point address - start
    view_bytes: tuple  # (space, element size) for the memory limit
    #: per view axis: (lowest, highest base) keeping the tile inside the view's box
    base_ranges: tuple[tuple[int, int], ...] = ()
    #: start address = start_at_base0 + sum(base_d * view stride_d)
    start_at_base0: int = 0
    view_strides: tuple[int, ...] = ()
    _limit: int | None = None

    @staticmethod
    def build(view: MemoryView, tbounds, order) -> _BoxPlan:
        perm = affine_sets.permutation_of(order)
        rank = len(perm)
        ext = [max(tbounds[d][1] - tbounds[d][0] + 1, 0) for d in range(rank)]
        shape = tuple(ext[d] for d in perm)
        count = int(np.prod(shape)) if shape else 1
        strides = tuple(view.strides[d] for d in perm)
        start0 = view.offset - sum(view.origin[d] * view.strides[d] for d in range(rank))
        reach = sum(s * (n - 1) for s, n in zip(strides, shape))
        non_overlapping = _non_overlapping(shape, strides)
        expected, contiguous = 1, True
        for s, n in zip(reversed(strides), reversed(shape)):
            if n > 1 and s != expected:
                contiguous = False
            expected *= n
        offsets = None
        if not non_overlapping and count:
            offsets = np.zeros((1,) * len(shape), dtype=np.int64)
            for k, s in enumerate(strides):
                axis = np.arange(shape[k], dtype=np.int64) * s
                offsets = offsets + axis.reshape([-1 if i == k else 1 for i in range(len(shape))])
            offsets = offsets.reshape(-1)
        tile_lo = [lo for lo, _ in tbounds]
        base_ranges = tuple((vlo - tile_lo[d], vhi - tile_lo[d] - ext[d] + 1)
                            for d, (vlo, vhi) in enumerate(view.bounds))
        start_at_base0 = start0 + sum(tile_lo[d] * view.strides[d] for d in range(rank))
        return _BoxPlan(perm, tile_lo, ext, shape, count, strides, start0,
                        reach, non_overlapping, contiguous, offsets,
                        (view.space, element_type(view.etype).size), base_ranges,
                        start_at_base0, tuple(view.strides))

    @property
    def rank(self) -> int:
        return len(self.perm)

    def limit(self, memory: DeviceMemory) -> int:
        if self._limit is None:
            space, size = self.view_bytes
            self._limit = memory.nbytes(space) // size
        return self._limit


@dataclass
class AccessTile:
    """`ktdp.construct_access_tile`: {base + p : p in set}, ordered by `order`."""

    op: Operation
    view: object
    base: list[int]
    tset: AffineSet
    symbols: list[int]
    order: AffineMap
    _resolved: Resolved | None = None

    @property
    def etype(self) -> str:
        return self.view.etype

    def resolve(self, memory: DeviceMemory) -> Resolved:
        if self._resolved is None:
            self._resolved = self._box_fast_path(memory) or self._general(memory)
        return self._resolved

    def _box_plan(self) -> _BoxPlan | None:
        view = self.view
        if not isinstance(view, MemoryView) or view.bounds is None:
            return None
        key = (self.op, tuple(self.symbols))
        try:
            return view.plans[key]
        except KeyError:
            pass
        tbounds = affine_sets.box_bounds(self.tset, self.symbols)
        plan = None if tbounds is None else _BoxPlan.build(view, tbounds, self.order)
        view.plans[key] = plan
        return plan

    def _box_fast_path(self, memory: DeviceMemory) -> Resolved | None:
        plan = self._box_plan()
        if plan is None:
            return None
        view = self.view
        shape, rank = plan.shape, plan.rank
        if plan.count == 0:
            return Resolved(shape, None, 0, [])
        base = self.base
        start = plan.start_at_base0
        for b, (low, high), stride in zip(base, plan.base_ranges, plan.view_strides):
            if b < low or b > high:
                return None  # out of bounds: the general path finds the first bad point
            start += b * stride
        lo = [base[d] + plan.tile_lo[d] for d in range(rank)]
        if view.wide:
            view.check_fits_64_bits([(lo[d], lo[d] + plan.ext[d] - 1) for d in range(rank)])
        strides = plan.strides
        if plan.non_overlapping:
            # Addresses are start + sum(i_k * stride_k): check the two extreme corners.
            end = start + plan.reach
            limit = plan.limit(memory)
            if not (0 <= start < limit and 0 <= end < limit):
                corners = [lo, [lo[d] + plan.ext[d] - 1 for d in range(rank)]]
                _check_addresses(view, np.asarray([start, end]), corners, memory)
            segment = Segment(view.space, None, None, (start, shape, strides), plan.contiguous,
                              end)
            return Resolved(shape, None, plan.count, [segment])
        addr = start + plan.offsets

        def coord_of(i: int) -> list[int]:
            pos = np.unravel_index(i, shape)
            coord = list(lo)
            for k, d in enumerate(plan.perm):
                coord[d] += int(pos[k])
            return coord

        _check_addresses(view, addr, coord_of, memory)
        return Resolved(shape, None, plan.count, [Segment(view.space, None, addr)])

    def _general(self, memory: DeviceMemory) -> Resolved:
        points, positions, shape, dense = affine_sets.points_in_order(
            self.tset, self.symbols, self.order
        )
        coords = points + np.asarray(self.base, dtype=np.int64)
        segments = resolve_coords(self.view, coords, memory, masked=True)
        pos = None if dense else tuple(positions.T)
        return Resolved(shape, pos, len(points), segments)


@dataclass
class IndirectAccessTile:
    """`ktdp.construct_indirect_access_tile`: ind(...) dims read coordinates from index views."""

    op: Operation
    view: object
    index_views: list
    outer: list[int]
    symbols: list[int] = field(default_factory=list)  # bound to variables_space_set's
    _resolved: Resolved | None = None

    @property
    def etype(self) -> str:
        return self.view.etype

    def resolve(self, memory: DeviceMemory) -> Resolved:
        if self._resolved is not None:
            return self._resolved
        op = self.op
        vset = op.variables_space_set.data
        points, positions, shape, dense = affine_sets.points_in_order(
            vset, self.symbols, op.variables_space_order.data
        )
        ind_dims = op.ind_dims.get_values()
        dim_exprs = op.dim_map.data.results
        columns = []
        for k, j in enumerate(ind_dims):
            if j >= 0:
                imap = op.index_maps.data[j].data
                subs = affine_sets.eval_exprs(imap.results, points, self.outer)
                try:
                    columns.append(read_values(self.index_views[j], subs, memory).astype(np.int64))
                except AccessFault as fault:
                    raise AccessFault(f"index tensor #{j}: {fault}") from None
            else:
                columns.append(affine_sets.eval_exprs([dim_exprs[k]], points, self.outer)[:, 0])
        coords = np.stack(columns, axis=1) if columns else np.zeros((len(points), 0), np.int64)
        # A gathered coordinate is data, not a tile overhanging its view: one outside the
        # view's coordinate set is an error, not a masked position (docs/ktir.md).
        try:
            segments = resolve_coords(self.view, coords, memory)
        except AccessFault as fault:
            bad = _first_outside(self.view, coords)
            where = "" if bad is None else (
                f" at point {_fmt(points[bad])} of the variables, from index value(s) "
                + ", ".join(str(int(coords[bad, k])) for k, j in enumerate(ind_dims) if j >= 0))
            raise AccessFault(f"indirect access tile{where}: {fault}") from None
        self.coords = coords
        self._resolved = Resolved(shape, None if dense else tuple(positions.T), len(points), segments)
        return self._resolved

    def repeated(self) -> np.ndarray | None:
        """The first coordinate two points of the (resolved) tile share, or None."""
        coords = getattr(self, "coords", None)
        if coords is None or len(coords) < 2:
            return None
        unique, counts = np.unique(coords, axis=0, return_counts=True)
        return unique[int(np.argmax(counts))] if counts.max() > 1 else None


def _first_outside(view, coords: np.ndarray) -> int | None:
    """Index of the first coordinate no part of `view` holds."""
    inside = np.zeros(len(coords), dtype=bool)
    for part in view.parts:
        inside |= part.holds(coords)
    outside = np.flatnonzero(~inside)
    return int(outside[0]) if len(outside) else None


def read_values(view, coords: np.ndarray, memory: DeviceMemory) -> np.ndarray:
    """Values of `view` at coordinates (N, rank), in point order."""
    segments = resolve_coords(view, coords, memory)
    return _gather(view.etype, segments, len(coords), memory)


def _gather(etype: str, segments: list[Segment], count: int, memory: DeviceMemory):
    et = element_type(etype)
    if len(segments) == 1 and segments[0].select is None:
        seg = segments[0]
        if seg.strided is not None:
            raw = np.array(_strided_view(memory, seg, et.storage_dtype))  # a copy
            return from_memory(et, raw).reshape(-1)
        return from_memory(et, _addressed(memory, seg, et.storage_dtype))
    flat = np.zeros(count, dtype=et.value_dtype)
    for seg in segments:
        raw = _addressed(memory, seg, et.storage_dtype)
        flat[seg.select] = from_memory(et, raw)
    return flat


def _addressed(memory: DeviceMemory, seg: Segment, dtype: np.dtype) -> np.ndarray:
    """The elements a segment with addresses reads, in address order: from the buffer, or
    from an adopted input when every address lies inside it."""
    addresses = seg.addresses
    if not len(addresses) or not memory.adopted(seg.space, 0, memory.nbytes(seg.space)):
        return memory.elements(seg.space, dtype)[addresses]
    array, base = memory.elements_at(seg.space, dtype, int(addresses.min()),
                                     int(addresses.max()))
    return array[addresses - base] if base else array[addresses]


def load(tile, memory: DeviceMemory) -> np.ndarray:
    res = tile.resolve(memory)
    et = element_type(tile.etype)
    lent = _lent_view(et, res, memory)
    if lent is not None:
        return lent
    flat = _gather(tile.etype, res.segments, res.count, memory)
    if res.positions is None:
        return flat.reshape(res.shape)
    data = np.zeros(res.shape, dtype=et.value_dtype)
    data[res.positions] = flat
    return data


def _byte_range(seg: Segment, itemsize: int) -> tuple[int, int]:
    """First and last byte a segment touches (a strided box: its two extreme corners)."""
    if seg.strided is not None:
        start, shape, strides = seg.strided
        last = seg.last
        if last is None:
            last = start + sum(s * (n - 1) for s, n in zip(strides, shape))
        return start * itemsize, (last + 1) * itemsize - 1
    addresses = seg.addresses
    return int(addresses.min()) * itemsize, (int(addresses.max()) + 1) * itemsize - 1


def _lent_view(et, res: Resolved, memory: DeviceMemory) -> np.ndarray | None:
    """The loaded tensor as a read-only view into memory, without a copy, when the tile is
    one strided box of a type stored as its own values (f16, f32, integers); else None.
    The view is lent (see `memory`): a later store over it copies the buffer first."""
    if res.positions is not None or len(res.segments) != 1:
        return None
    seg = res.segments[0]
    if seg.strided is None or seg.select is not None or et.storage_dtype != et.value_dtype:
        return None
    if not memory.can_lend(seg.space):
        return None
    view = _strided_view(memory, seg, et.storage_dtype)
    if view.shape != tuple(res.shape):
        return None
    first, last = _byte_range(seg, et.storage_dtype.itemsize)
    memory.lend(seg.space, first, last, view)
    return view


def store(tile, data: np.ndarray, memory: DeviceMemory) -> None:
    res = tile.resolve(memory)
    et = element_type(tile.etype)
    itemsize = et.storage_dtype.itemsize
    for seg in res.segments:
        if memory.lends(seg.space) and (seg.addresses is None or len(seg.addresses)):
            memory.before_write(seg.space, *_byte_range(seg, itemsize))
    if res.positions is None and len(res.segments) == 1 and res.segments[0].strided is not None:
        # One strided box: converted and written straight into memory, no flat copy.
        seg = res.segments[0]
        target = _strided_view(memory, seg, et.storage_dtype)
        target[...] = to_memory(et, data).reshape(target.shape)
        return
    flat = data.reshape(-1) if res.positions is None else data[res.positions]
    stored = to_memory(et, flat)
    for seg in res.segments:
        if seg.strided is not None:
            _strided_view(memory, seg, et.storage_dtype)[...] = stored.reshape(seg.strided[1])
            continue
        if not len(seg.addresses):
            continue
        # before_write copied any adopted input these addresses reach into the buffer
        target, _ = memory.elements_at(seg.space, et.storage_dtype, int(seg.addresses.min()),
                                       int(seg.addresses.max()))
        target[seg.addresses] = stored if seg.select is None else stored[seg.select]
