"""What the normal form refuses, it refuses at the op the kernel wrote: FILE:LINE:COL of
that op, even when the op the pass saw was made by an earlier normal-form pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from spyre_sched.errors import SpyreSchedError

KERNELS = Path(__file__).resolve().parent / "kernels"

_SUBTRACTING_REDUCE = (KERNELS / "sum_onto_loaded.mlir").read_text().replace(
    "%sum = arith.addf %in, %acc : f32\n      linalg.yield %sum",
    "%sum = arith.subf %acc, %in : f32\n      linalg.yield %sum")

_EXTRACT_OF_A_ROW = (KERNELS / "extract_softmax.mlir").read_text().replace(
    "%m = tensor.extract %mx[%c0] : tensor<1xf16>",
    "%m = tensor.extract %x[%c0, %c0] : tensor<1x128xf16>")

_RESHAPES = """func.func @reshapes(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x64xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [128], strides: [1] {
    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<128xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 31 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x64xf16> -> !ktdp.access_tile<4x32xindex>
  %yt = ktdp.construct_access_tile %yv[%c0] {
    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 127 >= 0)>,
    access_tile_order = affine_map<(d0) -> (d0)> } : memref<128xf16> -> !ktdp.access_tile<128xindex>
  %x = ktdp.load %xt : <4x32xindex> -> tensor<4x32xf16>
  %y = arith.addf %x, %x : tensor<4x32xf16>
  %flat = tensor.collapse_shape %SRC [[0, 1]] : tensor<4x32xf16> into tensor<128xf16>
  %z = arith.addf %flat, %flat : tensor<128xf16>
  ktdp.store %z, %yt : tensor<128xf16>, <128xindex>
  return
}
"""
# a 4x32 block of rows of 64 seen as 128 elements: not one strided run of memory (staged
# through the tile's scratchpad, not refused)
_RESHAPE_ACROSS_ROWS = _RESHAPES.replace("%SRC", "%x")
# a reshape of an elementwise compute moves to its inputs: here the 4x32 tile, staged
_RESHAPE_OF_COMPUTE = _RESHAPES.replace("%SRC", "%y")
# a reshape of a reduction's result that compute then uses (elementwise, as here: the
# compute runs over the sums' shape, the reshape moves to the store)
_REDUCTION_THEN_RESHAPE = """func.func @reshaped_sums(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %xv = ktdp.construct_memory_view %X, sizes: [4, 64], strides: [64, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<4x64xf16>
  %yv = ktdp.construct_memory_view %Y, sizes: [2, 2], strides: [2, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>,
    memory_space = #ktdp.memory_space<global> } : memref<2x2xf16>
  %xt = ktdp.construct_access_tile %xv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %yt = ktdp.construct_access_tile %yv[%c0, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<2x2xf16> -> !ktdp.access_tile<2x2xindex>
  %x = ktdp.load %xt : <4x64xindex> -> tensor<4x64xf16>
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4xf16>
  %init = linalg.fill ins(%zero : f16) outs(%e : tensor<4xf16>) -> tensor<4xf16>
  %r = linalg.reduce { arith.addf } ins(%x : tensor<4x64xf16>) outs(%init : tensor<4xf16>) dimensions = [1]
  %sq = tensor.expand_shape %r [[0, 1]] output_shape [2, 2] : tensor<4xf16> into tensor<2x2xf16>
  %z = arith.addf %sq, %sq : tensor<2x2xf16>
  ktdp.store %z, %yt : tensor<2x2xf16>, <2x2xindex>
  return
}
"""
# a slice of a reduction's result (the first two row sums), computed with and stored
_SLICE_OF_REDUCTION = _REDUCTION_THEN_RESHAPE.replace(
    "sizes: [2, 2], strides: [2, 1] {\n"
    "    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>",
    "sizes: [2], strides: [1] {\n"
    "    coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>").replace(
    "memref<2x2xf16>", "memref<2xf16>").replace(
    "%yt = ktdp.construct_access_tile %yv[%c0, %c0] {\n"
    "    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 1 >= 0)>,\n"
    "    access_tile_order = affine_map<(d0, d1) -> (d0, d1)> } : memref<2xf16> -> !ktdp.access_tile<2x2xindex>",
    "%yt = ktdp.construct_access_tile %yv[%c0] {\n"
    "    access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>,\n"
    "    access_tile_order = affine_map<(d0) -> (d0)> } : memref<2xf16> -> !ktdp.access_tile<2xindex>").replace(
    "%sq = tensor.expand_shape %r [[0, 1]] output_shape [2, 2] : tensor<4xf16> into tensor<2x2xf16>\n"
    "  %z = arith.addf %sq, %sq : tensor<2x2xf16>\n"
    "  ktdp.store %z, %yt : tensor<2x2xf16>, <2x2xindex>",
    "%two = tensor.extract_slice %r[0] [2] [1] : tensor<4xf16> to tensor<2xf16>\n"
    "  %z = arith.addf %two, %two : tensor<2xf16>\n"
    "  ktdp.store %z, %yt : tensor<2xf16>, <2xindex>")
assert "%two = tensor.extract_slice" in _SLICE_OF_REDUCTION and "2x2" not in _SLICE_OF_REDUCTION
# the reshaped sums read by a transpose: neither way open (a reshape moves through
# elementwise computes only)
_RESHAPE_OF_REDUCTION = _REDUCTION_THEN_RESHAPE.replace(
    "%z = arith.addf %sq, %sq : tensor<2x2xf16>",
    "%e2 = tensor.empty() : tensor<2x2xf16>\n"
    "  %z = linalg.transpose ins(%sq : tensor<2x2xf16>) outs(%e2 : tensor<2x2xf16>) "
    "permutation = [1, 0]")
assert "linalg.transpose" in _RESHAPE_OF_REDUCTION
# two gathered pages of 16 slots (pages j and j + 1) seen as 32 rows: merges a dimension
# of extent 2, not only ones of extent 1 (the gather keeps its variables' shape; the merge
# moves down through the compute to the store)
_RESHAPE_OF_PAGES = (KERNELS / "gathered_page_reshape.mlir").read_text() \
    .replace("-d0 >= 0, d1 >= 0, -d1 + 15", "-d0 + 1 >= 0, d1 >= 0, -d1 + 15") \
    .replace("1x16x1x64", "2x16x1x64") \
    .replace("%k = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<2x16x1x64xf16> into tensor<16x64xf16>",
             "%k = tensor.collapse_shape %k4 [[0, 1], [2, 3]] : tensor<2x16x1x64xf16> into tensor<32x64xf16>") \
    .replace("tensor<16x64xf16>", "tensor<32x64xf16>") \
    .replace("-d0 + 15 >= 0, d1 >= 0, -d1 + 63", "-d0 + 31 >= 0, d1 >= 0, -d1 + 63") \
    .replace("access_tile<16x64xindex>", "access_tile<32x64xindex>") \
    .replace("%c0 to %c4 step %c1", "%c0 to %c4 step %c2") \
    .replace("%c4 = arith.constant 4 : index", "%c4 = arith.constant 4 : index\n  %c2 = arith.constant 2 : index")


# the tile's first row a multiple of 48, its pages 32 rows: (row + t) floordiv 32 does not
# split (48 is no multiple of 32), so the subscript stays what it was and is refused
_ROWS_OFF_THE_PAGES = (KERNELS / "paged_rows_from_tile_row.mlir").read_text() \
    .replace("%c64 = arith.constant 64", "%c64 = arith.constant 48")


def _schedule(text: str, tmp_path: Path):
    from spyre_sched.frontend import load_kernel
    from spyre_sched.pipeline import schedule

    path = tmp_path / "kernel.mlir"
    path.write_text(text)
    return schedule(load_kernel(str(path)), "spyre")


def _line_of(text: str, needle: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("text,needle,message", [
    (_SUBTRACTING_REDUCE, "= linalg.reduce",
     "a reduction whose initial value is not a fill and whose body does not end in addf"),
    (_EXTRACT_OF_A_ROW, "= tensor.extract %x",
     "not supported yet: tensor.extract of one element of a tensor<1x128xf16> (only the "
     "element of a one-element tensor"),
    (_RESHAPE_OF_REDUCTION, "%sq = tensor.expand_shape",
     "not supported yet: tensor.expand_shape of a computed value made by linalg.reduce, "
     "which is not elementwise"),
    (_SLICE_OF_REDUCTION, "%two = tensor.extract_slice",
     "not supported yet: tensor.extract_slice of a computed value made by linalg.reduce, "
     "which is not elementwise"),
    (_ROWS_OFF_THE_PAGES, "%Xt = ktdp.construct_indirect_access_tile",
     "not supported yet: subscript 1 of an indirect access tile (((s0 + d0) mod 32)) is not "
     "linear in the variables and outer values"),
], ids=["reduction-combiner", "extract-of-a-row", "reshape-of-reduction",
        "slice-of-reduction", "rows-off-the-pages"])
def test_refusal_is_located_at_the_written_op(text: str, needle: str, message: str,
                                              tmp_path: Path) -> None:
    assert needle in text
    with pytest.raises(SpyreSchedError) as err:
        _schedule(text, tmp_path)
    shown = str(err.value)
    assert message in shown
    assert f"kernel.mlir:{_line_of(text, needle)}:" in shown


@pytest.mark.parametrize("text", [_RESHAPE_ACROSS_ROWS, _RESHAPE_OF_COMPUTE],
                         ids=["reshape-across-rows", "reshape-of-compute"])
def test_a_reshape_of_rows_apart_is_staged_not_refused(text: str, tmp_path: Path) -> None:
    import spyre_sched

    path = tmp_path / "kernel.mlir"
    path.write_text(text)
    result = spyre_sched.run(str(path), device="spyre")
    assert result.matches, result.mismatches


def test_two_gathered_pages_merged_into_rows_are_merged_on_the_store_side(tmp_path: Path) -> None:
    """The gathered 2x16x1x64 pages collapsed to 32 rows: the gather's shape is its
    variables', so the collapse moves down through the doubling to the output's store;
    the output is the one-page-at-a-time kernel's, by the reference and by numpy."""
    import numpy as np

    import spyre_sched
    from test_normalize_kernels import _gathered_page_reshape

    path = tmp_path / "kernel.mlir"
    path.write_text(_RESHAPE_OF_PAGES)
    inputs, expected = _gathered_page_reshape(np.random.default_rng(7))
    result = spyre_sched.run(str(path), inputs, device="spyre")
    assert result.matches, result.mismatches
    np.testing.assert_allclose(result.outputs["O"].astype(np.float64), expected["O"],
                               rtol=2e-2, atol=2e-2)
