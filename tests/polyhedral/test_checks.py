"""Static checks, placement, dependences and invariance on small kernels."""

import numpy as np

from spyre_sched.polyhedral import (
    KernelModel,
    check_kernel,
    find_dependences,
    footprint,
    loop_dependences,
    pieces,
    store_coverage,
)
from spyre_sched.polyhedral.views import MemoryRef


def test_add_example_is_clean(kernel):
    k = kernel("add_96x64.mlir")
    assert check_kernel(k.func) == []
    model = KernelModel(k.func)
    assert all(c.complete for c in store_coverage(model))
    assert find_dependences(model) == []


def test_off_by_one_is_masked_with_witness_and_count(kernel):
    # Tile 31 reaches row 96 of a 96-row view: those positions are masked (a load reads
    # zero, a store skips them), a warning with the witness and the masked count.
    diags = check_kernel(kernel("add_off_by_one.mlir").func)
    masked = [d for d in diags if d.code == "masked-access"]
    assert len(masked) == 3 and all(d.severity == "warning" for d in masked)
    assert {d.op.name for d in masked} == {"ktdp.load", "ktdp.store"}
    for d in masked:
        assert d.witness["tile"] == 31 and d.witness["coordinate"][0] == 96
        assert d.witness["masked"] == 64 and "64 position(s) masked" in d.message


def test_racy_kernel_rejected_with_witness(kernel):
    diags = check_kernel(kernel("racy_store.mlir").func)
    races = [d for d in diags if d.code == "write-race"]
    assert len(races) == 1 and races[0].severity == "error"
    w = races[0].witness
    assert w["tile"] != w["tile2"]
    row = w["coordinate"][0]
    # Tile t writes rows 2t..2t+3: the witness row is written by both tiles.
    for t in (w["tile"], w["tile2"]):
        assert 2 * t <= row <= 2 * t + 3


def test_distributed_view_pieces_straddle_two_scratchpads(kernel):
    k = kernel("distributed_128x64.mlir")
    assert check_kernel(k.func) == []
    model = KernelModel(k.func)
    load = model.loads[0]
    got = pieces(model, load, 1)
    assert [(p.memory, p.lo, p.hi, p.elements) for p in got] == [
        (MemoryRef("ct_local", 1), (48, 0), (63, 63), 16 * 64),
        (MemoryRef("ct_local", 2), (64, 0), (79, 63), 16 * 64),
    ]
    assert [p.remote for p in got] == [False, True]
    # Local rows 16..31 of core 1's scratchpad, rows 0..15 of core 2's.
    assert [p.addresses for p in got] == [(16 * 64, 32 * 64 - 1), (0, 16 * 64 - 1)]
    assert [p.memory.core for p in pieces(model, load, 3)] == [3]


def test_footprint_sizes(kernel):
    model = KernelModel(kernel("add_96x64.mlir").func)
    fp = footprint(model, model.loads[0], tile=5)
    assert (fp.lo, fp.hi, fp.elements, fp.bytes, fp.sticks) == ((15, 0), (17, 63), 192, 384, 3)
    assert fp.is_dense_box and fp.extents == (3, 64)
    assert np.array_equal(fp.points[0], [15, 0])


def test_loops_runtime_sizes_dependence_and_invariance(kernel):
    k = kernel("loop_runtime.mlir")
    model = KernelModel(k.func)
    by_name = {a.tile_op.results[0].name_hint: a for a in model.accesses}
    assert [v.name for v in loop_dependences(by_name["Xt"])] == ["j"]
    assert loop_dependences(by_name["Wt2"]) == []  # hoistable out of the loop
    # All iterations (N at its upper bound 512) vs one iteration.
    assert footprint(model, by_name["Xt"], 1).hi == (3, 511)
    assert footprint(model, by_name["Xt"], 1, {"j": 64}).lo == (2, 64)
    deps = find_dependences(model)
    assert len(deps) == 1 and deps[0].load is by_name["Tr"] and deps[0].splits_kernel
    assert deps[0].needs_barrier
    assert deps[0].same_tile is None
    w = deps[0].cross_tile
    assert w.tile1 + w.tile2 == 7
    # The loop stores columns below N only: the 2x512 output is not covered when N < 512.
    diags = check_kernel(k.func)
    assert [d.code for d in diags] == ["uncovered-output"]
    assert diags[0].severity == "warning"
    assert diags[0].witness["coordinate"][1] >= diags[0].witness["N"]


def test_variable_table(kernel):
    model = KernelModel(kernel("loop_runtime.mlir").func)
    kinds = {v.name: v.kind.value for v in model.variables}
    assert kinds["tile"] == "tile" and kinds["j"] == "loop" and kinds["N"] == "runtime"
    assert kinds["X"] == "argument"


