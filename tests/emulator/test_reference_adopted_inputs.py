"""Inputs are adopted into the reference interpreter's memory without a copy (read-only
overlays, `emulator/reference/memory.py`): the caller's arrays are never modified, an
output never aliases an input, and a write or a read across an overlay's edge copies that
overlay into the buffer first, so every run computes what a copied input would give."""

from __future__ import annotations

import numpy as np
import pytest

from emulator.reference import run, views
from emulator.reference.memory import DeviceMemory

BOX = "affine_set<(d0, d1) : (d0 >= 0, -d0 + {r} >= 0, d1 >= 0, -d1 + {c} >= 0)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
F16 = np.dtype(np.float16)


def kernel(body: str, grid: int = 1) -> str:
    """%X, %Y: 4x8 f16 views; %t the tile id."""
    return f"""func.func @k(%X: index, %Y: index) attributes {{grid = [{grid}]}} {{
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 8], strides: [8, 1] {{
      coordinate_set = {BOX.format(r=3, c=7)}, memory_space = #ktdp.memory_space<global>}} : memref<4x8xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 8], strides: [8, 1] {{
      coordinate_set = {BOX.format(r=3, c=7)}, memory_space = #ktdp.memory_space<global>}} : memref<4x8xf16>
  %t = ktdp.get_compute_tile_id : index
{body}
  return
}}
"""


def tile(name: str, view: str, row: str) -> str:
    return (f"  %{name} = ktdp.construct_access_tile %{view}[{row}, %c0] {{access_tile_set = "
            f"{BOX.format(r=0, c=7)}, access_tile_order = {ID2}}} : memref<4x8xf16> "
            f"-> !ktdp.access_tile<1x8xindex>\n")


LOAD_X = "  %x = ktdp.load %Xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>\n"
LOAD_Y = "  %y = ktdp.load %Yt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>\n"


def store(value: str, target: str) -> str:
    return f"  ktdp.store %{value}, %{target} : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>\n"


def rand(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-2, 2, (4, 8)).astype(np.float16)


def test_an_inout_input_written_in_place_leaves_the_callers_array_alone():
    # X[t] <- X[t] + X[t]: the loaded row keeps its values, the caller's X is unchanged
    # (values and flags), and the output is a new array.
    body = (tile("Xt", "Xv", "%t") + tile("Yt", "Yv", "%t") + LOAD_X
            + "  %d = arith.addf %x, %x : tensor<1x8xf16>\n" + store("d", "Xt") + store("x", "Yt"))
    x = rand(0)
    before = x.copy()
    out = run(kernel(body, grid=4), {"X": x, "Y": np.zeros((4, 8), np.float16)})
    assert np.array_equal(x.view(np.uint16), before.view(np.uint16))
    assert x.flags.writeable
    np.testing.assert_array_equal(out["X"], before + before)
    np.testing.assert_array_equal(out["Y"], before)
    assert not np.shares_memory(out["X"], x) and not np.shares_memory(out["Y"], x)


def test_an_inout_output_never_written_is_a_copy_of_the_input():
    # Y is inout (a store under a condition that is false at run time), never written: its
    # output equals the input but is not the caller's array.
    body = (tile("Yt", "Yv", "%t") + tile("Xt", "Xv", "%t") + LOAD_Y + store("y", "Xt")
            + "  %never = arith.constant false\n  scf.if %never {\n  " + store("y", "Yt")
            + "  }\n")
    x, y = np.zeros((4, 8), np.float16), rand(1)
    y.flags.writeable = False  # a read-only input is fine: nothing writes it
    out = run(kernel(body, grid=4), {"X": x, "Y": y})
    np.testing.assert_array_equal(out["Y"], y)
    np.testing.assert_array_equal(out["X"], y)
    for name in ("X", "Y"):
        assert not np.shares_memory(out[name], y) and not np.shares_memory(out[name], x)
    assert out["Y"].flags.writeable
    assert not np.any(x)  # the caller's X stays zero


