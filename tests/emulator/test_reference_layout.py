"""Inputs and outputs are the memory at each pointer; the views' strides say where each
element lies in it (docs/ktir.md, "Arguments"). A tensor spread over several scratchpads
is the exception: it is given whole and placed part by part."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from emulator.reference import make_inputs, run
from emulator.reference.layout import layout_of
from spyre_sched.frontend import parse_kernel
from spyre_sched.frontend.arguments import infer_arguments

ADD = (Path(__file__).parents[2] / "examples" / "add_96x64.mlir").read_text()


def f16(x):
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float16)


def _with_strides(text: str, name: str, strides: str) -> str:
    old = f"%{name}, sizes: [96, 64], strides: [64, 1]"
    assert old in text
    return text.replace(old, f"%{name}, sizes: [96, 64], strides: {strides}")


def test_column_major_input_and_padded_output():
    text = _with_strides(ADD, "A", "[1, 96]")          # A stored column-major
    text = _with_strides(text, "C", "[128, 1]")        # C rows padded to 128 elements
    kernel = parse_kernel(text, "strided.mlir")
    args = {a.name: a for a in infer_arguments(kernel.func)}
    assert args["A"].shape == (96 * 64,) and args["A"].flat
    assert args["C"].shape == (95 * 128 + 64,)  # the last row needs only its 64 elements
    assert args["B"].shape == (96, 64) and not args["B"].flat
    inputs = make_inputs(kernel, 3)
    out = run(kernel, inputs)
    a = inputs["A"].reshape(64, 96).T  # element (i, j) at i + 96 j
    at = (128 * np.arange(96)[:, None] + np.arange(64)).reshape(-1)
    np.testing.assert_array_equal(out["C"][at].reshape(96, 64),
                                  f16(a.astype(np.float64) + inputs["B"]))
    rest = np.ones(out["C"].size, bool)
    rest[at] = False
    assert np.isnan(out["C"][rest]).all()  # the padding: no view writes it (poison)


def test_view_of_a_sub_block_starts_at_its_own_minimum():
    # A view holding only rows 32..63 of a tensor: its first element is at the pointer.
    text = """\
#rows = affine_set<(d0, d1) : (d0 - 32 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @copy(%X: index, %Y: index) attributes {grid = [1]} {
  %c32 = arith.constant 32 : index
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [32, 64], strides: [1, 32] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [32, 64], strides: [64, 1] {
      coordinate_set = #rows, memory_space = #ktdp.memory_space<global>} : memref<32x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c32, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id2}
      : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c32, %c0] {access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 31 >= 0, d1 >= 0, -d1 + 63 >= 0)>, access_tile_order = #id2}
      : memref<32x64xf16> -> !ktdp.access_tile<32x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<32x64xindex> -> tensor<32x64xf16>
  ktdp.store %x, %Yt : tensor<32x64xf16>, !ktdp.access_tile<32x64xindex>
  return
}
"""
    kernel = parse_kernel(text, "sub.mlir")
    x = np.random.default_rng(0).uniform(-2, 2, 32 * 64).astype(np.float16)
    out = run(kernel, {"X": x})
    assert out["Y"].shape == (32, 64)  # a dense row-major view of rows 32..63
    np.testing.assert_array_equal(out["Y"], x.reshape(64, 32).T)


def test_offset_pointer_keeps_the_flat_layout():
    # %O + tile * 1024: no single strided layout; argument inference gives a flat block.
    path = Path(__file__).parents[1] / "polyhedral" / "kernels" / "loop_runtime.mlir"
    kernel = parse_kernel(path.read_text(), str(path))
    assert layout_of(kernel.func, 2) is None


def test_argument_distributed_over_scratchpads_is_placed_part_by_part():
    """X and Y are spread over four scratchpads by views of one pointer each."""
    path = Path(__file__).parent / "kernels" / "distributed_argument.mlir"
    inputs = make_inputs(path, 2)
    out = run(path, inputs)
    x = inputs["X"]
    expected = np.concatenate([x[(32 * t + 16) % 112:][:32] for t in range(4)])
    np.testing.assert_array_equal(out["O"], expected)
    np.testing.assert_array_equal(out["Y"], f16(2 * x.astype(np.float64)))


def test_each_part_lands_in_the_scratchpad_its_view_names():
    from emulator.reference.layout import layout_of
    from spyre_sched.frontend import load_kernel

    kernel = load_kernel(Path(__file__).parent / "kernels" / "distributed_argument.mlir")
    layout = layout_of(kernel.func, 0)
    assert [p.tile for p in layout.parts] == [0, 1, 2, 3]
    assert layout.size() == 32 * 64  # every part starts at the pointer in its scratchpad
    index, address = layout.part_addresses(layout.parts[2], (128, 64))
    rows, cols = np.unravel_index(index, (128, 64))
    assert rows.min() == 64 and rows.max() == 95
    np.testing.assert_array_equal(address, (rows - 64) * 64 + cols)
