"""Brute-force oracles for the polyhedral layer.

Small random kernels (`random_kernels`): 1-D and 2-D grids, up to two nested loops, views
on two pointers and in scratchpads with row-major, column-major and padded strides,
distributed views, access tiles whose sets are boxes cut by a half-plane and a stride,
in either order. For each, every instance and every point is enumerated in plain Python
and compared with what the layer answers: out-of-bounds, write races, overlapping parts,
dependences (same tile, cross tile, loop-carried), invariance, footprints, placement,
output coverage.

The default run draws a few dozen kernels per question (derandomized: the same ones every
run); `pytest -m slow` draws many more.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from random_kernels import (
    Access,
    Base,
    Instance,
    KernelSpec,
    Oracle,
    Part,
    TileSet,
    View,
    kernel_specs,
    tile_sets,
)
from spyre_sched.frontend import parse_kernel
from spyre_sched.polyhedral import (
    KernelModel,
    MemoryRef,
    all_tile_pieces,
    check_kernel,
    find_dependences,
    find_out_of_bounds,
    find_read_write_races,
    find_write_races,
    footprint,
    hoistable_loops,
    is_invariant,
    loop_dependences,
    memories_touched,
    pieces,
    store_coverage,
    tile_pieces,
)

FAST, SLOW = 12, 400


def both(check, strategy):
    """The check as a fast derandomized test and as an opt-in long one."""
    common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                         HealthCheck.data_too_large])
    fast = settings(max_examples=FAST, derandomize=True, database=None, **common)(
        given(strategy)(check))
    slow = pytest.mark.slow(settings(max_examples=SLOW, **common)(given(strategy)(check)))
    return fast, slow


def model_of(spec: KernelSpec) -> KernelModel:
    kernel = parse_kernel(spec.text(), "random.mlir")
    model = KernelModel(kernel.func)
    assert len(model.accesses) == len(spec.accesses)
    return model


def instance_of(spec: KernelSpec, access: Access, model_access, tile: int,
                loops: dict[str, int]) -> Instance:
    return Instance(tile, tuple(loops[v.name] for v in model_access.loops[:access.depth]))


def memory_key(ref: MemoryRef) -> tuple:
    return ("global",) if ref.space == "global" else ("ct_local", ref.core)


# ---- out of bounds -----------------------------------------------------------------------


def check_out_of_bounds(spec: KernelSpec):
    model, oracle = model_of(spec), Oracle(spec)
    for a, ma in zip(spec.accesses, model.accesses):
        expected = oracle.out_of_bounds(a)
        found = find_out_of_bounds(ma)
        assert (found is not None) == bool(expected), spec.text()
        if found is not None:
            assert found.certain
            inst = instance_of(spec, a, ma, found.tile, found.loops)
            assert (inst, found.coordinate) in expected, spec.text()


test_out_of_bounds, test_out_of_bounds_many = both(
    check_out_of_bounds, kernel_specs(in_bounds=False))


# ---- write races -------------------------------------------------------------------------


def check_write_races(spec: KernelSpec):
    model, oracle = model_of(spec), Oracle(spec)
    stores = [(a, ma) for a, ma in zip(spec.accesses, model.accesses) if a.kind == "store"]
    expected = {(i, j) for i in range(len(stores)) for j in range(i, len(stores))
                if oracle.races(stores[i][0], stores[j][0])}
    index = {id(ma): k for k, (_, ma) in enumerate(stores)}
    races = find_write_races(model)
    assert {(index[id(r.first)], index[id(r.second)]) for r in races} == expected, spec.text()
    for r in races:
        (a, ma), (b, mb) = stores[index[id(r.first)]], stores[index[id(r.second)]]
        w = r.witness
        assert w.tile1 != w.tile2
        i1 = instance_of(spec, a, ma, w.tile1, w.loops1)
        i2 = instance_of(spec, b, mb, w.tile2, w.loops2)
        assert w.coordinate in oracle.points(a, i1)
        element = oracle.element(a, i1, w.coordinate)
        assert element in oracle.elements(b, i2), spec.text()


test_write_races, test_write_races_many = both(check_write_races, kernel_specs())


# ---- read/write races ----------------------------------------------------------------------


def check_read_write_races(spec: KernelSpec):
    model, oracle = model_of(spec), Oracle(spec)
    pairs = list(zip(spec.accesses, model.accesses))
    expected = {(l.position, s.position) for l, _ in pairs if l.kind == "load"
                for s, _ in pairs if s.kind == "store" and oracle.read_write_race(l, s)}
    position = {id(ma): a.position for a, ma in pairs}
    races = find_read_write_races(model)
    assert {(position[id(r.load)], position[id(r.store)]) for r in races} == expected, spec.text()
    for r in races:
        l, ml = pairs[position[id(r.load)]]
        s, ms = pairs[position[id(r.store)]]
        w = r.witness
        assert w.tile1 != w.tile2
        li = instance_of(spec, l, ml, w.tile1, w.loops1)
        si = instance_of(spec, s, ms, w.tile2, w.loops2)
        assert r.program_ordered or not oracle.executes_before(s, si, l, li), spec.text()
        assert w.coordinate in oracle.points(l, li)
        assert oracle.element(l, li, w.coordinate) in oracle.elements(s, si), spec.text()


test_read_write_races, test_read_write_races_many = both(check_read_write_races, kernel_specs())


def test_a_race_whose_least_point_isl_misses():
    """Found by the long run: the overlap of a strided load and a cut store (a division in
    its constraints) is not empty, but isl's lexmin of it comes back empty; the witness
    is then another point of it."""
    zero = Base(cx=0, cy=0, cl=(0, 0), k=0)

    def load(view, base, tset, position):
        return Access(kind="load", view=view, base=base, tset=tset, transposed=False,
                      depth=0, position=position)

    strided = TileSet(lo=(0, 0), hi=(0, 0), cut=None, stride=(0, 2))
    check_read_write_races(KernelSpec(
        grid=(3, 2), loops=[],
        views=[View(parts=[Part(pointer=None, memory="core0", offset=0, lo=(-1, 0),
                                hi=(1, 3), stride_kind="row", cut=None)]),
               View(parts=[Part(pointer=None, memory="own", offset=1, lo=(0, -2),
                                hi=(1, 1), stride_kind="row", cut=None)])],
        accesses=[load(0, (zero, zero), strided, 0), load(0, (zero, zero), strided, 1),
                  load(1, (zero, Base(cx=-1, cy=1, cl=(0, 0), k=0)),
                       TileSet(lo=(0, 0), hi=(1, 0), cut=None, stride=None), 2),
                  Access(kind="store", view=0,
                         base=(Base(cx=0, cy=-1, cl=(0, 0), k=0),
                               Base(cx=1, cy=1, cl=(0, 0), k=0)),
                         tset=TileSet(lo=(0, 0), hi=(1, 0), cut=(0, -1, 0), stride=None),
                         transposed=False, depth=0, position=3)]))


# ---- output coverage -------------------------------------------------------------------


def check_coverage(spec: KernelSpec):
    model, oracle = model_of(spec), Oracle(spec)
    expected = {}
    for j, view in enumerate(spec.views):
        stores = [a for a in spec.accesses if a.kind == "store" and a.view == j]
        if not stores:
            continue
        held = {c for p in view.parts for c in p.points()}
        written = {c for a in stores for i in oracle.instances(a) for c in oracle.points(a, i)}
        expected[j] = held - written
    views = {id(ma.view): a.view for a, ma in zip(spec.accesses, model.accesses)}
    found = store_coverage(model)
    assert len(found) == len(expected)
    for cov in found:
        j = views[id(cov.view)]
        assert cov.complete == (not expected[j]), spec.text()
        if not cov.complete:
            assert tuple(cov.missing) in expected[j], spec.text()


test_coverage, test_coverage_many = both(check_coverage, kernel_specs())


# ---- overlapping parts of a distributed view ---------------------------------------------


@st.composite
def distributed_specs(draw) -> KernelSpec:
    """One distributed view whose parts are random boxes cut by a half-plane (they may
    overlap), read through one access tile."""
    nparts = draw(st.integers(2, 4))
    parts = []
    for _ in range(nparts):
        lo = (draw(st.integers(0, 4)), draw(st.integers(0, 2)))
        hi = (lo[0] + draw(st.integers(0, 3)), lo[1] + draw(st.integers(0, 3)))
        cut = None
        if draw(st.booleans()):
            cut = (draw(st.integers(-2, 2)), draw(st.integers(-2, 2)), draw(st.integers(0, 6)))
        part = Part(None, f"core{draw(st.integers(0, 1))}", draw(st.integers(0, 8)), lo, hi,
                    "row", cut)
        if not part.points():
            part = Part(part.pointer, part.memory, part.offset, lo, hi, "row", None)
        parts.append(part)
    access = Access("load", 0, (_zero(), _zero()), draw(tile_sets()), False, 0)
    return KernelSpec((2,), [], [View(parts)], [access])


def _zero():
    from random_kernels import Base

    return Base(0, 0, (0, 0), 0)


def check_overlapping_parts(spec: KernelSpec):
    kernel = parse_kernel(spec.text(), "random.mlir")
    parts = spec.views[0].parts
    expected = {(i, j) for i in range(len(parts)) for j in range(i + 1, len(parts))
                if set(parts[i].points()) & set(parts[j].points())}
    diags = [d for d in check_kernel(kernel.func) if d.code == "overlapping-parts"]
    names = {f"V0p{k}": k for k in range(len(parts))}
    found = set()
    for d in diags:
        first = names[d.message.split("parts %")[1].split(" ")[0]]
        second = names[d.related.results[0].name_hint]
        found.add((first, second))
        c = tuple(d.witness["coordinate"])
        assert parts[first].holds(c) and parts[second].holds(c), spec.text()
    assert found == expected, spec.text()


test_overlapping_parts, test_overlapping_parts_many = both(
    check_overlapping_parts, distributed_specs())


# ---- dependences -------------------------------------------------------------------------


def check_dependences(spec: KernelSpec):
    model, oracle = model_of(spec), Oracle(spec)
    pairs = list(zip(spec.accesses, model.accesses))
    expected = {}
    for s, ms in pairs:
        for l, ml in pairs:
            if s.kind == "store" and l.kind == "load":
                same, cross = oracle.dependence(s, l)
                if same or cross:
                    expected[(s.position, l.position)] = (same, cross)
    position = {id(ma): a.position for a, ma in pairs}
    deps = find_dependences(model)
    found = {(position[id(d.store)], position[id(d.load)]):
             (d.same_tile is not None, d.cross_tile is not None) for d in deps}
    assert found == expected, spec.text()
    for d in deps:
        s, ms = pairs[position[id(d.store)]]
        l, ml = pairs[position[id(d.load)]]
        assert d.loop_carried == (s.position > l.position)
        for w, same in ((d.same_tile, True), (d.cross_tile, False)):
            if w is None:
                continue
            assert (w.tile1 == w.tile2) == same
            si = instance_of(spec, s, ms, w.tile1, w.loops1)
            li = instance_of(spec, l, ml, w.tile2, w.loops2)
            assert oracle.executes_before(s, si, l, li), spec.text()
            assert oracle.element(s, si, w.coordinate) in oracle.elements(l, li), spec.text()


test_dependences, test_dependences_many = both(check_dependences, kernel_specs())


# ---- invariance ----------------------------------------------------------------------------


def check_invariance(spec: KernelSpec):
    model, oracle = model_of(spec), Oracle(spec)
    for a, ma in zip(spec.accesses, model.accesses):
        assert len(ma.loops) == a.depth
        expected = [oracle.invariant(a, d) for d in range(a.depth)]
        assert [is_invariant(ma, loop) for loop in ma.loops] == expected, spec.text()
        assert hoistable_loops(ma) == [v for v, inv in zip(ma.loops, expected) if inv]
        assert loop_dependences(ma) == [v for v, inv in zip(ma.loops, expected) if not inv]


test_invariance, test_invariance_many = both(
    check_invariance, kernel_specs(distributed=False).filter(lambda s: s.loops))


# ---- footprints and the points of one instance ---------------------------------------------


def check_footprints(spec: KernelSpec):
    model, oracle = model_of(spec), Oracle(spec)
    stick_bytes = 4  # two f16 per stick, so that sticks differ from rows
    for a, ma in zip(spec.accesses, model.accesses):
        origin = spec.views[a.view].parts[0].lo[1]
        for tile in range(spec.tiles):
            instances = [i for i in oracle.instances(a) if i.tile == tile]
            for inst in instances:
                env = model.default_env(tile)
                env.update({v.name: x for v, x in zip(ma.loops, inst.iters)})
                got = [tuple(int(x) for x in p) for p in ma.points(env)]
                assert got == oracle.points(a, inst), spec.text()
            union = sorted({c for i in instances for c in oracle.points(a, i)})
            fp = footprint(model, ma, tile, stick_bytes=stick_bytes)
            assert [tuple(int(x) for x in p) for p in fp.points] == union, spec.text()
            assert fp.elements == len(union) and fp.bytes == 2 * len(union)
            assert fp.lo == tuple(min(c[k] for c in union) for k in range(2))
            assert fp.hi == tuple(max(c[k] for c in union) for k in range(2))
            sticks = {(c[0], (c[1] - origin) * 2 // stick_bytes) for c in union}
            assert fp.sticks == len(sticks), spec.text()
            box = np.prod([h - l + 1 for l, h in zip(fp.lo, fp.hi)])
            assert fp.is_dense_box == (len(union) == box)


test_footprints, test_footprints_many = both(check_footprints, kernel_specs())


# ---- placement -----------------------------------------------------------------------------


def expected_pieces(spec: KernelSpec, oracle: Oracle, a: Access, tile: int) -> list[tuple]:
    union = sorted({c for i in oracle.instances(a) if i.tile == tile
                    for c in oracle.points(a, i)})
    view = spec.views[a.view]
    result = []
    for k, part in enumerate(view.parts):
        mine = union if not view.distributed else [c for c in union if view.part_of(c) == k]
        if not mine:
            continue
        addresses = [part.address(c) for c in mine]
        result.append((k, part.memory_of(tile), mine,
                       tuple(min(c[d] for c in mine) for d in range(2)),
                       tuple(max(c[d] for c in mine) for d in range(2)),
                       (min(addresses), max(addresses))))
    return result


def piece_key(p) -> tuple:
    return (p.part, memory_key(p.memory), [tuple(int(x) for x in c) for c in p.points],
            p.lo, p.hi, p.addresses)


def check_placement(spec: KernelSpec):
    model, oracle = model_of(spec), Oracle(spec)
    everything = all_tile_pieces(model)
    assert sorted(everything) == list(range(spec.tiles))
    for tile in range(spec.tiles):
        per_access = []
        for a, ma in zip(spec.accesses, model.accesses):
            expected = expected_pieces(spec, oracle, a, tile)
            got = pieces(model, ma, tile)
            assert [piece_key(p) for p in got] == expected, spec.text()
            for p in got:
                assert p.remote == (p.memory.space == "ct_local" and p.memory.core != tile)
            per_access += expected
        assert [piece_key(p) for p in tile_pieces(model, tile)] == per_access
        assert [piece_key(p) for p in everything[tile]] == per_access
        seen = []
        for piece in per_access:
            if piece[1] not in seen:
                seen.append(piece[1])
        assert [memory_key(m) for m in memories_touched(model, tile)] == seen


test_placement, test_placement_many = both(check_placement, kernel_specs())


# ---- regressions the oracles found ---------------------------------------------------------


def test_store_before_load_in_a_loop_reaches_only_later_iterations():
    # for i: store row i; load row i + 1. The load of row i + 1 runs in iteration i, before
    # iteration i + 1 stores it: no flow dependence (the layer used to report one, taking
    # every pair of iterations for a store textually before the load).
    from random_kernels import Base, TileSet

    row = TileSet((0, 0), (0, 3), None, None)
    zero = Base(0, 0, (0, 0), 0)
    store = Access("store", 0, (Base(0, 0, (1, 0), 0), zero), row, False, 1, 0)
    load = Access("load", 0, (Base(0, 0, (1, 0), 1), zero), row, False, 1, 1)
    spec = KernelSpec((2,), [(0, 4, 1)], [View([Part(0, "global", 0, (0, 0), (4, 3))])],
                      [store, load])
    assert find_dependences(model_of(spec)) == []
    check_dependences(spec)
    # for i: store row i + 1; load row i. Iteration i + 1 loads what iteration i stored.
    store.base = (Base(0, 0, (1, 0), 1), zero)
    load.base = (Base(0, 0, (1, 0), 0), zero)
    (dep,) = find_dependences(model_of(spec))
    assert dep.same_tile.loops1["i0"] + 1 == dep.same_tile.loops2["i0"]
    check_dependences(spec)


def test_coverage_witness_where_isl_cannot_take_the_lexicographic_minimum():
    # Found by the oracle: two strided stores into a per-tile scratchpad view; isl's lexmin
    # of the unwritten set failed ("affine expression involves some of the domain
    # dimensions") and `check` crashed instead of reporting the uncovered coordinate.
    from random_kernels import Base, TileSet

    zero = Base(0, 0, (0, 0), 0)
    spec = KernelSpec((3,), [], [View([Part(None, "own", 0, (0, -2), (4, 4))])], [
        Access("store", 0, (Base(2, 0, (0, 0), 0), zero),
               TileSet((0, 0), (0, 2), (0, 0, 0), (1, 2)), False, 0, 0),
        Access("store", 0, (Base(1, 0, (0, 0), 1), Base(-1, 0, (0, 0), 0)),
               TileSet((0, 0), (0, 1), None, (0, 2)), False, 0, 1)])
    (cov,) = store_coverage(model_of(spec))
    assert not cov.complete
    check_coverage(spec)