def test_softmax_groups_are_split_at_their_scratchpad_intermediates(kernel):
    k = kernel("softmax_rows.mlir")
    deps = find_dependences(KernelModel(k.func))
    lines = [(k.location_of(d.store.op).line, k.location_of(d.load.op).line) for d in deps]
    # M (group 1 -> 2), E and S (group 2 -> 3): each read back by the tile that wrote it.
    assert lines == [(54, 58), (76, 80), (77, 81)]
    assert all(d.splits_kernel and not d.needs_barrier and d.same_tile for d in deps)


def test_coordinates_beyond_64_bits_are_reported_not_crashed_on(kernel):
    # Every tile's rows start at 2 * (2^63 - 1): exact (isl) arithmetic finds every
    # position outside the view, so all are masked and no store writes anything: no race.
    from spyre_sched.frontend import parse_kernel

    text = open(kernel("add_96x64.mlir").filename).read()
    text = text.replace("%c3 = arith.constant 3", "%c3 = arith.constant 9223372036854775807")
    text = text.replace("%row0 = arith.muli %id, %c3", "%row0 = arith.addi %c3, %c3")
    diags = check_kernel(parse_kernel(text, "k.mlir").func)
    codes = [d.code for d in diags]
    assert codes.count("masked-access") == 3 and codes.count("write-race") == 0
    assert not [d for d in diags if d.severity == "error"]
    oob = next(d for d in diags if d.code == "masked-access")
    assert oob.witness["coordinate"][0] == 2 * (2**63 - 1) + 2


def test_loop_carried_dependence_from_a_later_store(kernel):
    k = kernel("loop_carried.mlir")
    deps = find_dependences(KernelModel(k.func))
    # Only T: iteration i stores row i+1, which iteration i+1 loads. U's store writes the
    # row its own iteration already loaded, which no later iteration reads.
    assert [(d.store.tile_op.results[0].name_hint, d.load.tile_op.results[0].name_hint)
            for d in deps] == [("Tn", "Ti")]
    (dep,) = deps
    assert dep.loop_carried and dep.splits_kernel and not dep.needs_barrier
    assert dep.same_tile.loops1["i"] < dep.same_tile.loops2["i"]


def test_overlapping_parts_of_a_distributed_view(kernel):
    # Upstream leaves which part holds a shared coordinate unspecified: a warning when the
    # view is only read, an error when a store writes through it.
    from spyre_sched.frontend import parse_kernel

    k = kernel("distributed_128x64.mlir")
    text = open(k.filename).read().replace("(d0 - 32 >= 0, -d0 + 63 >= 0", "(d0 - 30 >= 0, -d0 + 61 >= 0")
    bad = parse_kernel(text, "overlap.mlir")
    diags = [d for d in check_kernel(bad.func) if d.code == "overlapping-parts"]
    assert [(d.severity, d.witness["coordinate"]) for d in diags] == [("warning", (30, 0))]
    assert "parts %v0 and %v1 of distributed view %X both hold coordinate [30, 0]" in diags[0].message
    assert bad.location_of(diags[0].op).line == 24
    assert not [d for d in check_kernel(k.func) if d.code == "overlapping-parts"]
    stored = parse_kernel(text.replace(
        "  ktdp.store %x, %Ot", "  ktdp.store %x, %Xt : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>\n"
        "  ktdp.store %x, %Ot"), "overlap.mlir")
    diags = [d for d in check_kernel(stored.func) if d.code == "overlapping-parts"]
    assert [d.severity for d in diags] == ["error"]


def test_what_the_model_cannot_compare_is_listed_and_assumed_dependent(kernel):
    from spyre_sched.polyhedral.unmodelled import unmodelled

    k = kernel("dynamic_stride_alias.mlir")
    model = KernelModel(k.func)
    deps = find_dependences(model)
    # The store through %Td and the later load through %Ts: a dependence is assumed.
    assert len(deps) == 1 and deps[0].assumed and deps[0].splits_kernel
    assert deps[0].needs_barrier
    assert (deps[0].store.op.name, k.location_of(deps[0].load.op).line) == ("ktdp.store", 20)
    gaps = unmodelled(model)
    assert [(k.location_of(g.op).line, k.location_of(g.other).line) for g in gaps] == [
        (18, 19), (19, 20)]
    notes = [d for d in check_kernel(k.func) if d.code == "not-checked"]
    assert len(notes) == 2 and all(d.severity == "not checked" for d in notes)


def test_indirect_accesses_are_listed_as_not_checked():
    from pathlib import Path

    from spyre_sched.frontend import load_kernel

    path = Path(__file__).parents[1] / "emulator" / "kernels" / "gather_scatter.mlir"
    k = load_kernel(path)
    notes = [d for d in check_kernel(k.func) if d.code == "not-checked"]
    assert [(d.op.name, k.location_of(d.op).line) for d in notes] == [
        ("ktdp.load", 26), ("ktdp.store", 28)]
    assert all("indirect access tile" in d.message for d in notes)


