"""The reference interpreter's error bounds (`reference.run_with_error_bounds`): the same
outputs as `run`, zero bounds where no reordered sum reaches, and bounds that contain what a
hardware-order executor computes, checked by executing the kernels' formulas by hand in
other summation orders with the shared op table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import emulator.reference as reference
from emulator.numerics import apply_op, compare_with_bound, reduce
from spyre_sched.cli import main
from spyre_sched.errors import UnsupportedError
from spyre_sched.frontend import load_kernel

ROOT = Path(__file__).parents[2]


def bounded_run(path, seed=0, accumulator="f32"):
    kernel = load_kernel(path)
    inputs = reference.make_inputs(kernel, seed)
    outputs, bounds = reference.run_with_error_bounds(kernel, inputs, accumulator)
    return kernel, inputs, outputs, bounds


@pytest.mark.parametrize("path", ["examples/add_96x64.mlir", "examples/fused_gelu.mlir",
                                  "examples/bias_add.mlir",
                                  "tests/emulator/kernels/scale_rows.mlir"])
def test_elementwise_kernels_must_match_bit_for_bit(path):
    kernel, inputs, outputs, bounds = bounded_run(ROOT / path)
    plain = reference.run(kernel, inputs)
    for name, value in plain.items():
        assert np.array_equal(outputs[name], value)
        assert not bounds[name].any(), name


def chunked(terms: np.ndarray, width: int, reverse: bool) -> np.ndarray:
    """Each chunk's exact sum rounded to f32, chunks added in f32 (the emulator's order)."""
    starts = list(range(0, terms.shape[-1], width))
    acc = np.zeros(terms.shape[:-1], dtype=np.float32)
    for s in reversed(starts) if reverse else starts:
        acc = apply_op("arith.addf", "f32", acc, reduce("add", terms[..., s:s + width], -1, "f32"))
    return acc


def f32(name, *operands):
    return apply_op(name, "f32", *operands)


@pytest.mark.parametrize("width, reverse", [(32, False), (64, True), (8, False), (256, False)])
def test_layernorm_in_hardware_order_is_within_the_bounds(width, reverse):
    """The formula of bench/kernels/quick/layernorm.mlir with both sums taken chunk by chunk:
    every output, near zero after the cancellations too, lies within its bound."""
    _, inputs, outputs, bounds = bounded_run(ROOT / "bench/kernels/quick/layernorm.mlir")
    x = apply_op("arith.extf", "f16", inputs["X"], result_type="f32")
    g = apply_op("arith.extf", "f16", inputs["gamma"], result_type="f32")
    b = apply_op("arith.extf", "f16", inputs["beta"], result_type="f32")
    inv_n, eps = np.float32(0.00390625), np.float32(1e-5)
    mean = f32("arith.mulf", chunked(x, width, reverse), inv_n)[:, None]
    d = f32("arith.subf", x, mean)
    ssq = chunked(f32("arith.mulf", d, d), width, reverse)
    rstd = apply_op("spyreop.rsqrt", "f32", f32("arith.addf", f32("arith.mulf", ssq, inv_n),
                                                 eps))[:, None]
    y = f32("arith.addf", f32("arith.mulf", f32("arith.mulf", d, rstd), g), b)
    hardware = apply_op("arith.truncf", "f32", y, result_type="f16")
    ok, diff, _ = compare_with_bound(hardware, outputs["Y"], bounds["Y"])
    assert ok.all(), np.argwhere(~ok)[:5]
    assert bounds["Y"].any() and not bounds["Y"].all()  # most f16 results cannot flip


def test_row_sum_bound_holds_in_any_order_and_a_dropped_chunk_breaks_it():
    _, inputs, outputs, bounds = bounded_run(ROOT / "examples/row_sum.mlir")
    x = apply_op("arith.extf", "f16", inputs["X"], result_type="f32")
    assert (bounds["S"] > 0).all()
    for width, reverse in ((32, False), (16, True), (512, False)):
        got = apply_op("arith.truncf", "f32", chunked(x, width, reverse), result_type="f16")
        assert compare_with_bound(got, outputs["S"], bounds["S"])[0].all()
    dropped = apply_op("arith.truncf", "f32", chunked(x[:, 32:], 32, False), result_type="f16")
    assert not compare_with_bound(dropped, outputs["S"], bounds["S"])[0].all()


def test_bounds_travel_through_device_memory():
    """softmax_rows stores the row sums in a scratchpad in one program and divides by them
    in the next: the division's outputs inherit the sums' bounds."""
    _, _, outputs, bounds = bounded_run(ROOT / "examples/softmax_rows.mlir")
    assert bounds["Y"].shape == outputs["Y"].shape and bounds["Y"].any()


def _row_sum_with_comparison(tmp_path: Path) -> Path:
    """examples/row_sum.mlir with its sum passed through a comparison (a select on > 0)."""
    text = (ROOT / "examples/row_sum.mlir").read_text()
    body = "    %n = arith.truncf %se : f32 to f16\n"
    assert body in text
    path = tmp_path / "row_sum_cmp.mlir"
    path.write_text(text.replace(body, (
        "    %zf = arith.constant 0.0 : f32\n"
        "    %pos = arith.cmpf ogt, %se, %zf : f32\n"
        "    %sel = arith.select %pos, %se, %zf : f32\n"
        "    %n = arith.truncf %sel : f32 to f16\n")))
    return path


def test_a_bound_reaching_a_comparison_is_refused_with_its_location(tmp_path):
    path = _row_sum_with_comparison(tmp_path)
    kernel = load_kernel(path)
    with pytest.raises(UnsupportedError, match="arith.cmpf") as info:
        reference.run_with_error_bounds(kernel, reference.make_inputs(kernel, 0), "f32")
    assert "row_sum_cmp.mlir:" in str(info.value)
    reference.run(kernel, reference.make_inputs(kernel, 0))  # without bounds it runs


def test_a_bound_the_rule_cannot_carry_is_a_located_error(tmp_path):
    """A comparison of a row sum: `run` exits 1 with the op and the user's file, no traceback."""
    path = _row_sum_with_comparison(tmp_path)
    out = CliRunner().invoke(main, ["run", str(path), "--strategy", "heuristic"])
    assert out.exit_code == 1, out.output
    assert f"{path}:" in out.output and "arith.cmpf" in out.output
    assert "Traceback" not in out.output


