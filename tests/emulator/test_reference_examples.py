"""Every example kernel, run on the reference interpreter, against a hand-written numpy
expression of what it computes (f16 rounded after each op, as emulator.numerics defines)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from emulator.reference import make_inputs, run

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def f16(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float16)


def gelu(x):
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


def _run(name: str, seed: int = 0):
    path = EXAMPLES / f"{name}.mlir"
    inputs = make_inputs(path, seed)
    return inputs, run(path, inputs)


def test_add_96x64():
    ins, out = _run("add_96x64")
    assert out["C"].dtype == np.float16 and out["C"].shape == (96, 64)
    np.testing.assert_array_equal(out["C"], f16(ins["A"].astype(np.float64) + ins["B"]))


def test_bias_add_broadcasts_the_bias_row():
    ins, out = _run("bias_add")
    np.testing.assert_array_equal(out["Y"], f16(ins["X"].astype(np.float64) + ins["bias"][None, :]))


def test_fused_gelu_with_spyreop_intrinsic():
    ins, out = _run("fused_gelu")
    a, b = ins["A"].astype(np.float64), ins["B"].astype(np.float64)
    product = f16(a * b).astype(np.float64)
    expected = f16(f16(gelu(product)).astype(np.float64) + a)
    np.testing.assert_allclose(out["Y"].astype(np.float64), expected, rtol=2e-3, atol=2e-3)
    # Not all equal to a plain add: the gelu really ran.
    assert not np.allclose(out["Y"], f16(a))


def test_row_sum_accumulates_in_f32_and_rounds_once():
    ins, out = _run("row_sum")
    expected = ins["X"].astype(np.float64).sum(axis=1).astype(np.float32).astype(np.float16)
    assert out["S"].shape == (64,)
    np.testing.assert_array_equal(out["S"], expected)


def test_softmax_rows_through_pinned_scratchpad_intermediates():
    ins, out = _run("softmax_rows")
    x = ins["X"].astype(np.float64)
    m = x.max(axis=1, keepdims=True)
    e = f16(np.exp(f16(x - m).astype(np.float64))).astype(np.float64)
    s = e.sum(axis=1, keepdims=True).astype(np.float32).astype(np.float64)
    expected = f16(e / s)
    np.testing.assert_allclose(out["Y"].astype(np.float64), expected, rtol=2e-3, atol=1e-5)
    np.testing.assert_allclose(out["Y"].astype(np.float64).sum(axis=1), 1.0, atol=2e-2)


def test_rmsnorm():
    ins, out = _run("rmsnorm")
    x, w = ins["X"].astype(np.float64), ins["W"].astype(np.float64)
    ms = (x * x).sum(axis=1, keepdims=True) / 512.0
    expected = f16(x / np.sqrt(ms + 1e-5) * w[None, :])
    np.testing.assert_allclose(out["Y"].astype(np.float64), expected, rtol=3e-3, atol=3e-3)


def test_distributed_pair():
    ins, out = _run("distributed_pair")
    x = ins["X"].astype(np.float64)
    s = f16(x * x).astype(np.float64)
    np.testing.assert_array_equal(out["Y"], f16(s + x))


def test_scratchpad_broadcast():
    ins, out = _run("scratchpad_broadcast")
    x = ins["X"].astype(np.float64)
    np.testing.assert_array_equal(out["Y"], f16(np.tile(x[:32], (4, 1)) + x))


def test_sharded_rmsnorm_4core():
    ins, out = _run("sharded_rmsnorm_4core")
    x, w = ins["X"].astype(np.float64), ins["W"].astype(np.float64)
    expected = x / np.sqrt((x * x).mean(axis=1) + 1e-5)[:, None] * w
    np.testing.assert_allclose(out["Y"].astype(np.float64), expected, rtol=2e-3, atol=2e-3)


def test_splitk_matmul():
    ins, out = _run("splitk_matmul")
    a, b = ins["A"].astype(np.float64), ins["B"].astype(np.float64)
    np.testing.assert_allclose(out["C"], a @ b, rtol=1e-5, atol=1e-4)


def test_rmsnorm_2x2_rows():
    ins, out = _run("rmsnorm_2x2_rows")
    x = ins["X"].astype(np.float64)
    ms = (x * x).mean(axis=1, keepdims=True)
    expected = x / np.sqrt(ms + 1e-5) * ins["W"].astype(np.float64)
    np.testing.assert_allclose(out["Y"].astype(np.float64), expected, rtol=4e-3, atol=4e-3)


def test_splitk_strided_groups():
    ins, out = _run("splitk_strided_groups")
    expected = ins["A"].astype(np.float64) @ ins["B"].astype(np.float64)
    np.testing.assert_allclose(out["C"], expected[0], rtol=1e-5, atol=1e-3)


def test_batch_matmul():
    ins, out = _run("batch_matmul")
    expected = np.matmul(ins["A"].astype(np.float64), ins["B"].astype(np.float64))
    np.testing.assert_allclose(out["C"], expected, rtol=1e-5, atol=1e-3)


def test_ffn_swiglu():
    ins, out = _run("ffn_swiglu")
    x = ins["X"].astype(np.float64)
    gate = x @ ins["Wg"].astype(np.float64)
    up = x @ ins["Wu"].astype(np.float64)
    h = f16(gate / (1.0 + np.exp(-gate)) * up).astype(np.float64)
    expected = h @ ins["Wd"].astype(np.float64)
    got = out["Y"].astype(np.float64)
    assert got.shape == (64, 128)
    np.testing.assert_allclose(got, expected, rtol=2e-2, atol=2e-2 * np.abs(expected).max())


def test_embedding_lookup_gathers_rows():
    ins, out = _run("embedding_lookup")
    np.testing.assert_array_equal(out["Y"], ins["E"][ins["Ids"]])


def test_indexed_add_updates_the_named_rows_only():
    ins, out = _run("indexed_add")
    assert len(set(ins["I"].tolist())) == len(ins["I"])  # the kernel asks for distinct rows
    want = ins["Y"].copy()
    want[ins["I"]] = f16(ins["Y"][ins["I"]].astype(np.float64) + ins["U"])
    np.testing.assert_array_equal(out["Y"], want)


def test_paged_attention_decode():
    ins, out = _run("paged_attention_decode")
    pages = ins["BT"]
    k = ins["K"][pages].astype(np.float64)  # [page, slot, head, dim]
    v = ins["V"][pages].astype(np.float64)
    q = ins["Q"].reshape(32, 64).astype(np.float64)
    scores = np.einsum("hd,pshd->hps", q, k)
    e = np.exp(scores / 8.0)
    want = np.einsum("hps,pshd->hd", e, v) / e.sum(axis=(1, 2))[:, None]
    np.testing.assert_allclose(out["O"].astype(np.float64), want.reshape(-1), rtol=4e-3, atol=4e-3)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.mlir")), ids=lambda p: p.stem)
def test_every_example_runs_deterministically(path):
    inputs = make_inputs(path, 7)
    first = run(path, inputs)
    second = run(path, make_inputs(path, 7))
    assert first.keys() == second.keys() and first
    for key in first:
        np.testing.assert_array_equal(first[key], second[key])


def test_every_example_has_a_numpy_check():
    checked = {"add_96x64", "bias_add", "fused_gelu", "row_sum", "softmax_rows", "rmsnorm",
               "distributed_pair", "ffn_swiglu", "embedding_lookup", "indexed_add",
               "paged_attention_decode", "scratchpad_broadcast", "sharded_rmsnorm_4core",
               "splitk_matmul", "rmsnorm_2x2_rows", "splitk_strided_groups", "batch_matmul"}
    missing = {p.stem for p in EXAMPLES.glob("*.mlir")} - checked
    assert not missing, f"examples without a numpy check in this file: {sorted(missing)}"