def test_store_after_a_load_of_another_tile_is_a_read_write_race(kernel):
    # Tile t loads row t + 1, then stores row t: tile t + 1's store of row t + 1 is not
    # ordered against tile t's load of it (no loop around both; it used to pass `check`).
    k = kernel("shift_in_place.mlir")
    diags = [d for d in check_kernel(k.func) if d.severity == "error"]
    assert [(d.code, d.op.name, d.related.name) for d in diags] == [
        ("read-write-race", "ktdp.store", "ktdp.load")]
    w = diags[0].witness
    assert w["tile"] == w["tile2"] + 1 and w["coordinate"] == (w["tile"], 0)
    assert "tile 1 writes coordinate [1, 0] in global, which tile 0 reads" in diags[0].message
    assert k.location_of(diags[0].op).line == 19
    # Stored first, then loaded: a cross-tile dependence (split with a barrier), no race.
    from spyre_sched.frontend import parse_kernel

    text = open(k.filename).read()
    load = "  %x = ktdp.load %Xn : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>\n"
    store = "  ktdp.store %x, %Xt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>\n"
    swapped = text.replace(load + store, "  %z = tensor.empty() : tensor<1x64xf16>\n"
                           + store.replace("%x,", "%z,") + load)
    assert swapped != text
    swapped_kernel = parse_kernel(swapped, "swapped.mlir")
    model = KernelModel(swapped_kernel.func)
    assert not [d for d in check_kernel(swapped_kernel.func) if "race" in d.code]
    (dep,) = find_dependences(model)
    assert dep.cross_tile is not None and dep.needs_barrier


def test_read_write_race_in_a_shared_loop_only_from_the_same_or_a_later_iteration(kernel):
    from spyre_sched.frontend import parse_kernel
    from spyre_sched.polyhedral import find_read_write_races

    # loop_carried.mlir on 2 tiles, both running the same rows. T: the other tile stores
    # row i in iteration i - 1, before this tile loads it in iteration i (a cross-tile
    # dependence, no race). U: both tiles load and then store row i in iteration i, so
    # one tile's store meets the other's load in the same iteration (a race).
    text = open(kernel("loop_carried.mlir").filename).read().replace("grid = [1]", "grid = [2]")
    model = KernelModel(parse_kernel(text, "two.mlir").func)
    (race,) = find_read_write_races(model)
    assert (race.load.tile_op.results[0].name_hint,
            race.store.tile_op.results[0].name_hint) == ("Ui", "Ui")
    assert race.witness.loops1 == race.witness.loops2
    assert "(store at i = " in str(race)
    deps = [(d.store.tile_op.results[0].name_hint, d.cross_tile is not None)
            for d in find_dependences(model)]
    assert ("Tn", True) in deps


def test_indirect_tiles_are_placed_over_the_whole_view_they_can_index(kernel):
    # Tile t gathers X[I[i], 32t + j]: its pieces are every row of X (the rows come from
    # memory) in its own 32 columns, marked inexact; the store's piece is exact.
    from spyre_sched.polyhedral import tile_pieces

    k = kernel("gather_columns.mlir")
    model = KernelModel(k.func)
    for tile in (0, 1):
        gather, store = tile_pieces(model, tile)
        assert (gather.access.kind, gather.exact, store.exact) == ("load", False, True)
        cols = range(32 * tile, 32 * tile + 32)
        assert [tuple(p) for p in gather.points.tolist()] == [
            (r, c) for r in range(16) for c in cols]
        assert (gather.lo, gather.hi) == ((0, 32 * tile), (15, 32 * tile + 31))
        assert gather.addresses == (32 * tile, 15 * 64 + 32 * tile + 31)
        assert gather.memory == MemoryRef("global", None)
        assert (store.lo, store.hi) == ((0, 32 * tile), (3, 32 * tile + 31))
    # The static checks still say they cannot model the gather.
    notes = [d for d in check_kernel(k.func) if d.code == "not-checked"]
    assert [d.op.name for d in notes] == ["ktdp.load"]
    assert "placement takes every coordinate of the view" in notes[0].message


def test_an_overlap_no_instance_reaches_has_no_witness_and_no_crash():
    # a mutant of a test kernel (a loop bound -1, a row of tile + 2): the pieces' test
    # saw an overlap that the set over every variable does not hold; isl's sample of the
    # empty set has no coordinates, which crashed `check`
    from pathlib import Path

    from spyre_sched.frontend import parse_kernel
    from spyre_sched.polyhedral.checks import check_kernel

    path = Path(__file__).resolve().parents[1] / "normalize" / "kernels" / "carried_recurrence.mlir"
    text = path.read_text().replace("%c512 = arith.constant 512 : index",
                                    "%c512 = arith.constant -1 : index")
    text = text.replace("%row = arith.muli %t, %c2 : index", "%row = arith.addi %t, %c2 : index")
    assert not [d for d in check_kernel(parse_kernel(text, "m.mlir").func) if d.severity == "error"]