LOOP_SUM = """
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 1 >= 0, d1 >= 0, -d1 + 127 >= 0)>
#whole = affine_set<(d0, d1) : (d0 >= 0, -d0 + 63 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#out = affine_set<(d0) : (d0 >= 0, -d0 + 63 >= 0)>
#two = affine_set<(d0) : (d0 >= 0, -d0 + 1 >= 0)>
#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#rowmap = affine_map<(d0, d1) -> (d0)>

func.func @loop_sum(%X: index, %S: index) attributes {grid = [32]} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant 0.0 : f32
  %t = ktdp.get_compute_tile_id : index
  %row = arith.muli %t, %c2 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [64, 512], strides: [512, 1] {
      coordinate_set = #whole, memory_space = #ktdp.memory_space<global>} : memref<64x512xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [64], strides: [1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<64xf16>
  %St = ktdp.construct_access_tile %Sv[%row] {access_tile_set = #two, access_tile_order = #id1}
      : memref<64xf16> -> !ktdp.access_tile<2xindex>
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %sum = scf.for %j = %c0 to %c512 step %c128 iter_args(%acc = %init) -> (tensor<2xf32>) {
    %Xt = ktdp.construct_access_tile %Xv[%row, %j] {access_tile_set = #blk, access_tile_order = #id2}
        : memref<64x512xf16> -> !ktdp.access_tile<2x128xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<2x128xindex> -> tensor<2x128xf16>
    %s = linalg.generic {indexing_maps = [#id2, #rowmap], iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<2x128xf16>) outs(%acc : tensor<2xf32>) {
    ^bb0(%xe: f16, %a: f32):
      %w = arith.extf %xe : f16 to f32
      %n = arith.addf %w, %a : f32
      linalg.yield %n : f32
    } -> tensor<2xf32>
    scf.yield %s : tensor<2xf32>
  }
  %h0 = tensor.empty() : tensor<2xf16>
  %h = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<2xf32>) outs(%h0 : tensor<2xf16>) {
  ^bb0(%se: f32, %o: f16):
    %r = arith.truncf %se : f32 to f16
    linalg.yield %r : f16
  } -> tensor<2xf16>
  ktdp.store %h, %St : tensor<2xf16>, !ktdp.access_tile<2xindex>
  return
}
"""


