"""The benchmark suite: generated files up to date, valid KTIR, and right (the reference
interpreter's outputs of every quick kernel against a plain numpy expression)."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

import emulator.reference as reference
from spyre_sched.bench.suite import SUITE_DIR, held_out_kernels, suite_kernels
from spyre_sched.device import load_device
from spyre_sched.errors import SpyreSchedError
from spyre_sched.frontend import load_kernel
from spyre_sched.polyhedral.checks import check_kernel
from spyre_sched.roofline import roofline

NAMES = ["add", "bias_add", "ffn", "gelu_chain", "layernorm", "matmul", "rmsnorm", "row_sum",
         "sharded_rmsnorm", "softmax", "splitk_matmul"]
#: held out from the cost model's calibration (bench/kernels/[quick/]heldout/)
HELD_OUT = ["blend", "clamp_row", "cube", "exp_shift", "gated_scale", "gathered_rows_scale",
            "matmul_bias_relu", "matmul_deep_k", "matmul_few_rows", "paged_rows_shift",
            "relu_residual", "row_absmax", "row_cubesum", "row_l1", "row_relu_sqsum",
            "row_relu_sum", "row_signed_sqsum", "row_sqmax", "row_sqsum", "scale_shift_square",
            "scaled_sub", "sigmoid_gate", "sigmoid_scale", "sq_diff"]
#: read rows through an index tensor (an indirect access tile)
GATHERS = {"gathered_rows_scale", "paged_rows_shift"}
#: run on the matrix unit: MAC-bound or memory-bound depending on the shape
MATRIX = {"ffn", "matmul", "matmul_bias_relu", "matmul_deep_k", "matmul_few_rows",
          "splitk_matmul"}
#: shards all-reduced between tiles over the ring, on a [4, 8] grid
SHARDED = {"sharded_rmsnorm", "splitk_matmul"}
LARGE = ["ffn", "matmul"]


def _generator():
    spec = importlib.util.spec_from_file_location("bench_generate", SUITE_DIR / "generate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_generated_kernels_are_up_to_date():
    files = _generator().generated()
    assert len(files) == 2 * (len(NAMES) + len(HELD_OUT)) + len(LARGE)
    for path, text in files.items():
        assert path.exists(), f"{path} is missing: run python bench/kernels/generate.py"
        assert path.read_text() == text, f"{path} is stale: run python bench/kernels/generate.py"
    committed = {p for folder in (SUITE_DIR, SUITE_DIR / "quick", SUITE_DIR / "heldout",
                                  SUITE_DIR / "quick" / "heldout", SUITE_DIR / "large")
                 for p in folder.glob("*.mlir")}
    assert committed == set(files), "a kernel file the generator does not write"


def test_suite_lists_every_kernel_in_name_order():
    assert [p.stem for p in suite_kernels()] == NAMES
    assert [p.stem for p in suite_kernels(quick=True)] == NAMES
    assert [p.stem for p in suite_kernels(True, ("softmax", "add"))] == ["add", "softmax"]
    assert [p.stem for p in held_out_kernels()] == HELD_OUT
    assert [p.stem for p in held_out_kernels(quick=True)] == HELD_OUT
    assert [p.stem for p in suite_kernels(large=True)] == LARGE


def test_unknown_kernel_name_is_a_clear_error():
    with pytest.raises(SpyreSchedError, match="no suite kernel named nope; the suite has add"):
        suite_kernels(True, ("nope",))


@pytest.mark.parametrize("quick", [True, False], ids=["quick", "full"])
@pytest.mark.parametrize("name", NAMES + HELD_OUT)
def test_suite_kernel_checks_clean(name, quick):
    folder = SUITE_DIR / "quick" if quick else SUITE_DIR
    kernel = load_kernel((folder / "heldout" if name in HELD_OUT else folder) / f"{name}.mlir")
    assert kernel.grid == ((4, 8) if name in SHARDED else (32,))
    # No out-of-bounds access, race or uncovered output: not even a warning (a gather's
    # rows come from memory at run time: the check says it leaves that tile out).
    notes = [str(d) for d in check_kernel(kernel.func)]
    if name in GATHERS:
        assert len(notes) == 1 and notes[0].startswith(
            "not checked: an indirect access tile reads its coordinates from memory"), notes
    else:
        assert notes == []


def _f16(x):
    return np.asarray(x, dtype=np.float64).astype(np.float16)


def _gelu(x):
    u = np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)
    return 0.5 * x * (1 + np.tanh(u))


def _expected(name: str, i: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    f = {k: v.astype(np.float64) for k, v in i.items()}
    if name == "add":
        return {"C": _f16(f["A"] + f["B"])}
    if name == "gelu_chain":
        p = _f16(f["A"] * f["B"]).astype(np.float64)
        g = _f16(_gelu(p)).astype(np.float64)
        return {"Y": _f16(g + f["A"])}
    if name == "bias_add":
        return {"Y": _f16(f["X"] + f["bias"][None, :])}
    if name == "row_sum":
        return {"S": _f16(f["X"].sum(axis=1))}
    if name == "softmax":
        e = np.exp(f["X"] - f["X"].max(axis=1, keepdims=True))
        return {"Y": _f16(e / e.sum(axis=1, keepdims=True))}
    if name == "layernorm":
        x = f["X"]
        mu = x.mean(axis=1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
        return {"Y": _f16((x - mu) / np.sqrt(var + 1e-5) * f["gamma"] + f["beta"])}
    if name in ("rmsnorm", "sharded_rmsnorm"):
        x = f["X"]
        return {"Y": _f16(x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-5) * f["W"])}
    if name in ("matmul", "matmul_deep_k", "matmul_few_rows", "splitk_matmul"):
        return {"C": _f16(f["A"] @ f["B"])}
    if name == "matmul_bias_relu":
        s = _f16(f["A"] @ f["B"]).astype(np.float64)
        return {"Y": _f16(np.maximum(_f16(s + f["bias"][None, :]).astype(np.float64), 0))}
    if name == "ffn":
        x = f["X"]
        gate, up = x @ f["Wg"], x @ f["Wu"]
        h = _f16(gate / (1 + np.exp(-gate)) * up).astype(np.float64)
        return {"Y": _f16(h @ f["Wd"])}
    if name == "relu_residual":
        s = _f16(f["A"] + f["B"]).astype(np.float64)
        r = _f16(np.maximum(s, 0) * f["S"][None, :]).astype(np.float64)
        return {"Y": _f16(r + f["A"])}
    if name == "row_sqsum":
        return {"S": (f["X"] ** 2).sum(axis=1)}
    if name == "scale_shift_square":
        q = _f16(_f16(f["X"] * f["G"][None, :]).astype(np.float64) + f["H"][None, :])
        q = q.astype(np.float64)
        return {"Y": _f16(q * q)}
    if name == "row_absmax":
        return {"S": np.abs(f["X"]).max(axis=1)}
    if name == "sigmoid_gate":
        g = _f16(1 / (1 + np.exp(-f["B"]))).astype(np.float64)
        return {"Y": _f16(f["A"] * g)}
    if name == "blend":
        w = f["W"][None, :]
        p = _f16(f["A"] * w).astype(np.float64)
        q = _f16(f["B"] * _f16(1 - w).astype(np.float64)).astype(np.float64)
        return {"Y": _f16(p + q)}
    if name == "exp_shift":
        return {"Y": _f16(np.exp(_f16(f["X"] - f["C"][None, :]).astype(np.float64)))}
    if name == "row_l1":
        return {"S": np.abs(f["X"]).sum(axis=1)}
    if name == "sq_diff":
        d = _f16(f["A"] - f["B"]).astype(np.float64)
        return {"Y": _f16(d * d)}
    if name == "gated_scale":
        p = _f16(f["A"] * f["B"]).astype(np.float64)
        return {"Y": _f16(p * f["S"][None, :])}
    if name == "row_relu_sum":
        return {"S": np.maximum(f["X"], 0).sum(axis=1)}
    if name == "scaled_sub":
        d = _f16(f["A"] - f["B"]).astype(np.float64)
        return {"Y": _f16(d * f["S"][None, :])}
    if name == "sigmoid_scale":
        g = _f16(1 / (1 + np.exp(-f["X"]))).astype(np.float64)
        return {"Y": _f16(g * f["G"][None, :])}
    if name == "row_sqmax":
        return {"S": (f["X"] ** 2).max(axis=1)}
    if name == "row_cubesum":
        return {"S": (f["X"] ** 3).sum(axis=1)}
    if name == "row_relu_sqsum":
        return {"S": (np.maximum(f["X"], 0) ** 2).sum(axis=1)}
    if name == "row_signed_sqsum":
        return {"S": (np.abs(f["X"]) * f["X"]).sum(axis=1)}
    if name == "cube":
        q = _f16(f["X"] * f["X"]).astype(np.float64)
        return {"Y": _f16(q * f["X"])}
    if name == "gathered_rows_scale":
        rows = f["X"][i["Idx"].astype(np.int64)]
        return {"Y": _f16(rows * f["S"][None, :])}
    if name == "paged_rows_shift":
        x = f["X"]
        page = x.shape[1]
        r = np.arange(len(i["Idx"]) * page)
        rows = x[i["Idx"].astype(np.int64)[r // page], r % page]
        return {"Y": _f16(rows + f["S"][None, :])}
    if name == "clamp_row":
        return {"Y": _f16(np.minimum(np.maximum(f["X"], 0), f["C"][None, :]))}
    raise AssertionError(name)


@pytest.mark.parametrize("name", NAMES + HELD_OUT)
def test_quick_kernel_reference_matches_numpy(name):
    folder = SUITE_DIR / "quick" / ("heldout" if name in HELD_OUT else "")
    kernel = load_kernel(folder / f"{name}.mlir")
    inputs = reference.make_inputs(kernel, seed=3)
    got = reference.run(kernel, inputs)
    want = _expected(name, inputs)
    assert set(got) == set(want)
    for key in want:
        assert got[key].shape == want[key].shape
        if name in ("add", "bias_add", "relu_residual", "gathered_rows_scale",
                    "paged_rows_shift"):
            assert np.array_equal(got[key], want[key])  # one f16 rounding: exact
        elif name in MATRIX:
            # f32 sums of f16 products, rounded to f16 (the FFN's H rounded too)
            scale = np.abs(want[key]).max()
            np.testing.assert_allclose(got[key].astype(np.float64), want[key], rtol=2e-2,
                                       atol=2e-2 * scale)
        else:
            # f16 intermediates (gelu's product, softmax's exponentials) round differently
            # from the float64 expression: a few f16 ulps.
            np.testing.assert_allclose(got[key].astype(np.float64), want[key], rtol=2e-2,
                                       atol=2e-3)


def test_every_quick_kernel_is_memory_bound_on_spyre():
    device = load_device("spyre")
    for path in suite_kernels(quick=True):
        bound = roofline(load_kernel(path), device)
        if path.stem in SHARDED:
            assert bound.ring_cycles > 0, (path.stem, bound.terms)
        if path.stem in MATRIX:
            assert bound.mac_cycles > 0, (path.stem, bound.terms)
            continue
        assert bound.binding == "memory", (path.stem, bound.terms)
        assert bound.bound_cycles > 0
        assert (bound.ring_cycles > 0) == (path.stem in SHARDED), (path.stem, bound.terms)


def test_the_ffn_quick_kernel_is_mac_bound_on_spyre():
    bound = roofline(load_kernel(SUITE_DIR / "quick" / "ffn.mlir"), load_device("spyre"))
    # 256 tokens x (64 x 128 x 2 + 128 x 64) MACs over 32 cores at 2 x 64 per cycle
    assert bound.terms["mac"] == 256 * (64 * 128 * 3) // 32 // 128 == 1536
    assert bound.binding == "mac"


def test_quick_and_large_together_are_refused():
    from click.testing import CliRunner

    from spyre_sched.cli import main

    result = CliRunner().invoke(main, ["bench", "--quick", "--large"])
    assert result.exit_code == 1  # a usage error, as every command's
    assert "--quick and --large choose different shapes" in result.output
