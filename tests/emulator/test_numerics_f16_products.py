"""`numerics.exact_f16_product_sums`: the sums of f16 x f16 products as matrix products
(float64 where provably exact or where its error interval rounds to one f32, integer
pieces elsewhere, exact zeros from their terms) give
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


def _cancelling_beside_huge(seed: int):
    """Huge terms beside ordinary ones (float64 is not exact), an init spanning float32's
    range, and in output (0, 0) huge terms that cancel, leaving tiny ones."""
    rng = np.random.default_rng(seed)
    a, b = _data("normal", 6, 16, 5, seed)
    a[:, 0], b[0, :] = np.float16(3e4), np.float16(2e3)
    a[0, :3] = [3e4, -3e4, 6e-8]
    b[:3, 0] = [2e3, 2e3, 6e-8]
    init = rng.uniform(-1, 1, (6, 5)) * 2.0 ** rng.integers(-60, 20, (6, 5))
    return a, b, init.astype(np.float32).astype(np.float64)


def test_the_pieces_are_taken_where_float64_cannot_decide(monkeypatch):
    # float64's sum settles an output when its error interval rounds to one f32; where it
    # does not (the huge terms that cancel in output (0, 0)), the integer pieces do.
    a, b, init = _cancelling_beside_huge(seed=1)
    calls = []
    real = f16_products._sums_by_parts
    monkeypatch.setattr(f16_products, "_sums_by_parts",
                        lambda *args: calls.append(1) or real(*args))
    got = np.asarray(exact_f16_product_sums(a, b, init), dtype=np.float32)
    assert calls == [1]
    assert np.array_equal(got.view(np.uint32), _rule(a, b, init).view(np.uint32))


def test_float64_settles_the_outputs_it_can(monkeypatch):
    # With the pieces made to give NaN, the outputs they would have given show which
    # ones float64 settled: all but the cancelling one, none of them provably exact in
    # float64 (huge terms beside an init down to 2**-83), each the rule's value.
    a, b, init = _cancelling_beside_huge(seed=1)
    pieces = f16_products._sums_by_parts
    monkeypatch.setattr(f16_products, "_sums_by_parts", lambda a_, b_, i_, k_: np.full(
        (a_.shape[0], b_.shape[1]), np.nan))
    got = np.asarray(exact_f16_product_sums(a, b, init), dtype=np.float32)
    unsettled = np.isnan(got)
    assert unsettled[0, 0] and unsettled.sum() <= 3
    want = _rule(a, b, init)
    assert np.array_equal(got[~unsettled].view(np.uint32), want[~unsettled].view(np.uint32))
    # and the pieces alone give the same values for every output
    assert np.array_equal(np.asarray(pieces(a, b, init, a.shape[1]), np.float32).view(np.uint32),
                          want.view(np.uint32))


@pytest.mark.parametrize("seed", range(6))
def test_any_finite_operands_either_way(seed):
    # every exponent, large K: what float64 settles and what the pieces give together
    # equal the rule on the products
    a, b = _data("any_finite", 8, 256, 8, seed)
    got = np.asarray(exact_f16_product_sums(a, b), dtype=np.float32)
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
