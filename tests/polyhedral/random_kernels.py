"""Small random kernels for the polyhedral layer's brute-force oracles.

A `KernelSpec` is plain data: a 1-D or 2-D grid, up to two nested `scf.for` loops,
views on two pointer arguments (and constant offsets in scratchpads), distributed views
split by rows, and loads / stores through access tiles whose sets are boxes cut by a
random half-plane and an optional stride, with a random order. `spec.text()` prints it
as KTIR; the `Oracle` enumerates every instance and every point in plain Python, with no
islpy and nothing from the layer under test, so the two can be compared.

Element identity (what "the same element" means) follows the layer's documented model:
views on different pointer arguments never alias; views on one pointer (or at constant
offsets in one scratchpad) alias when their addresses `offset + sum((c - min) * stride)`
are equal; a coordinate of a distributed view lives in the first part whose set holds it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from hypothesis import strategies as st

GRIDS = [(1,), (2,), (3,), (4,), (2, 2), (3, 2), (2, 3)]
PAD = 4  # how far outside the tile set's box the brute-force enumeration looks


@dataclass(frozen=True)
class TileSet:
    """{ d : lo <= d <= hi, a . d + c >= 0, d[k] mod m = 0 }"""

    lo: tuple[int, int]
    hi: tuple[int, int]
    cut: tuple[int, int, int] | None  # (a0, a1, c)
    stride: tuple[int, int] | None  # (dim, modulus)

    def holds(self, d0: int, d1: int) -> bool:
        d = (d0, d1)
        if not all(self.lo[k] <= d[k] <= self.hi[k] for k in range(2)):
            return False
        if self.cut is not None and self.cut[0] * d0 + self.cut[1] * d1 + self.cut[2] < 0:
            return False
        if self.stride is not None and d[self.stride[0]] % self.stride[1] != 0:
            return False
        return True

    def points(self) -> list[tuple[int, int]]:
        return [(a, b) for a in range(self.lo[0] - PAD, self.hi[0] + PAD + 1)
                for b in range(self.lo[1] - PAD, self.hi[1] + PAD + 1) if self.holds(a, b)]

    def text(self) -> str:
        parts = []
        for k in range(2):
            parts.append(f"d{k} - {self.lo[k]} >= 0" if self.lo[k] else f"d{k} >= 0")
            parts.append(f"-d{k} + {self.hi[k]} >= 0")
        if self.cut is not None:
            a0, a1, c = self.cut
            parts.append(f"d0 * {a0} + d1 * {a1} + {c} >= 0")
        if self.stride is not None:
            parts.append(f"d{self.stride[0]} mod {self.stride[1]} == 0")
        return f"affine_set<(d0, d1) : ({', '.join(parts)})>"


@dataclass(frozen=True)
class Base:
    """One base coordinate: x * cx + y * cy + i0 * c0 + i1 * c1 + k."""

    cx: int
    cy: int
    cl: tuple[int, int]
    k: int

    def value(self, x: int, y: int, iters: tuple[int, ...]) -> int:
        return (self.cx * x + self.cy * y + self.k
                + sum(c * i for c, i in zip(self.cl, iters)))


@dataclass
class Access:
    kind: str  # "load" | "store"
    view: int  # index into KernelSpec.views
    base: tuple[Base, Base]
    tset: TileSet
    transposed: bool
    depth: int  # how many of the loops enclose it (0, 1, 2)
    position: int = 0  # program order

    def tile_points(self) -> list[tuple[int, int]]:
        """The set's points in the access order (rightmost result of the order fastest)."""
        pts = self.tset.points()
        return sorted(pts, key=(lambda p: (p[1], p[0])) if self.transposed else None)

    def shape(self) -> tuple[int, int]:
        pts = self.tset.points()
        ext = tuple(max(p[k] for p in pts) - min(p[k] for p in pts) + 1 for k in range(2))
        return (ext[1], ext[0]) if self.transposed else ext