def test_bounds_go_round_an_scf_for_with_the_values_it_carries(tmp_path):
    """A row sum taken block by block in a KTIR loop (the carried partial is each block's
    init): summed in 32-wide chunks across the whole row instead, it stays within bounds."""
    path = tmp_path / "loop_sum.mlir"
    path.write_text(LOOP_SUM)
    _, inputs, outputs, bounds = bounded_run(path, seed=5)
    assert bounds["S"].any()  # (an f16 sum its bound cannot move across a rounding: 0)
    x = apply_op("arith.extf", "f16", inputs["X"], result_type="f32")
    for width, reverse in ((32, False), (64, True)):
        got = apply_op("arith.truncf", "f32", chunked(x, width, reverse), result_type="f16")
        assert compare_with_bound(got, outputs["S"], bounds["S"])[0].all()
    dropped = apply_op("arith.truncf", "f32", chunked(x[:, 64:], 32, False), result_type="f16")
    assert not compare_with_bound(dropped, outputs["S"], bounds["S"])[0].all()


BLOCK_SUM = """
#blk = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 511 >= 0)>
#out = affine_set<(d0, d1) : (d0 >= 0, -d0 + 3 >= 0, d1 >= 0, -d1 + 63 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @block_sum(%X: index, %S: index) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c512 = arith.constant 512 : index
  %Xv = ktdp.construct_memory_view %X, sizes: [4, 512], strides: [512, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<4x512xf16>
  %Sv = ktdp.construct_memory_view %S, sizes: [4, 64], strides: [64, 1] {
      coordinate_set = #out, memory_space = #ktdp.memory_space<global>} : memref<4x64xf16>
  %St = ktdp.construct_access_tile %Sv[%c0, %c0] {access_tile_set = #blk, access_tile_order = #id2}
      : memref<4x64xf16> -> !ktdp.access_tile<4x64xindex>
  %zeros = arith.constant dense<0.0> : tensor<4x64xf16>
  %sum = scf.for %col = %c0 to %c512 step %c64 iter_args(%acc = %zeros) -> tensor<4x64xf16> {
    %Xt = ktdp.construct_access_tile %Xv[%c0, %col] {access_tile_set = #blk, access_tile_order = #id2}
        : memref<4x512xf16> -> !ktdp.access_tile<4x64xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<4x64xindex> -> tensor<4x64xf16>
    %next = arith.addf %acc, %x : tensor<4x64xf16>
    scf.yield %next : tensor<4x64xf16>
  }
  ktdp.store %sum, %St : tensor<4x64xf16>, !ktdp.access_tile<4x64xindex>
  return
}
"""


@pytest.mark.parametrize("accumulator", ["f16", "f32"])
def test_a_sum_a_loop_carries_is_bounded_for_any_order(tmp_path, accumulator):
    """`acc = acc + x_k` over 8 blocks: the reference adds in loop order, rounding to f16
    each time; summed in another order in the accumulator (the blocks reversed, or exactly
    and rounded once) the result stays within the loop's bound. Before the loop was a
    source, the bound was 0 and any other order failed."""
    path = tmp_path / "block_sum.mlir"
    path.write_text(BLOCK_SUM)
    _, inputs, outputs, bounds = bounded_run(path, seed=3, accumulator=accumulator)
    assert bounds["S"].any()
    blocks = inputs["X"].reshape(4, 8, 64).transpose(0, 2, 1)  # [row, col, block]
    terms = blocks if accumulator == "f16" else apply_op(
        "arith.extf", "f16", blocks, result_type=accumulator)
    acc = terms[..., 7]
    for k in reversed(range(7)):
        acc = apply_op("arith.addf", accumulator, acc, terms[..., k])
    reversed_sum = acc if accumulator == "f16" else apply_op(
        "arith.truncf", accumulator, acc, result_type="f16")
    once = reduce("add", blocks, -1, "f16")
    for got in (reversed_sum, once):
        assert compare_with_bound(got, outputs["S"], bounds["S"])[0].all()
    assert not (reversed_sum == outputs["S"]).all() or not (once == outputs["S"]).all()
    wrong = apply_op("arith.addf", "f16", once, np.float16(0.25))
    assert not compare_with_bound(wrong, outputs["S"], bounds["S"])[0].all()
