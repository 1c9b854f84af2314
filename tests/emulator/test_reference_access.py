"""Access tiles on the reference interpreter: random rectangular and non-rectangular sets
and orders against a brute-force point enumeration, distributed views over two
scratchpads, kernel-pinned scratchpad inputs, gathers and scatters through index tensors."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from emulator.reference import make_inputs, run

KERNELS = Path(__file__).resolve().parent / "kernels"

COPY_KERNEL = """
#src = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#dst = affine_set<(d0, d1) : (d0 >= 0, -d0 + {h1} >= 0, d1 >= 0, -d1 + {w1} >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @copy(%X: index, %T: index, %Z: index) attributes {{grid = [1]}} {{
  %c0 = arith.constant 0 : index
  %b0 = arith.constant {b0} : index
  %b1 = arith.constant {b1} : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 16], strides: [16, 1] {{
      coordinate_set = #src, memory_space = #ktdp.memory_space<global>}} : memref<16x16xf16>
  %Zv = ktdp.construct_memory_view %Z, sizes: [16, 16], strides: [16, 1] {{
      coordinate_set = #src, memory_space = #ktdp.memory_space<global>}} : memref<16x16xf16>
  %Tv = ktdp.construct_memory_view %T, sizes: [{h}, {w}], strides: [{w}, 1] {{
      coordinate_set = #dst, memory_space = #ktdp.memory_space<global>}} : memref<{h}x{w}xf16>
  %Xa = ktdp.construct_access_tile %Xv[%b0, %b1] {{access_tile_set = affine_set<{tile_set}>,
      access_tile_order = affine_map<{order}>}} : memref<16x16xf16> -> !ktdp.access_tile<{h}x{w}xindex>
  %Za = ktdp.construct_access_tile %Zv[%b0, %b1] {{access_tile_set = affine_set<{tile_set}>,
      access_tile_order = affine_map<{order}>}} : memref<16x16xf16> -> !ktdp.access_tile<{h}x{w}xindex>
  %Ta = ktdp.construct_access_tile %Tv[%c0, %c0] {{access_tile_set = #dst, access_tile_order = #id2}}
      : memref<{h}x{w}xf16> -> !ktdp.access_tile<{h}x{w}xindex>
  %x = ktdp.load %Xa : !ktdp.access_tile<{h}x{w}xindex> -> tensor<{h}x{w}xf16>
  ktdp.store %x, %Ta : tensor<{h}x{w}xf16>, !ktdp.access_tile<{h}x{w}xindex>
  ktdp.store %x, %Za : tensor<{h}x{w}xf16>, !ktdp.access_tile<{h}x{w}xindex>
  return
}}
"""


def _holds(constraints, d0: int, d1: int) -> bool:
    return all(c(d0, d1) for c in constraints)


@st.composite
def tile_sets(draw):
    """A random bounded 2-D set: a box, optionally cut by a half-plane and a parity."""
    e0, e1 = draw(st.integers(0, 6)), draw(st.integers(0, 6))
    texts = ["d0 >= 0", f"-d0 + {e0} >= 0", "d1 >= 0", f"-d1 + {e1} >= 0"]
    checks = [lambda a, b: 0 <= a <= e0 and 0 <= b <= e1]
    if draw(st.booleans()):
        p, q, r = draw(st.integers(-3, 3)), draw(st.integers(-3, 3)), draw(st.integers(-4, 12))
        texts.append(f"{p} * d0 + {q} * d1 + {r} >= 0")
        checks.append(lambda a, b, p=p, q=q, r=r: p * a + q * b + r >= 0)
    if draw(st.booleans()):
        k = draw(st.integers(1, 2))
        texts.append(f"(d0 + {k} * d1) mod 2 == 0")
        checks.append(lambda a, b, k=k: (a + k * b) % 2 == 0)
    return "(d0, d1) : (" + ", ".join(texts) + ")", checks


COPY_ARGS = (tile_sets(), st.booleans(), st.integers(0, 9), st.integers(0, 9), st.integers(0, 1000))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*COPY_ARGS)
def test_any_affine_access_tile_matches_brute_force(tset, transposed, b0, b1, seed):
    _check_copy(tset, transposed, b0, b1, seed)


@pytest.mark.slow
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(*COPY_ARGS)
def test_any_affine_access_tile_matches_brute_force_long(tset, transposed, b0, b1, seed):
    _check_copy(tset, transposed, b0, b1, seed)


def _check_copy(tset, transposed, b0, b1, seed):
    text, checks = tset
    points = [(a, b) for a, b in itertools.product(range(-1, 8), repeat=2) if _holds(checks, a, b)]
    assume(points)
    lo = [min(p[k] for p in points) for k in range(2)]
    hi = [max(p[k] for p in points) for k in range(2)]
    perm = [1, 0] if transposed else [0, 1]
    ext = [hi[k] - lo[k] + 1 for k in range(2)]
    h, w = ext[perm[0]], ext[perm[1]]
    kernel = COPY_KERNEL.format(
        tile_set=text, order="(d0, d1) -> (d1, d0)" if transposed else "(d0, d1) -> (d0, d1)",
        b0=b0, b1=b1, h=h, w=w, h1=h - 1, w1=w - 1,
    )
    x = np.random.default_rng(seed).uniform(-2, 2, (16, 16)).astype(np.float16)
    out = run(kernel, {"X": x})
    expected_t = np.zeros((h, w), np.float16)  # the tile's box: positions out of its set read 0
    # what no store writes keeps device memory's poison (NaN: numerics.poison)
    expected_z = np.full((16, 16), np.nan, np.float16)
    for a, b in sorted(points, key=lambda p: (p[perm[0]], p[perm[1]])):
        pos = (p := (a - lo[0], b - lo[1]))[perm[0]], p[perm[1]]
        expected_t[pos] = x[b0 + a, b1 + b]
        expected_z[b0 + a, b1 + b] = x[b0 + a, b1 + b]
    np.testing.assert_array_equal(out["T"], expected_t)
    np.testing.assert_array_equal(out["Z"], expected_z)


def test_distributed_view_straddles_two_scratchpads():
    path = KERNELS / "distributed_two_scratchpads.mlir"
    inputs = make_inputs(path, 3)
    out = run(path, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"])
    np.testing.assert_array_equal(out["Yt"], inputs["X"][2:6].T)


def test_input_pinned_in_another_tiles_scratchpad():
    path = KERNELS / "pinned_input.mlir"
    inputs = make_inputs(path, 4)
    out = run(path, inputs)
    row = (inputs["W"].astype(np.float32) + 1).astype(np.float16)
    np.testing.assert_array_equal(out["Y"], np.broadcast_to(row, (4, 64)))


def test_pinned_input_must_fit_the_scratchpad():
    from spyre_sched.errors import ExecutionError

    path = KERNELS / "pinned_input.mlir"
    with pytest.raises(ExecutionError, match="scratchpad need 128 bytes, more than its 64"):
        run(path, make_inputs(path, 4), scratchpad_bytes=64)


def test_gather_and_scatter_through_an_index_tensor():
    path = KERNELS / "gather_scatter.mlir"
    inputs = make_inputs(path, 5)
    index = inputs["I"]
    assert index.dtype == np.int32 and index.min() >= 0 and index.max() <= 15
    out = run(path, inputs)
    np.testing.assert_array_equal(out["Y"], inputs["X"][index])
    z = np.full_like(inputs["X"], np.nan)  # rows no scatter writes keep the poison
    z[index] = inputs["X"][index]
    np.testing.assert_array_equal(out["Z"], z)


def test_gather_with_a_chosen_permutation():
    path = KERNELS / "gather_scatter.mlir"
    x = np.arange(16 * 64, dtype=np.float16).reshape(16, 64) / 64
    index = np.array([15, 0, 7, 8, 3, 9, 1, 2], dtype=np.int32)
    out = run(path, {"X": x, "I": index})
    np.testing.assert_array_equal(out["Y"], x[index])


def test_scatter_with_a_repeated_index_is_an_error():
    # KTIR names no combiner for a store: two points writing one coordinate is refused,
    # at the store, with the coordinate (the emulator refuses it too).
    from spyre_sched.errors import ExecutionError

    path = KERNELS / "gather_scatter.mlir"
    x = np.arange(16 * 64, dtype=np.float16).reshape(16, 64) / 64
    index = np.array([15, 0, 7, 7, 3, 9, 1, 2], dtype=np.int32)
    with pytest.raises(ExecutionError, match=r"ktdp.store: .*writes coordinate \(7, 0\) more "
                                             r"than once: KTIR names no combiner"):
        run(path, {"X": x, "I": index})


def test_random_indices_of_a_scatter_are_distinct():
    path = KERNELS / "gather_scatter.mlir"
    for seed in range(5):
        index = make_inputs(path, seed)["I"]
        assert len(set(index.tolist())) == len(index)



SYMBOLIC = """
#src = affine_set<(d0, d1) : (d0 >= 0, -d0 + 15 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#dst = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @sym(%X: index, %Y: index) attributes {grid = [4]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %t = ktdp.get_compute_tile_id : index
  %u = arith.addi %t, %c1 : index
  %t3 = arith.muli %t, %c3 : index
  %r = arith.addi %t3, %c1 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [16, 16], strides: [16, 1] {
      coordinate_set = #src, memory_space = #ktdp.memory_space<global>} : memref<16x16xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 16], strides: [16, 1] {
      coordinate_set = #dst, memory_space = #ktdp.memory_space<global>} : memref<4x16xf16>
  %Xa = ktdp.construct_access_tile %Xv[%c0, %c0] symbols(%r) {
      access_tile_set = affine_set<(d0, d1)[s0] : (d0 - s0 >= 0, s0 - d0 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
      access_tile_order = affine_map<(d0, d1) -> (d1, d0)>} : memref<16x16xf16> -> !ktdp.access_tile<16x1xindex>
  %Ya = ktdp.construct_access_tile %Yv[%u * 2 - %t - 2, %c0] {access_tile_set = #row,
      access_tile_order = #id2} : memref<4x16xf16> -> !ktdp.access_tile<1x16xindex>
  %x = ktdp.load %Xa : !ktdp.access_tile<16x1xindex> -> tensor<16x1xf16>
  %e = tensor.empty() : tensor<1x16xf16>
  %xt = linalg.transpose ins(%x : tensor<16x1xf16>) outs(%e : tensor<1x16xf16>) permutation = [1, 0]
  ktdp.store %xt, %Ya : tensor<1x16xf16>, !ktdp.access_tile<1x16xindex>
  return
}
"""


def test_tile_set_symbols_and_affine_base_expressions():
    # Tile t reads row 3t+1 (a set pinned by its symbol, read column-wise) and writes row
    # (t+1)*2 - t - 2 = t.
    x = np.arange(256, dtype=np.float16).reshape(16, 16)
    out = run(SYMBOLIC, {"X": x})
    np.testing.assert_array_equal(out["Y"], x[[1, 4, 7, 10]])


def test_input_in_every_tiles_own_scratchpad_and_output_in_a_named_one(tmp_path):
    text = (KERNELS / "pinned_input.mlir").read_text()
    text = text.replace("#ktdp.memory_space<ct_local, ct_id = 1>", "#ktdp.memory_space<ct_local>")
    text = text.replace(
        "coordinate_set = #ys, memory_space = #ktdp.memory_space<global>",
        "coordinate_set = #ys, memory_space = #ktdp.memory_space<ct_local, ct_id = 2>")
    path = tmp_path / "own.mlir"
    path.write_text(text)
    inputs = make_inputs(path, 4)
    out = run(path, inputs)
    row = (inputs["W"].astype(np.float32) + 1).astype(np.float16)
    np.testing.assert_array_equal(out["Y"], np.broadcast_to(row, (4, 64)))


def test_output_in_each_tiles_own_scratchpad_is_unsupported(tmp_path):
    from spyre_sched.errors import UnsupportedError

    text = (KERNELS / "pinned_input.mlir").read_text().replace(
        "coordinate_set = #ys, memory_space = #ktdp.memory_space<global>",
        "coordinate_set = #ys, memory_space = #ktdp.memory_space<ct_local>")
    path = tmp_path / "own_out.mlir"
    path.write_text(text)
    with pytest.raises(UnsupportedError, match="output %Y lives in each tile's own scratchpad"):
        run(path, make_inputs(path, 4))


DISTRIBUTED = """
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 11 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#win = affine_set<(d0, d1) : (d0 >= 0, -d0 + {h1} >= 0, d1 >= 0, -d1 + 7 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + {o0} >= 0, d1 >= 0, -d1 + {o1} >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

func.func @dist(%X: index, %W: index) attributes {{grid = [3]}} {{
  %c0 = arith.constant 0 : index
  %r0 = arith.constant {r0} : index
{offsets}
  %Xv = ktdp.construct_memory_view %X, sizes: [12, 8], strides: [8, 1] {{
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>}} : memref<12x8xf16>
  %Wv = ktdp.construct_memory_view %W, sizes: [{o0p}, {o1p}], strides: [{o1p}, 1] {{
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>}} : memref<{o0p}x{o1p}xf16>
{parts}
  %D = ktdp.construct_distributed_memory_view ({part_names} : {part_types}) : memref<12x8xf16>
  %Xa = ktdp.construct_access_tile %Xv[%c0, %c0] {{access_tile_set = #whole, access_tile_order = #id2}}
      : memref<12x8xf16> -> !ktdp.access_tile<12x8xindex>
  %Da = ktdp.construct_access_tile %D[%c0, %c0] {{access_tile_set = #whole, access_tile_order = #id2}}
      : memref<12x8xf16> -> !ktdp.access_tile<12x8xindex>
  %Dw = ktdp.construct_access_tile %D[%r0, %c0] {{access_tile_set = #win, access_tile_order = {order}}}
      : memref<12x8xf16> -> !ktdp.access_tile<{o0p}x{o1p}xindex>
  %Wa = ktdp.construct_access_tile %Wv[%c0, %c0] {{access_tile_set = #out, access_tile_order = #id2}}
      : memref<{o0p}x{o1p}xf16> -> !ktdp.access_tile<{o0p}x{o1p}xindex>
  %x = ktdp.load %Xa : !ktdp.access_tile<12x8xindex> -> tensor<12x8xf16>
  ktdp.store %x, %Da : tensor<12x8xf16>, !ktdp.access_tile<12x8xindex>
  %w = ktdp.load %Dw : !ktdp.access_tile<{o0p}x{o1p}xindex> -> tensor<{o0p}x{o1p}xf16>
  ktdp.store %w, %Wa : tensor<{o0p}x{o1p}xf16>, !ktdp.access_tile<{o0p}x{o1p}xindex>
  return
}}
"""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(1, 11), min_size=0, max_size=2, unique=True),
    st.lists(st.integers(0, 40), min_size=3, max_size=3),
    st.integers(0, 11), st.integers(1, 12), st.booleans(), st.integers(0, 99),
)
def test_distributed_views_route_each_row_to_its_part(cuts, offsets, r0, height, transposed, seed):
    """Rows of a 12x8 tensor cut into up to three parts, part k in tile k's scratchpad at a
    random offset (its coordinates local to the part's first row); a random window read
    back equals the same window of the input."""
    assume(r0 + height <= 12)
    bounds = [0, *sorted(cuts), 12]
    parts, names, types = [], [], []
    lines = []
    for k, (lo, hi) in enumerate(zip(bounds, bounds[1:])):
        rows = hi - lo
        lines.append(f"  %off{k} = arith.constant {offsets[k]} : index")
        parts.append(
            f"  %P{k} = ktdp.construct_memory_view %off{k}, sizes: [{rows}, 8], strides: [8, 1] {{\n"
            f"      coordinate_set = affine_set<(d0, d1) : (d0 - {lo} >= 0, -d0 + {hi - 1} >= 0, "
            f"d1 >= 0, -d1 + 7 >= 0)>, memory_space = #ktdp.memory_space<ct_local, ct_id = {k}>}}"
            f" : memref<{rows}x8xf16>"
        )
        names.append(f"%P{k}")
        types.append(f"memref<{rows}x8xf16>")
    o0, o1 = (8, height) if transposed else (height, 8)
    kernel = DISTRIBUTED.format(
        h1=height - 1, o0=o0 - 1, o1=o1 - 1, o0p=o0, o1p=o1, r0=r0, offsets="\n".join(lines),
        parts="\n".join(parts), part_names=", ".join(names), part_types=", ".join(types),
        order="affine_map<(d0, d1) -> (d1, d0)>" if transposed else "#id2",
    )
    x = np.random.default_rng(seed).uniform(-2, 2, (12, 8)).astype(np.float16)
    window = x[r0 : r0 + height]
    out = run(kernel, {"X": x})
    np.testing.assert_array_equal(out["W"], window.T if transposed else window)
