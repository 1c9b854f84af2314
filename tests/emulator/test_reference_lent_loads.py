"""Loads of a strided box are read-only views into memory (no copy); a later store over
what a live loaded tensor shows copies the buffer first, so a loaded tensor keeps the
values it was loaded with."""

from __future__ import annotations

import numpy as np
import pytest

from emulator.reference import run
from emulator.reference import views
from emulator.reference.memory import DeviceMemory

BOX = "affine_set<(d0, d1) : (d0 >= 0, -d0 + {r} >= 0, d1 >= 0, -d1 + {c} >= 0)>"
ID2 = "affine_map<(d0, d1) -> (d0, d1)>"


def kernel(body: str, grid: int = 1) -> str:
    return f"""func.func @k(%X: index, %Y: index) attributes {{grid = [{grid}]}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 8], strides: [8, 1] {{
      coordinate_set = {BOX.format(r=3, c=7)}, memory_space = #ktdp.memory_space<global>}} : memref<4x8xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [4, 8], strides: [8, 1] {{
      coordinate_set = {BOX.format(r=3, c=7)}, memory_space = #ktdp.memory_space<global>}} : memref<4x8xf16>
  %t = ktdp.get_compute_tile_id : index
{body}
  return
}}
"""


def tile(name: str, view: str, row: str, rows: int = 1) -> str:
    return (f"  %{name} = ktdp.construct_access_tile %{view}[{row}, %c0] {{access_tile_set = "
            f"{BOX.format(r=rows - 1, c=7)}, access_tile_order = {ID2}}} : memref<4x8xf16> "
            f"-> !ktdp.access_tile<{rows}x8xindex>\n")


def rand(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-2, 2, (4, 8)).astype(np.float16)


def test_a_loaded_tensor_keeps_its_values_after_a_store_over_them():
    # Load row t of X, store x + x over it, then store the loaded x into row t of Y: Y
    # gets the old row, X the doubled one.
    body = (tile("Xt", "Xv", "%t") + tile("Yt", "Yv", "%t")
            + "  %x = ktdp.load %Xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>\n"
            "  %d = arith.addf %x, %x : tensor<1x8xf16>\n"
            "  ktdp.store %d, %Xt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>\n"
            "  ktdp.store %x, %Yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>\n")
    x = rand()
    out = run(kernel(body, grid=4), {"X": x.copy(), "Y": np.zeros((4, 8), np.float16)})
    np.testing.assert_array_equal(out["Y"], x)
    np.testing.assert_array_equal(out["X"], x + x)


def test_a_store_elsewhere_keeps_lending_and_a_store_over_a_lent_range_copies_once():
    memory = DeviceMemory(1024, 1, 0)
    elements = memory.elements("global", np.dtype(np.float16))
    elements[:16] = np.arange(16)
    seg = views.Segment("global", None, None, (0, (2, 4), (8, 1)))
    lent = views._strided_view(memory, seg, np.dtype(np.float16))
    memory.lend("global", 0, 2 * (8 + 3) + 1, lent)
    with pytest.raises(ValueError):
        lent[0, 0] = 1  # read-only: no op can change a loaded tensor in place
    # elements 12..15: past the lent range (a range, so elements 4..7 between its rows
    # count as shown: conservative)
    memory.before_write("global", 2 * 12, 2 * 15 + 1)
    assert memory.copies_on_write == 0 and memory.can_lend("global")
    memory.before_write("global", 2 * 9, 2 * 9 + 1)  # element 9: shown (row 1, col 1)
    memory.elements("global", np.dtype(np.float16))[9] = -1
    assert memory.copies_on_write == 1 and not memory.can_lend("global")
    assert lent[1, 1] == 9 and memory.elements("global", np.dtype(np.float16))[9] == -1
    del lent
    memory.before_write("global", 0, 100)
    assert memory.copies_on_write == 1


def test_loads_of_the_large_add_are_views_and_nothing_is_copied_on_write(monkeypatch):
    # C = A + B by rows: every load is lent, no store overlaps a loaded row.
    made = []
    real = DeviceMemory.__init__

    def record(self, *args):
        real(self, *args)
        made.append(self)

    monkeypatch.setattr(DeviceMemory, "__init__", record)
    body = (tile("Xt", "Xv", "%t") + tile("Yt", "Yv", "%t")
            + "  %x = ktdp.load %Xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>\n"
            "  %d = arith.addf %x, %x : tensor<1x8xf16>\n"
            "  ktdp.store %d, %Yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>\n")
    x = rand(1)
    out = run(kernel(body, grid=4), {"X": x, "Y": np.zeros((4, 8), np.float16)})
    np.testing.assert_array_equal(out["Y"], x + x)
    (memory,) = made
    # X is adopted (served from the caller's array, docs in memory.py) and never copied;
    # Y, given as zeros, is copied in by the first store into it
    assert memory.copies_on_write == 0 and memory.overlays_copied == 1
    assert memory.adopted("global", 0, x.nbytes - 1)
    # without adoption the loads are lent from the buffer, and still nothing is copied
    made.clear()
    monkeypatch.setattr(DeviceMemory, "adopt", lambda self, space, first, data: (
        self.elements(space, data.dtype).__setitem__(
            slice(first // data.itemsize, first // data.itemsize + data.size), data)))
    out = run(kernel(body, grid=4), {"X": x, "Y": np.zeros((4, 8), np.float16)})
    np.testing.assert_array_equal(out["Y"], x + x)
    (memory,) = made
    assert memory.copies_on_write == 0 and memory._lent["global"]
