"""Every error path of the reference interpreter: a located SpyreSchedError, never a hang
or a traceback."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from emulator.reference import make_inputs, run
from spyre_sched.errors import ExecutionError, SpyreSchedError, UnsupportedError, VerifyError
from spyre_sched.frontend import load_kernel

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add_96x64.mlir"
KERNELS = Path(__file__).resolve().parent / "kernels"


def _add_inputs():
    return make_inputs(ADD, 0)


def _write(tmp_path, text: str, name: str = "k.mlir") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_rows_outside_the_view_are_masked_not_an_error(tmp_path):
    # Four rows per tile: tiles 24..31 reach rows 96.. of a 96-row view. Those positions
    # are masked (loads read zero, stores skip them); rows 0..95 are still A + B.
    text = ADD.read_text()
    text = text.replace("%c3 = arith.constant 3", "%c3 = arith.constant 4")
    text = text.replace("-d0 + 2 >= 0", "-d0 + 3 >= 0").replace("3x64xindex", "4x64xindex")
    text = text.replace("tensor<3x64xf16>", "tensor<4x64xf16>")
    path = _write(tmp_path, text)
    inputs = _add_inputs()
    out = run(path, inputs)
    want = (inputs["A"].astype(np.float32) + inputs["B"].astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(out["C"], want)


def test_gathered_index_outside_the_view_is_an_error(tmp_path):
    # Index value 21 is outside the 16-row view: a gathered coordinate is data, not a
    # tile overhanging its view, so it is not masked (docs/ktir.md).
    text = (KERNELS / "gather_scatter.mlir").read_text()
    path = _write(tmp_path, text)
    inputs = make_inputs(path, 0)
    inputs["I"] = np.array([0, 1, 2, 3, 4, 5, 6, 21], dtype=np.int32)
    with pytest.raises(ExecutionError, match=r"ktdp.load: indirect access tile at point "
                                             r"\(7, 0\) of the variables, from index value\(s\) 21: "
                                             r"coordinate \(21, 0\) is outside"):
        run(path, inputs)


def test_index_tensor_read_out_of_bounds(tmp_path):
    text = (KERNELS / "gather_scatter.mlir").read_text()
    text = text.replace("ind(%Iv[%i]), (%j)] {\n      variables_space_set = #vars",
                        "ind(%Iv[%i + 1]), (%j)] {\n      variables_space_set = #vars", 1)
    path = _write(tmp_path, text)
    with pytest.raises(ExecutionError, match=r"index tensor #0: coordinate \(8\) is outside"):
        run(path, make_inputs(path, 0))


def test_missing_input():
    inputs = _add_inputs()
    del inputs["B"]
    with pytest.raises(ExecutionError, match="missing input %B"):
        run(ADD, inputs)


def _nearest_f32(exact: Fraction) -> np.float32:
    """`exact` rounded once to float32, ties to even."""
    guess = np.float32(float(exact))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess,
                  np.nextafter(guess, np.float32(np.inf))]
    return min(candidates, key=lambda c: (abs(Fraction(float(c)) - exact),
                                          int(c.view(np.uint32)) & 1))


def test_missing_scalar_argument_says_how_to_give_it():
    """A loop bound the kernel takes as a scalar argument: run without its value, the
    error names the argument and the option that gives it."""
    kernel = KERNELS / "centered_rows_by_argument.mlir"
    inputs = make_inputs(kernel, 0)
    with pytest.raises(ExecutionError, match=r"missing scalar argument %chunks: give its value "
                       r"\(`--arg chunks=VALUE`"):
        run(kernel, inputs)
    x = inputs["X"]
    total = [np.float32(0)] * len(x)
    for chunk in range(4):  # the carried total plus each iteration's chunk, rounded once
        total = [_nearest_f32(Fraction(float(t)) + sum(Fraction(float(v)) for v in
                                                      row[chunk * 128:(chunk + 1) * 128]))
                 for t, row in zip(total, x)]
    want = x - np.array(total, dtype=np.float32)[:, None]
    assert np.array_equal(run(kernel, inputs, runtime_args={"chunks": 4})["Y"], want)


def test_wrong_shape():
    inputs = _add_inputs()
    inputs["A"] = inputs["A"][:95]
    with pytest.raises(ExecutionError, match=r"input %A has shape \[95, 64\], the kernel expects \[96x64\]"):
        run(ADD, inputs)


def test_wrong_dtype():
    inputs = _add_inputs()
    inputs["A"] = inputs["A"].astype(np.float64)
    with pytest.raises(ExecutionError, match="input %A has dtype float64; the kernel's element type f16 needs float16"):
        run(ADD, inputs)


def test_unknown_argument_name():
    with pytest.raises(ExecutionError, match="'Q' is not an argument of @add"):
        run(ADD, {**_add_inputs(), "Q": np.zeros(3)})


def test_runtime_argument_checks():
    path = KERNELS / "runtime_rows.mlir"
    inputs = make_inputs(path, 0)
    with pytest.raises(ExecutionError, match="missing run-time argument %n"):
        run(path, inputs)
    with pytest.raises(ExecutionError, match="%n = 100 must be a positive integer, a multiple of its granularity 64"):
        run(path, inputs, runtime_args={"n": 100})
    with pytest.raises(ExecutionError, match="%n = 320 .* at most its upperbound 256"):
        run(path, inputs, runtime_args={"n": 320})


def test_runtime_shape_follows_the_runtime_argument():
    path = KERNELS / "runtime_rows.mlir"
    x = np.random.default_rng(0).uniform(-2, 2, (192, 64)).astype(np.float16)
    for n in (64, 192):
        out = run(path, {"X": x}, runtime_args={"n": n})
        assert out["Y"].shape == (n, 64)
        np.testing.assert_array_equal(out["Y"], (x[:n].astype(np.float32) * 2).astype(np.float16))
    with pytest.raises(ExecutionError, match=r"input %X has shape \[192, 64\] but the kernel's views of it span \[256, 64\]"):
        run(path, {"X": x}, runtime_args={"n": 256})


def test_reduction_body_that_is_not_a_combine_runs_in_index_order(tmp_path):
    # acc <- x_k - acc is no associative combine: it runs literally, k = 0, 1, ... in f32.
    text = (ROOT / "examples" / "row_sum.mlir").read_text()
    text = text.replace("%s = arith.addf %w, %a : f32", "%s = arith.subf %w, %a : f32")
    path = _write(tmp_path, text)
    inputs = make_inputs(path, 0)
    out = run(path, inputs)
    x = inputs[next(iter(inputs))].astype(np.float32)
    acc = np.zeros(x.shape[0], np.float32)
    for k in range(x.shape[1]):
        acc = x[:, k] - acc
    np.testing.assert_array_equal(out[next(iter(out))], acc.astype(np.float16))


def test_unknown_op_is_unsupported_with_its_location(tmp_path):
    text = ADD.read_text().replace(
        "%c3 = arith.constant 3 : index",
        "%c3 = arith.constant 3 : index\n  %buf = memref.alloc() : memref<4xf16>")
    path = _write(tmp_path, text)
    with pytest.raises(UnsupportedError, match=r"k.mlir:9:\d+: error: tile 0: memref.alloc: this op is not supported"):
        run(path, _add_inputs())


def test_tile_shape_mismatch_is_a_warning_then_an_error_when_run(tmp_path):
    # The tile's set has 2 rows but its type (and the loaded tensor) say 3: the dialect
    # checks only ranks (a warning when read); the load cannot take the type's shape.
    text = ADD.read_text().replace("-d0 + 2 >= 0", "-d0 + 1 >= 0")
    path = _write(tmp_path, text)
    kernel = load_kernel(path)
    assert [w.code for w in kernel.warnings] == ["tile-shape"] * 3
    with pytest.raises(ExecutionError, match=r"access tile has shape \[2, 64\] .* tensor type says \[3, 64\]"):
        run(kernel, _add_inputs())


def test_tile_shape_mismatch_through_a_symbol_is_reported_when_run(tmp_path):
    # With a symbol the set's extent is known only at run time: symbols(%c2) gives 2 rows.
    text = ADD.read_text().replace(
        "#rows3 = affine_set<(d0, d1) : (d0 >= 0, -d0 + 2 >= 0,",
        "#rows3 = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0,",
    ).replace("%c3 = arith.constant 3 : index", "%c3 = arith.constant 3 : index\n  %c2 = arith.constant 2 : index")
    text = text.replace("[%row0, %c0] {", "[%row0, %c0] symbols(%c2) {")
    path = _write(tmp_path, text)
    with pytest.raises(ExecutionError, match=r"access tile has shape \[2, 64\] .* tensor type says \[3, 64\]"):
        run(path, _add_inputs())


def test_scratchpad_address_beyond_its_size():
    path = ROOT / "examples" / "softmax_rows.mlir"
    with pytest.raises(ExecutionError) as info:
        run(path, make_inputs(path, 0), scratchpad_bytes=1024)
    message = str(info.value)
    assert "tile 0: ktdp.store" in message
    assert "outside the scratchpad of tile 0 of 1024 bytes" in message


def test_bad_operands_are_a_located_error_not_a_traceback(tmp_path):
    # A slice past the end of the tensor: xDSL's verifier cannot see it, the run reports it.
    text = ADD.read_text().replace(
        "  ktdp.store %c, %Ct",
        "  %bad = tensor.extract_slice %c[2, 0] [2, 64] [1, 1] : tensor<3x64xf16> to tensor<2x64xf16>\n"
        "  ktdp.store %c, %Ct")
    path = _write(tmp_path, text)
    with pytest.raises(ExecutionError, match=r"k.mlir:\d+:\d+: error: tile 0: tensor.extract_slice: slice \[2, size 2"):
        run(path, _add_inputs())


def test_address_outside_global_memory(tmp_path):
    text = ADD.read_text().replace(
        "%Cv = ktdp.construct_memory_view %C,",
        "%Cx = arith.addi %C, %C : index\n  %Cv = ktdp.construct_memory_view %Cx,")
    path = _write(tmp_path, text)
    with pytest.raises(ExecutionError, match=r"tile 0: ktdp.store: coordinate \(0, 0\) maps to "
                       r"element address 24576 \(byte 49152\), outside global memory"):
        run(path, _add_inputs())


def test_index_arithmetic_overflow_is_located_at_the_op(tmp_path):
    text = ADD.read_text().replace("%c3 = arith.constant 3", "%c3 = arith.constant 9223372036854775807")
    text = text.replace("%row0 = arith.muli %id, %c3", "%row0 = arith.addi %c3, %c3")
    path = _write(tmp_path, text)
    with pytest.raises(ExecutionError) as info:
        run(path, _add_inputs())
    assert info.value.message == (
        "tile 0: arith.addi: operands (9223372036854775807, 9223372036854775807) give "
        "18446744073709551614, which overflows a 64-bit index")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "%row0 =" in ln)
    assert (info.value.location.line, info.value.location.col) == (line, 3)


def test_index_constant_beyond_64_bits_is_rejected_before_running(tmp_path):
    text = (ROOT / "examples" / "bias_add.mlir").read_text()
    text = text.replace("%c4 = arith.constant 4 :", "%c4 = arith.constant 9223372036854775808 :")
    with pytest.raises(VerifyError, match="the integer 9223372036854775808 is too large"):
        run(_write(tmp_path, text), {})


def test_a_group_set_far_larger_than_the_grid_runs_at_grid_cost(tmp_path):
    # 2^31 groups on 4 tiles: only the groups a tile belongs to are enumerated.
    text = (KERNELS / "pair_groups.mlir").read_text()
    huge = text.replace("#groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>",
                        "#groups = affine_set<(g) : (g >= 0, -g + 2147483648 >= 0)>")
    assert huge != text
    inputs = make_inputs(_write(tmp_path, text, "small.mlir"), 0)
    expected = run(_write(tmp_path, text, "small.mlir"), inputs)
    got = run(_write(tmp_path, huge), inputs)
    np.testing.assert_array_equal(got["Y"], expected["Y"])


def test_a_tile_in_unboundedly_many_groups(tmp_path):
    text = (KERNELS / "pair_groups.mlir").read_text()
    text = text.replace("#groups = affine_set<(g) : (g >= 0, -g + 1 >= 0)>",
                        "#groups = affine_set<(g) : (g >= 0)>")
    text = text.replace("#cons = affine_set<(i)[g] : (i - 2 * g >= 0, -i + 2 * g + 1 >= 0)>",
                        "#cons = affine_set<(i)[g] : (i >= 0)>")
    path = _write(tmp_path, text)
    with pytest.raises(ExecutionError, match=r"tile 0: ktdp.inter_tile_consume: tile 0 is a "
                       r"member of infinitely many groups") as info:
        run(path, make_inputs(path, 0))
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "inter_tile_consume" in ln)
    assert info.value.location.line == line


def test_addresses_beyond_64_bits_are_located_at_the_access_that_reaches_them(tmp_path):
    # A view may be larger than 64-bit addresses reach (only what is accessed must fit):
    # the store whose tile reaches beyond is the error.
    text = ADD.read_text().replace(
        "%Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [64, 1]",
        "%Cv = ktdp.construct_memory_view %C, sizes: [96, 64], strides: [4611686018427387904, 1]")
    path = _write(tmp_path, text)
    with pytest.raises(ExecutionError, match=r"tile 0: ktdp.store: the view's "
                       r"element addresses run from \d+ to \d+ .*beyond 64-bit byte addresses") as info:
        run(path, _add_inputs())
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "ktdp.store" in ln)
    assert info.value.location.line == line


def test_a_huge_stride_on_an_axis_of_extent_one_is_harmless(tmp_path):
    # One row: the row stride never moves an address, whatever its size.
    text = """\
