"""What the reference interpreter keeps per kernel between runs (`run.KernelSetup`: argument
inference, layouts, the polyhedral model) and per op (`interpreter.op_static`,
`block_plan`, access plans) never changes an answer: runs of one kernel object with other
inputs, run-time values and shapes give what a freshly loaded kernel gives, bit for bit,
bounds included, and the set-up is computed once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import importlib

from emulator.reference import make_inputs, run, run_with_error_bounds
from spyre_sched.errors import ExecutionError
from spyre_sched.frontend import load_kernel, parse_kernel

run_module = importlib.import_module("emulator.reference.run")  # (the package exports `run`)
KERNELS = Path(__file__).parent / "kernels"
EXAMPLES = Path(__file__).parents[2] / "examples"

# Y = X + X over a run-time number of rows with no upper bound: each run-time value bounds
# the arguments anew (the setup keeps one bounded argument list per value).
UNBOUNDED_ROWS = """
#all = affine_set<(d0, d1)[s0] : (d0 >= 0, s0 - 1 - d0 >= 0, d1 >= 0, -d1 + 7 >= 0)>
#row = affine_set<(d0, d1) : (d0 == 0, d1 >= 0, -d1 + 7 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @rows(%X: index, %Y: index, %n: !ktdp.runtime_arg<index, granularity = 1>) attributes {grid = [1]} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %N = ktdp.runtime_arg_extract value from %n : !ktdp.runtime_arg<index, granularity = 1> -> index
  %Xv = ktdp.construct_memory_view %X, sizes: [%N, 8], strides: [8, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<?x8xf16>
  %Yv = ktdp.construct_memory_view %Y, sizes: [%N, 8], strides: [8, 1] {
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<?x8xf16>
  scf.for %i = %c0 to %N step %c1 {
    %Xt = ktdp.construct_access_tile %Xv[%i, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<?x8xf16> -> !ktdp.access_tile<1x8xindex>
    %Yt = ktdp.construct_access_tile %Yv[%i, %c0] {access_tile_set = #row, access_tile_order = #id2}
        : memref<?x8xf16> -> !ktdp.access_tile<1x8xindex>
    %x = ktdp.load %Xt : !ktdp.access_tile<1x8xindex> -> tensor<1x8xf16>
    %y = arith.addf %x, %x : tensor<1x8xf16>
    ktdp.store %y, %Yt : tensor<1x8xf16>, !ktdp.access_tile<1x8xindex>
  }
  return
}
"""


def _bits(outputs: dict) -> dict:
    return {k: np.ascontiguousarray(v).tobytes() for k, v in outputs.items()}


def test_repeated_runs_with_other_inputs_match_a_fresh_kernel():
    path = EXAMPLES / "softmax_rows.mlir"
    kernel = load_kernel(path)
    for seed in (0, 1, 0, 2):
        inputs = make_inputs(kernel, seed)
        fresh = run(load_kernel(path), inputs)
        assert _bits(run(kernel, inputs)) == _bits(fresh)


def test_the_setup_is_made_once_per_kernel(monkeypatch):
    calls = []
    real = run_module.infer_arguments

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(run_module, "infer_arguments", counting)
    kernel = load_kernel(EXAMPLES / "add_96x64.mlir")
    inputs = make_inputs(kernel, 0)
    first = run(kernel, inputs)
    for _ in range(3):
        assert _bits(run(kernel, inputs)) == _bits(first)
    assert len(calls) == 1
    assert run_module.kernel_setup(kernel) is run_module.kernel_setup(kernel)
    other = load_kernel(EXAMPLES / "add_96x64.mlir")  # a new kernel object: its own setup
    assert _bits(run(other, inputs)) == _bits(first)
    assert len(calls) == 2


def test_runtime_values_and_shapes_on_one_kernel_object():
    kernel = parse_kernel(UNBOUNDED_ROWS, "<rows>")
    x = np.random.default_rng(0).uniform(-2, 2, (40, 8)).astype(np.float16)
    for n in (3, 40, 7, 3, 40):  # shapes grow, shrink and repeat
        out = run(kernel, {"X": x[:n]}, runtime_args={"n": n})
        assert out["Y"].shape == (n, 8)
        np.testing.assert_array_equal(out["Y"], x[:n] + x[:n])
        fresh = run(parse_kernel(UNBOUNDED_ROWS, "<rows>"), {"X": x[:n]}, runtime_args={"n": n})
        assert _bits(out) == _bits(fresh)
    assert len(run_module.kernel_setup(kernel).bounded) == 3


def test_bounded_arguments_cache_keeps_a_limited_number_of_bindings():
    kernel = parse_kernel(UNBOUNDED_ROWS, "<rows>")
    x = np.random.default_rng(1).uniform(-2, 2, (60, 8)).astype(np.float16)
    for n in range(1, run_module._BOUNDED_CACHE_SIZE + 8):
        out = run(kernel, {"X": x[:n]}, runtime_args={"n": n})
        np.testing.assert_array_equal(out["Y"], x[:n] + x[:n])
    assert len(run_module.kernel_setup(kernel).bounded) == run_module._BOUNDED_CACHE_SIZE
    out = run(kernel, {"X": x[:2]}, runtime_args={"n": 2})  # evicted long ago: made again
    np.testing.assert_array_equal(out["Y"], x[:2] + x[:2])


def test_runtime_rows_with_an_upper_bound_on_one_kernel_object():
    path = KERNELS / "runtime_rows.mlir"
    kernel = load_kernel(path)
    x = np.random.default_rng(2).uniform(-2, 2, (256, 64)).astype(np.float16)
    for n in (256, 64, 128, 256):
        out = run(kernel, {"X": x[:n]}, runtime_args={"n": n})
        np.testing.assert_array_equal(out["Y"], x[:n] + x[:n])


def test_a_failed_run_leaves_the_setup_usable():
    kernel = load_kernel(KERNELS / "runtime_rows.mlir")
    x = np.zeros((64, 64), np.float16)
    with pytest.raises(ExecutionError, match="missing run-time argument %n"):
        run(kernel, {"X": x})
    with pytest.raises(ExecutionError, match="input %X has shape"):
        run(kernel, {"X": np.zeros((64, 63), np.float16)}, runtime_args={"n": 64})
    out = run(kernel, {"X": x + 1}, runtime_args={"n": 64})
    np.testing.assert_array_equal(out["Y"], np.full((64, 64), 2, np.float16))


@pytest.mark.parametrize("name", ["row_sum.mlir", "rmsnorm.mlir"])
def test_error_bounds_are_the_same_on_repeated_runs(name):
    path = EXAMPLES / name
    kernel = load_kernel(path)
    inputs = make_inputs(kernel, 0)
    fresh_out, fresh_bounds = run_with_error_bounds(load_kernel(path), inputs, "f32")
    for _ in range(2):
        out, bounds = run_with_error_bounds(kernel, inputs, "f32")
        assert _bits(out) == _bits(fresh_out) and _bits(bounds) == _bits(fresh_bounds)
    # a plain run between tracked ones, and tracked again after it
    assert _bits(run(kernel, inputs)) == _bits(fresh_out)
    assert _bits(run_with_error_bounds(kernel, inputs, "f32")[1]) == _bits(fresh_bounds)


def test_f16_arithmetic_fast_path_matches_the_op_table_bit_for_bit():
    # arith.addf/subf/mulf/divf on f16 tensors in a kernel (the interpreter's fast path)
    # against apply_op over every f16 value class: zeros, subnormals, normals, the largest
    # finite values (overflow to inf), infinities and NaNs.
    from emulator.numerics import apply_op

    everything = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    rng = np.random.default_rng(3)
    special = np.array([0.0, -0.0, 6e-8, -6e-8, 6.1e-5, 65504.0, -65504.0, np.inf,
                        -np.inf, np.nan, 1.0], np.float16)
    # every value against a random partner, the special values against each other
    pairs = np.array(np.meshgrid(special, special)).reshape(2, -1)
    a = np.concatenate([everything, rng.choice(everything, 2**16 - pairs.shape[1]), pairs[0]])
    b = np.concatenate([rng.choice(everything, 2**16), everything[::-1][pairs.shape[1]:],
                        pairs[1]])
    a, b = a.reshape(512, 256), b.reshape(512, 256)
    body = "\n".join(
        f"  %r{k} = arith.{op} %a, %b : tensor<512x256xf16>\n"
        f"  ktdp.store %r{k}, %T{k} : tensor<512x256xf16>, !ktdp.access_tile<512x256xindex>"
        for k, op in enumerate(("addf", "subf", "mulf", "divf")))
    views = "\n".join(
        f"  %V{k} = ktdp.construct_memory_view %O{k}, sizes: [512, 256], strides: [256, 1] "
        "{coordinate_set = #all, memory_space = #ktdp.memory_space<global>} : memref<512x256xf16>\n"
        f"  %T{k} = ktdp.construct_access_tile %V{k}[%c0, %c0] {{access_tile_set = #all, "
        "access_tile_order = #id2} : memref<512x256xf16> -> !ktdp.access_tile<512x256xindex>"
        for k in range(4))
    text = f"""
#all = affine_set<(d0, d1) : (d0 >= 0, -d0 + 511 >= 0, d1 >= 0, -d1 + 255 >= 0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @ops(%A: index, %B: index, %O0: index, %O1: index, %O2: index, %O3: index) {{
  %c0 = arith.constant 0 : index
  %Av = ktdp.construct_memory_view %A, sizes: [512, 256], strides: [256, 1] {{
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<512x256xf16>
  %Bv = ktdp.construct_memory_view %B, sizes: [512, 256], strides: [256, 1] {{
      coordinate_set = #all, memory_space = #ktdp.memory_space<global>}} : memref<512x256xf16>
  %At = ktdp.construct_access_tile %Av[%c0, %c0] {{access_tile_set = #all, access_tile_order = #id2}}
      : memref<512x256xf16> -> !ktdp.access_tile<512x256xindex>
  %Bt = ktdp.construct_access_tile %Bv[%c0, %c0] {{access_tile_set = #all, access_tile_order = #id2}}
      : memref<512x256xf16> -> !ktdp.access_tile<512x256xindex>
  %a = ktdp.load %At : !ktdp.access_tile<512x256xindex> -> tensor<512x256xf16>
  %b = ktdp.load %Bt : !ktdp.access_tile<512x256xindex> -> tensor<512x256xf16>
{views}
{body}
  return
}}
"""
    out = run(text, {"A": a, "B": b})
    for k, op in enumerate(("addf", "subf", "mulf", "divf")):
        want = apply_op(f"arith.{op}", "f16", a, b)
        assert np.array_equal(out[f"O{k}"].view(np.uint16), want.view(np.uint16)), op