@dataclass
class Part:
    """A plain view (or one part of a distributed view)."""

    pointer: int | None  # None: a constant offset in a scratchpad
    memory: str  # "global" | "own" | "core<k>"
    offset: int
    lo: tuple[int, int] = (0, 0)  # coordinate box, inclusive
    hi: tuple[int, int] = (0, 0)
    stride_kind: str = "row"  # "row" | "col" | "padded"
    cut: tuple[int, int, int] | None = None  # an extra half-plane (distributed parts only)

    @property
    def extents(self) -> tuple[int, int]:
        return (self.hi[0] - self.lo[0] + 1, self.hi[1] - self.lo[1] + 1)

    @property
    def strides(self) -> tuple[int, int]:
        r, c = self.extents
        return {"row": (c, 1), "col": (1, r), "padded": (c + 3, 1)}[self.stride_kind]

    def holds(self, c: tuple[int, int]) -> bool:
        if not all(self.lo[k] <= c[k] <= self.hi[k] for k in range(2)):
            return False
        return self.cut is None or self.cut[0] * c[0] + self.cut[1] * c[1] + self.cut[2] >= 0

    def points(self) -> list[tuple[int, int]]:
        return [c for c in itertools.product(range(self.lo[0], self.hi[0] + 1),
                                             range(self.lo[1], self.hi[1] + 1)) if self.holds(c)]

    def address(self, c: tuple[int, int]) -> int:
        s = self.strides
        return self.offset + (c[0] - self.lo[0]) * s[0] + (c[1] - self.lo[1]) * s[1]

    def memory_of(self, tile: int) -> tuple:
        if self.memory == "global":
            return ("global",)
        return ("ct_local", tile if self.memory == "own" else int(self.memory[4:]))

    def set_text(self) -> str:
        parts = []
        for k in range(2):
            parts.append(f"d{k} - {self.lo[k]} >= 0" if self.lo[k] >= 0 else f"d{k} + {-self.lo[k]} >= 0")
            parts.append(f"-d{k} + {self.hi[k]} >= 0")
        if self.cut is not None:
            parts.append(f"d0 * {self.cut[0]} + d1 * {self.cut[1]} + {self.cut[2]} >= 0")
        return f"affine_set<(d0, d1) : ({', '.join(parts)})>"

    def space_text(self) -> str:
        if self.memory == "global":
            return "#ktdp.memory_space<global>"
        if self.memory == "own":
            return "#ktdp.memory_space<ct_local>"
        return f"#ktdp.memory_space<ct_local, ct_id = {self.memory[4:]}>"


@dataclass
class View:
    parts: list[Part]  # one part: a plain view

    @property
    def distributed(self) -> bool:
        return len(self.parts) > 1

    def part_of(self, c: tuple[int, int]) -> int | None:
        for k, p in enumerate(self.parts):
            if p.holds(c):
                return k
        return None