#row = affine_set<(d0, d1) : (d0 >= 0, -d0 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @copy(%X: index, %Y: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [1, 64], strides: [64, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [1, 64], strides: [4611686018427387904, 1] {
      coordinate_set = #row, memory_space = #ktdp.memory_space<global>} : memref<1x64xf16>
  %Xt = ktdp.construct_access_tile %Xv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %Yt = ktdp.construct_access_tile %Yv[%c0, %c0] {access_tile_set = #row, access_tile_order = #id2}
      : memref<1x64xf16> -> !ktdp.access_tile<1x64xindex>
  %x = ktdp.load %Xt : !ktdp.access_tile<1x64xindex> -> tensor<1x64xf16>
  ktdp.store %x, %Yt : tensor<1x64xf16>, !ktdp.access_tile<1x64xindex>
  return
}
"""
    path = _write(tmp_path, text)
    inputs = make_inputs(path, 0)
    np.testing.assert_array_equal(run(path, inputs)["Y"], inputs["X"])


def test_tile_coordinates_past_the_grid_s_rank_are_zero(tmp_path):
    # A 1-D grid of 4 read as (x, y): y is 0 in every tile (dimensions of extent 1 added,
    # as the public KTIR interpreter does); each tile stores x + 10 * y at [x]
    text = """func.func @two_ids(%Y: index) attributes {grid = [4]} {
  %x, %y = ktdp.get_compute_tile_id : index, index
  %v = ktdp.construct_memory_view %Y, sizes: [4], strides: [1] {
      coordinate_set = affine_set<(d0) : (d0 >= 0, -d0 + 3 >= 0)>,
      memory_space = #ktdp.memory_space<global>} : memref<4xi32>
  %t = ktdp.construct_access_tile %v[%x] {
      access_tile_set = affine_set<(d0) : (d0 >= 0, -d0 >= 0)>,
      access_tile_order = affine_map<(d0) -> (d0)>} : memref<4xi32> -> !ktdp.access_tile<1xindex>
  %c10 = arith.constant 10 : index
  %ten_y = arith.muli %y, %c10 : index
  %s = arith.addi %x, %ten_y : index
  %i = arith.index_cast %s : index to i32
  %d = tensor.splat %i : tensor<1xi32>
  ktdp.store %d, %t : tensor<1xi32>, !ktdp.access_tile<1xindex>
  return
}
"""
    out = run(_write(tmp_path, text), {})
    np.testing.assert_array_equal(out["Y"], np.arange(4, dtype=np.int32))


def test_fewer_tile_coordinates_than_the_grid_s_rank_are_a_located_error(tmp_path):
    # two coordinates of a 3-D grid: which two is not said (the verifier says it too)
    text = ("func.func @two_ids() -> (index, index) attributes {grid = [2, 2, 2]} {\n"
            "  %0:2 = ktdp.get_compute_tile_id : index, index\n"
            "  return %0#0, %0#1 : index, index\n"
            "}\n")
    with pytest.raises(SpyreSchedError) as err:
        run(_write(tmp_path, text), {})
    assert "2 results but the grid [2, 2, 2] has 3 dimensions" in err.value.message
    assert err.value.location.line == 2


def test_a_view_as_an_argument_is_a_located_error(tmp_path):
    # a launch gives pointers and scalars; a memref argument used to crash the reference
    text = ("func.func @views(%a: memref<32x64xf16>, %b: memref<32x64xf16>) -> memref<64x64xf16> {\n"
            "  %dv = ktdp.construct_distributed_memory_view (%a, %b : memref<32x64xf16>, "
            "memref<32x64xf16>) : memref<64x64xf16>\n"
            "  return %dv : memref<64x64xf16>\n"
            "}\n")
    with pytest.raises(ExecutionError) as err:
        run(_write(tmp_path, text), {"a": 1000, "b": 1000})
    assert "argument %a is a memref<32x64xf16>" in err.value.message
    assert err.value.location.line == 1


def test_a_loop_too_long_to_interpret_is_a_located_error(tmp_path):
    """A mutated bound (2^62 iterations of a loop whose accesses all fall outside the view,
    so no iteration fails) ran forever; the interpreter refuses it up front, at the loop."""
    text = (ROOT / "tests" / "normalize" / "kernels" / "reshape_rows.mlir").read_text()
    long = text.replace("%c2 = arith.constant 2 : index",
                        "%c2 = arith.constant 4611686018427387904 : index")
    assert long != text
    path = _write(tmp_path, long)
    with pytest.raises(ExecutionError, match=r"k.mlir:\d+:\d+: error: tile 0: scf.for: the "
                       r"loop runs 4611686018427387904 iterations"):
        run(path, make_inputs(path, 0))
    # 2^31 (a mutant the robustness tests made) would run for hours: refused too
    hours = text.replace("%c2 = arith.constant 2 : index",
                         "%c2 = arith.constant 2147483648 : index")
    path = _write(tmp_path, hours)
    with pytest.raises(ExecutionError, match=r"loop runs 2147483648 iterations"):
        run(path, make_inputs(path, 0))
