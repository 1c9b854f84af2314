"""A view's stride given as a value that folds to a constant (an argument bound by
`--arg`, or constants) is made static before scheduling (`frontend/constant_strides.py`).
The kernel is written here rather than as a file: the differential gate compiles kernel
files without their scalar arguments, and a stride that stays a run-time value is refused."""

from __future__ import annotations

import pytest

import spyre_sched
from spyre_sched.errors import SpyreSchedError
from spyre_sched.frontend import parse_kernel
from spyre_sched.frontend.bind_arguments import bind_scalar_arguments
from spyre_sched.frontend.constant_strides import fold_constant_strides

# rows of an argument-given length, copied plus one: the row stride is %n
KERNEL = """
func.func @rows(%X: index, %Y: index, %n: i32) attributes {grid = [2]} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %s = arith.index_cast %n : i32 to index
  %t = ktdp.get_compute_tile_id : index
  %r = arith.muli %t, %c4 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [8, 16], strides: [%s, %c1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [8, 16], strides: [16, 1] {
    coordinate_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 7 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    memory_space = #ktdp.memory_space<global>} : memref<8x16xf16>
  %a = ktdp.construct_access_tile %Xv[%r, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %b = ktdp.construct_access_tile %Yv[%r, %c0] {
    access_tile_set = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 15 >= 0)>,
    access_tile_order = affine_map<(d0, d1) -> (d0, d1)>} : memref<8x16xf16> -> !ktdp.access_tile<4x16xindex>
  %x = ktdp.load %a : !ktdp.access_tile<4x16xindex> -> tensor<4x16xf16>
  %one = arith.constant dense<1.0> : tensor<4x16xf16>
  %y = arith.addf %x, %one : tensor<4x16xf16>
  ktdp.store %y, %b : tensor<4x16xf16>, !ktdp.access_tile<4x16xindex>
  return
}
"""


def _view_strides(kernel):
    views = [op for op in kernel.func.walk() if op.name == "ktdp.construct_memory_view"]
    return [(list(v.static_strides.get_values()), len(v.strides)) for v in views]


def test_a_stride_bound_by_an_argument_becomes_static():
    kernel = parse_kernel(KERNEL, "rows.mlir")
    assert fold_constant_strides(kernel) == 0  # %n unknown: stays a run-time value
    bind_scalar_arguments(kernel, {"n": 24})
    assert fold_constant_strides(kernel) == 2
    assert _view_strides(kernel) == [([24, 1], 0), ([16, 1], 0)]
    kernel.func.verify()


@pytest.mark.parametrize("row_stride", [16, 20])
def test_padded_rows_given_by_an_argument_match(tmp_path, row_stride):
    path = tmp_path / "rows.mlir"
    path.write_text(KERNEL)
    result = spyre_sched.run(str(path), runtime_args={"n": row_stride}, strategy="heuristic")
    assert result.verdict == "MATCH", result.mismatches


def test_without_the_argument_the_run_time_stride_is_refused(tmp_path):
    path = tmp_path / "rows.mlir"
    path.write_text(KERNEL)
    with pytest.raises(SpyreSchedError, match="run-time strides"):
        spyre_sched.compile(str(path))


@pytest.mark.parametrize("spelling, stride", [
    ("arith.divui %c96, %c4", 24), ("arith.divsi %c96, %c4", 24),
    ("arith.floordivsi %c98, %c4", 24), ("arith.ceildivsi %c94, %c4", 24),
    ("arith.remui %c98, %c26", 20), ("arith.remsi %c98, %c26", 20),
])
def test_a_stride_divided_from_constants_becomes_static(spelling, stride):
    text = KERNEL.replace("%s = arith.index_cast %n : i32 to index",
                          "%c96 = arith.constant 96 : index\n  %c94 = arith.constant 94 : index\n"
                          "  %c98 = arith.constant 98 : index\n  %c26 = arith.constant 26 : index\n"
                          f"  %s = {spelling} : index")
    kernel = parse_kernel(text, "rows.mlir")
    assert fold_constant_strides(kernel) == 2
    assert _view_strides(kernel)[0] == ([stride, 1], 0)


def test_a_division_by_zero_is_not_folded():
    text = KERNEL.replace("%s = arith.index_cast %n : i32 to index",
                          "%c96 = arith.constant 96 : index\n  %s = arith.divui %c96, %c0 : index")
    kernel = parse_kernel(text, "rows.mlir")
    assert fold_constant_strides(kernel) == 0  # the view keeps its run-time strides
    assert _view_strides(kernel)[0][1] == 2