def test_one_array_given_for_two_arguments():
    # The same array is X (read) and Y (written): Y's writes must not reach X's values.
    body = (tile("Xt", "Xv", "%t") + tile("Yt", "Yv", "%t") + LOAD_X
            + "  %d = arith.mulf %x, %x : tensor<1x8xf16>\n" + store("d", "Yt")
            + "  %again = ktdp.load %Xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>\n"
            + store("again", "Xt"))  # X[t] read back after Y[t] was written
    a = rand(2)
    before = a.copy()
    out = run(kernel(body, grid=4), {"X": a, "Y": a})
    np.testing.assert_array_equal(out["Y"], before * before)
    np.testing.assert_array_equal(out["X"], before)
    assert np.array_equal(a.view(np.uint16), before.view(np.uint16))


def test_non_contiguous_and_converted_inputs():
    # A transposed (non-contiguous) input and a float64 array of f16 values for an f16
    # argument are refused or placed exactly as a copied input would be.
    body = (tile("Xt", "Xv", "%t") + tile("Yt", "Yv", "%t") + LOAD_X
            + "  %d = arith.addf %x, %x : tensor<1x8xf16>\n" + store("d", "Yt"))
    x = np.ascontiguousarray(rand(3).T).T  # a Fortran-ordered 4x8 array
    assert not x.flags.c_contiguous
    out = run(kernel(body, grid=4), {"X": x, "Y": np.zeros((4, 8), np.float16)})
    np.testing.assert_array_equal(out["Y"], x + x)


def test_a_read_across_two_adopted_inputs_and_writes_copy_only_their_overlay():
    memory = DeviceMemory(256, 1, 0)
    a = np.arange(0, 64, dtype=np.float16)
    b = np.arange(64, 128, dtype=np.float16)
    memory.adopt("global", 0, a)
    memory.adopt("global", 128, b)
    # inside one input: served from the caller's array, no copy
    inside = views.Segment("global", None, None, (8, (2, 4), (8, 1)))
    view = views._strided_view(memory, inside, F16)
    assert np.shares_memory(view, a) and not view.flags.writeable
    np.testing.assert_array_equal(view, [[8, 9, 10, 11], [16, 17, 18, 19]])
    assert memory.overlays_copied == 0
    # across the edge between the two: both copied into the buffer, values unchanged
    across = views.Segment("global", None, None, (60, (8,), (1,)), contiguous=True)
    np.testing.assert_array_equal(views._strided_view(memory, across, F16), np.arange(60, 68))
    assert memory.overlays_copied == 2 and not memory.adopted("global", 0, 255)
    np.testing.assert_array_equal(view, [[8, 9, 10, 11], [16, 17, 18, 19]])

    memory = DeviceMemory(256, 1, 0)
    memory.adopt("global", 0, a)
    memory.adopt("global", 128, b)
    lent = views._strided_view(memory, inside, F16)
    memory.before_write("global", 130, 131)  # into b only
    memory.elements_at("global", F16, 65, 65)[0][65] = -1
    assert memory.overlays_copied == 1 and memory.adopted("global", 0, 127)
    assert b[1] == 65 and memory.elements("global", F16)[65] == -1
    np.testing.assert_array_equal(lent, [[8, 9, 10, 11], [16, 17, 18, 19]])
    assert memory.copies_on_write == 0  # a view of an adopted input needs no buffer copy


def test_adopting_outside_memory_is_refused():
    memory = DeviceMemory(128, 1, 0)
    with pytest.raises(ValueError, match="outside global memory"):
        memory.adopt("global", 64, np.zeros(64, np.float16))


def test_a_gather_from_an_adopted_input_reads_the_callers_values():
    memory = DeviceMemory(256, 1, 0)
    a = np.arange(0, 64, dtype=np.float16)
    memory.adopt("global", 128, a)
    seg = views.Segment("global", None, np.array([70, 64, 127]))
    np.testing.assert_array_equal(views._gather("f16", [seg], 3, memory), [6, 0, 63])
    assert memory.overlays_copied == 0