@dataclass
class KernelSpec:
    grid: tuple[int, ...]
    loops: list[tuple[int, int, int]]  # (lb, ub, step), outermost first
    views: list[View]
    accesses: list[Access] = field(default_factory=list)

    @property
    def tiles(self) -> int:
        n = 1
        for g in self.grid:
            n *= g
        return n

    def tile_xy(self, tile: int) -> tuple[int, int]:
        g0 = self.grid[0]
        return (tile % g0, tile // g0) if len(self.grid) > 1 else (tile, 0)

    # ---- KTIR text ---------------------------------------------------------------

    def text(self) -> str:
        lines = ["func.func @k(%P0: index, %P1: index) attributes "
                 f"{{grid = [{', '.join(map(str, self.grid))}]}} {{",
                 "  %c0 = arith.constant 0 : index"]
        if len(self.grid) > 1:
            lines.append("  %x, %y = ktdp.get_compute_tile_id : index, index")
        else:
            lines.append("  %x = ktdp.get_compute_tile_id : index")
            lines.append("  %y = arith.constant 0 : index")
        consts = sorted({v for lb, ub, s in self.loops for v in (lb, ub, s)}
                        | {p.offset for v in self.views for p in v.parts})
        for v in consts:
            lines.append(f"  %k{v} = arith.constant {v} : index")
        for j, view in enumerate(self.views):
            names = []
            for k, p in enumerate(view.parts):
                name = f"%V{j}" if not view.distributed else f"%V{j}p{k}"
                names.append(name)
                off = f"%P{p.pointer}" if p.pointer is not None else f"%k{p.offset}"
                if p.pointer is not None and p.offset:
                    lines.append(f"  %off{j}_{k} = arith.addi %P{p.pointer}, %k{p.offset} : index")
                    off = f"%off{j}_{k}"
                r, c = p.extents
                s = p.strides
                lines.append(
                    f"  {name} = ktdp.construct_memory_view {off}, sizes: [{r}, {c}], "
                    f"strides: [{s[0]}, {s[1]}] {{ coordinate_set = {p.set_text()}, "
                    f"memory_space = {p.space_text()} }} : memref<{r}x{c}xf16>")
            if view.distributed:
                r, c = self.distributed_extents(view)
                types = ", ".join(f"memref<{p.extents[0]}x{p.extents[1]}xf16>" for p in view.parts)
                lines.append(f"  %V{j} = ktdp.construct_distributed_memory_view "
                             f"({', '.join(names)} : {types}) : memref<{r}x{c}xf16>")
        body = sorted(self.accesses, key=lambda a: a.position)
        depth = 0
        for a in body:
            while depth > a.depth:
                depth -= 1
                lines.append("  " * (depth + 1) + "}")
            while depth < a.depth:
                lb, ub, s = self.loops[depth]
                lines.append("  " * (depth + 1) +
                             f"scf.for %i{depth} = %k{lb} to %k{ub} step %k{s} {{")
                depth += 1
            lines += ["  " * (depth + 1) + ln for ln in self._access_text(a)]
        while depth > 0:
            depth -= 1
            lines.append("  " * (depth + 1) + "}")
        lines += ["  return", "}"]
        return "\n".join(lines) + "\n"

    def distributed_extents(self, view: View) -> tuple[int, int]:
        hi = [max(p.hi[k] for p in view.parts) for k in range(2)]
        return (hi[0] + 1, hi[1] + 1)

    def _view_type(self, view: View) -> str:
        if view.distributed:
            r, c = self.distributed_extents(view)
        else:
            r, c = view.parts[0].extents
        return f"memref<{r}x{c}xf16>"

    def _access_text(self, a: Access) -> list[str]:
        n = a.position
        iters = ", ".join(f"%i{d}" for d in range(a.depth))
        dims = ", ".join(["x", "y"] + [f"i{d}" for d in range(a.depth)])
        out = []
        for k, b in enumerate(a.base):
            terms = [f"x * {b.cx}", f"y * {b.cy}"]
            terms += [f"i{d} * {b.cl[d]}" for d in range(a.depth)]
            terms.append(str(b.k))
            out.append(f"%b{n}_{k} = affine.apply affine_map<({dims}) -> ({' + '.join(terms)})>"
                       f"(%x, %y{', ' + iters if iters else ''})")
        r, c = a.shape()
        order = "(d1, d0)" if a.transposed else "(d0, d1)"
        vtype = self._view_type(self.views[a.view])
        out.append(f"%T{n} = ktdp.construct_access_tile %V{a.view}[%b{n}_0, %b{n}_1] "
                   f"{{access_tile_set = {a.tset.text()}, access_tile_order = "
                   f"affine_map<(d0, d1) -> {order}>}} : {vtype} -> "
                   f"!ktdp.access_tile<{r}x{c}xindex>")
        if a.kind == "load":
            out.append(f"%L{n} = ktdp.load %T{n} : !ktdp.access_tile<{r}x{c}xindex> "
                       f"-> tensor<{r}x{c}xf16>")
        else:
            out.append(f"%E{n} = tensor.empty() : tensor<{r}x{c}xf16>")
            out.append(f"ktdp.store %E{n}, %T{n} : tensor<{r}x{c}xf16>, "
                       f"!ktdp.access_tile<{r}x{c}xindex>")
        return out


# ---- the oracle ------------------------------------------------------------------------


@dataclass(frozen=True)
class Instance:
    tile: int
    iters: tuple[int, ...]  # values of the enclosing loops, outermost first


class Oracle:
    """Every instance and every point of a `KernelSpec`, enumerated concretely."""

    def __init__(self, spec: KernelSpec):
        self.spec = spec

    def iterations(self, depth: int) -> list[tuple[int, ...]]:
        ranges = [range(lb, ub, s) for lb, ub, s in self.spec.loops[:depth]]
        return list(itertools.product(*ranges))

    def instances(self, a: Access) -> list[Instance]:
        return [Instance(t, it) for t in range(self.spec.tiles) for it in self.iterations(a.depth)]

    def points(self, a: Access, inst: Instance) -> list[tuple[int, int]]:
        """Coordinates touched by one instance, in the access order."""
        x, y = self.spec.tile_xy(inst.tile)
        b = (a.base[0].value(x, y, inst.iters), a.base[1].value(x, y, inst.iters))
        return [(b[0] + p[0], b[1] + p[1]) for p in a.tile_points()]

    def element(self, a: Access, inst: Instance, c: tuple[int, int]):
        """The memory element coordinate `c` of `a` lands on, or None outside the view."""
        view = self.spec.views[a.view]
        k = view.part_of(c)
        if k is None:
            return None
        p = view.parts[k]
        return (p.memory_of(inst.tile), p.pointer, p.address(c))

    def elements(self, a: Access, inst: Instance) -> set:
        return {e for c in self.points(a, inst) if (e := self.element(a, inst, c)) is not None}

    def out_of_bounds(self, a: Access) -> list[tuple[Instance, tuple[int, int]]]:
        view = self.spec.views[a.view]
        return [(i, c) for i in self.instances(a) for c in self.points(a, i)
                if view.part_of(c) is None]

    def touching(self, a: Access) -> dict:
        """element -> instances of `a` touching it."""
        found: dict = {}
        for inst in self.instances(a):
            for e in self.elements(a, inst):
                found.setdefault(e, []).append(inst)
        return found

    def races(self, a: Access, b: Access) -> bool:
        ta, tb = self.touching(a), self.touching(b)
        return any(i.tile != j.tile for e in ta.keys() & tb.keys() for i in ta[e] for j in tb[e])

    def executes_before(self, s: Access, si: Instance, l: Access, li: Instance) -> bool:
        """In one tile's program order: does instance `si` of `s` run before `li` of `l`?"""
        shared = 0
        while shared < min(s.depth, l.depth):
            shared += 1
        a, b = si.iters[:shared], li.iters[:shared]
        return a < b or (a == b and s.position < l.position)

    def dependence(self, store: Access, load: Access) -> tuple[bool, bool]:
        """(same tile, cross tile): a store instance that runs before a load instance (in
        program order, for the cross-tile case as if the tiles ran in lock step) writes an
        element the load reads."""
        ts, tl = self.touching(store), self.touching(load)
        same = cross = False
        for e in ts.keys() & tl.keys():
            for si in ts[e]:
                for li in tl[e]:
                    if self.executes_before(store, si, load, li):
                        if si.tile == li.tile:
                            same = True
                        else:
                            cross = True
        return same, cross

    def read_write_race(self, load: Access, store: Access) -> bool:
        """Instances of `store` and `load` in different tiles touch one element and the
        store instance does not run before the load instance (lock step, as in
        `dependence`): nothing orders them."""
        ts, tl = self.touching(store), self.touching(load)
        # in scratchpads only inter-tile ops order tiles: program order does not
        scratch = all(p.memory != "global" for a in (load, store)
                      for p in self.spec.views[a.view].parts)
        return any(si.tile != li.tile and (scratch or not self.executes_before(store, si, load, li))
                   for e in ts.keys() & tl.keys() for si in ts[e] for li in tl[e])

    def invariant(self, a: Access, loop: int) -> bool:
        """Every iteration of loop `loop` touches the same coordinates, all else fixed."""
        for t in range(self.spec.tiles):
            groups: dict = {}
            for it in self.iterations(a.depth):
                key = it[:loop] + it[loop + 1:]
                coords = frozenset(self.points(a, Instance(t, it)))
                groups.setdefault(key, set()).add(coords)
            if any(len(g) > 1 for g in groups.values()):
                return False
        return True


# ---- strategies ------------------------------------------------------------------------


@st.composite
def tile_sets(draw) -> TileSet:
    while True:
        lo = (draw(st.integers(0, 1)), draw(st.integers(0, 1)))
        hi = (lo[0] + draw(st.integers(0, 3)), lo[1] + draw(st.integers(0, 3)))
        cut = None
        if draw(st.booleans()):
            cut = (draw(st.integers(-2, 2)), draw(st.integers(-2, 2)), draw(st.integers(-1, 4)))
        stride = None
        if draw(st.integers(0, 4)) == 0:
            stride = (draw(st.integers(0, 1)), 2)
        t = TileSet(lo, hi, cut, stride)
        if t.points():
            return t
        # an empty set: drop the cut (a box with lo <= hi always has a point at lo)
        cut = None
        t = TileSet(lo, hi, None, None)
        return t


@st.composite
def kernel_specs(draw, distributed: bool = True, max_accesses: int = 4,
                 in_bounds: bool = True) -> KernelSpec:
    """A random kernel. `in_bounds`: views are sized to hold every access (so that the
    masking rule for positions outside a view never comes into play)."""
    grid = draw(st.sampled_from(GRIDS))
    nloops = draw(st.integers(0, 2))
    loops = []
    for _ in range(nloops):
        lb = draw(st.integers(0, 2))
        loops.append((lb, lb + draw(st.integers(1, 3)), draw(st.integers(1, 2))))
    nviews = draw(st.sampled_from([1, 1, 2, 3]))  # often one view: accesses meet
    view_kinds = []
    for j in range(nviews):
        dist = distributed and draw(st.integers(0, 3)) == 0
        view_kinds.append(dist)
    naccesses = draw(st.integers(1, max_accesses))
    accesses = []
    for n in range(naccesses):
        depth = draw(st.integers(0, nloops))
        base = tuple(Base(draw(st.integers(-1, 3)), draw(st.integers(-1, 3)),
                          (draw(st.integers(-1, 2)), draw(st.integers(-1, 2))),
                          draw(st.integers(0, 4))) for _ in range(2))
        accesses.append(Access(
            draw(st.sampled_from(["load", "store"])), draw(st.integers(0, nviews - 1)),
            base, draw(tile_sets()), draw(st.booleans()), depth))
    # Program order: depth-0 accesses go before (slot 0) or after (slot 4) the loop nest;
    # depth-1 ones before (1) or after (3) the inner loop, which holds the depth-2 ones (2).
    slots = []
    for a in accesses:
        after = draw(st.booleans())
        slots.append({0: 4 if after else 0, 1: 3 if after else 1, 2: 2}[a.depth])
    ordered = [a for _, a in sorted(zip(slots, accesses), key=lambda sa: sa[0])]
    for pos, a in enumerate(ordered):
        a.position = pos
    spec = KernelSpec(grid, loops, [], ordered)
    # Views: their coordinate boxes are the bounding box of what is touched through them.
    oracle_views = []
    for j, dist in enumerate(view_kinds):
        touched = _touched(spec, [a for a in ordered if a.view == j])
        if touched:
            lo = tuple(min(c[k] for c in touched) for k in range(2))
            hi = tuple(max(c[k] for c in touched) for k in range(2))
        else:
            lo, hi = (0, 0), (draw(st.integers(0, 3)), draw(st.integers(0, 3)))
        if not in_bounds:
            lo = tuple(v + draw(st.integers(0, 1)) for v in lo)
            hi = tuple(max(l, v - draw(st.integers(0, 1))) for l, v in zip(lo, hi))
        lo = tuple(min(0, v) if dist else v for v in lo)  # distributed views start at row 0
        oracle_views.append(_make_view(draw, dist, lo, hi, grid))
    spec.views = oracle_views
    return spec


def _touched(spec: KernelSpec, accesses: list[Access]) -> set:
    oracle = Oracle(spec)
    return {c for a in accesses for i in oracle.instances(a) for c in oracle.points(a, i)}


def _make_view(draw, distributed: bool, lo, hi, grid) -> View:
    tiles = 1
    for g in grid:
        tiles *= g
    memories = ["global", "own"] + [f"core{k}" for k in range(tiles)]
    if not distributed or hi[0] - lo[0] < 1 or min(lo) < 0:
        memory = draw(st.sampled_from(memories))
        pointer = draw(st.integers(0, 1)) if memory == "global" else None
        return View([Part(pointer, memory, draw(st.integers(0, 8)), lo, hi,
                          draw(st.sampled_from(["row", "col", "padded"])))])
    # Rows [0, hi0] split at sorted cut points: part k holds rows [s_k, s_{k+1}).
    cuts = sorted(set(draw(st.lists(st.integers(lo[0] + 1, hi[0]), min_size=1, max_size=3))))
    bounds = [0, *cuts, hi[0] + 1]
    parts = []
    for k in range(len(bounds) - 1):
        memory = draw(st.sampled_from([m for m in memories if m != "own"]))
        parts.append(Part(None if memory != "global" else 0, memory,
                          draw(st.integers(0, 8)), (bounds[k], 0),
                          (bounds[k + 1] - 1, max(hi[1], 0)), "row"))
    return View(parts)
