"""`numerics.exact_f16_product_sums`: the sums of f16 x f16 products as matrix products
(float64 where provably exact, integer pieces elsewhere, exact zeros from their terms) give
bit for bit what the rule gives on the materialised products (`reduce`), with and without
an init; and the emulator's matrix instruction that uses it gives the outputs its general
path gives."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from emulator.numerics import exact_f16_product_sums, reduce

f16_products = importlib.import_module("emulator.numerics.f16_products")
program = importlib.import_module("emulator.device.program")

EVERY_FINITE = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
EVERY_FINITE = EVERY_FINITE[np.isfinite(EVERY_FINITE)]


def _data(kind: str, m: int, k: int, n: int, seed: int):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    if kind == "any_finite":  # every exponent: float64 is not exact, the pieces are taken
        a, b = rng.choice(EVERY_FINITE, (m, k)), rng.choice(EVERY_FINITE, (k, n))
    elif kind == "zeros":  # -0 products only (a -0 sum) and +0 with -0 (a +0 sum)
        a[0, :] = np.float16(-0.0)
        b = np.abs(b) + np.float16(1)
        a[1, :] = np.float16(0.0)
        a[1, ::2] = np.float16(-0.0)
    elif kind == "cancelling":  # exact zero sums of non-zero terms
        a[:, k // 2:] = a[:, : k // 2]
        b[k // 2:, :] = -b[: k // 2, :]
    return a, b


def _rule(a, b, init=None):
    terms = a.astype(np.float32)[:, None, :] * b.T.astype(np.float32)[None, :, :]
    return np.asarray(reduce("add", terms, -1, "f32", init=init), dtype=np.float32)


@pytest.mark.parametrize("kind", ["normal", "any_finite", "zeros", "cancelling"])
@pytest.mark.parametrize("k", [32, 1024])
@pytest.mark.parametrize("with_init", [False, True])
def test_the_same_sums_as_the_rule_on_the_products(kind, k, with_init):
    a, b = _data(kind, 8, k, 24, seed=k + len(kind))
    init = None
    if with_init:
        rng = np.random.default_rng(3)
        init = (rng.standard_normal((8, 24)) * 2.0 ** rng.integers(-40, 40, (8, 24)))
        init[0, 0], init[1, 1] = -0.0, 0.0
    got = np.asarray(exact_f16_product_sums(a, b, init), dtype=np.float32)
    want = _rule(a, b, init)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
    if kind == "zeros" and not with_init:
        assert np.signbit(got[0]).all() and not np.signbit(got[1]).any()


def test_the_pieces_are_taken_where_float64_is_not_exact(monkeypatch):
    a, b = _data("any_finite", 8, 64, 8, seed=1)
    calls = []
    real = f16_products._sums_by_parts
    monkeypatch.setattr(f16_products, "_sums_by_parts",
                        lambda *args: calls.append(1) or real(*args))
    got = np.asarray(exact_f16_product_sums(a, b), dtype=np.float32)
    assert calls == [1]
    assert np.array_equal(got.view(np.uint32), _rule(a, b).view(np.uint32))


def test_non_finite_operands_are_refused():
    a, b = _data("normal", 4, 32, 4, seed=2)
    a[1, 3] = np.inf
    assert exact_f16_product_sums(a, b) is None
    a[1, 3] = 1
    assert exact_f16_product_sums(a, b, np.full((4, 4), np.nan)) is None


def test_emulated_matmul_outputs_equal_the_general_paths(monkeypatch):
    # the FFN example runs three f16 matmuls on the matrix unit: its emulated outputs with
    # the matrix instruction's product sums and with its materialised products are equal
    from spyre_sched.emulate import run

    example = str(program.__file__).replace("emulator/device/program.py",
                                             "examples/ffn_swiglu.mlir")
    taken = []
    real = program.exact_f16_product_sums
    monkeypatch.setattr(program, "exact_f16_product_sums",
                        lambda *args: taken.append(1) or real(*args))
    fast = run(example)
    assert taken  # the instruction took the product sums
    monkeypatch.setattr(program, "exact_f16_product_sums", lambda *args: None)
    general = run(example)
    assert fast.matches and general.matches
    assert fast.cycles == general.cycles
    for name, value in general.outputs.items():
        assert np.array_equal(np.asarray(fast.outputs[name]).view(np.uint8),
                              np.asarray(value).view(np.uint8)), name
