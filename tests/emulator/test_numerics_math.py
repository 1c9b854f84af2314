"""math semantics and the vectorised erf."""

import math

import numpy as np
import pytest

from emulator.numerics import OPS, apply_op, erf, erfc

UNARY_REFERENCE = {
    "exp": math.exp, "exp2": lambda x: 2.0**x, "expm1": math.expm1,
    "log": math.log, "log2": math.log2, "log10": math.log10, "log1p": math.log1p,
    "sqrt": math.sqrt, "rsqrt": lambda x: 1 / math.sqrt(x), "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "atan": math.atan,
    "asin": math.asin, "acos": math.acos, "sinh": math.sinh, "cosh": math.cosh,
    "tanh": math.tanh, "asinh": math.asinh, "atanh": math.atanh,
    "erf": math.erf, "erfc": math.erfc, "absf": abs,
    "ceil": math.ceil, "floor": math.floor, "trunc": math.trunc,
}
DOMAIN = {"log": (0.01, 10), "log2": (0.01, 10), "log10": (0.01, 10), "log1p": (-0.9, 10),
          "sqrt": (0, 10), "rsqrt": (0.01, 10), "asin": (-0.99, 0.99), "acos": (-0.99, 0.99),
          "atanh": (-0.99, 0.99), "exp": (-10, 10), "exp2": (-10, 10), "expm1": (-10, 10),
          "sinh": (-5, 5), "cosh": (-5, 5)}


@pytest.mark.parametrize("name", sorted(UNARY_REFERENCE))
def test_unary_ops_f32_within_one_ulp(name):
    lo, hi = DOMAIN.get(name, (-3, 3))
    x = np.linspace(lo, hi, 301).astype(np.float32)
    got = apply_op(f"math.{name}", "f32", x)
    want = np.array([UNARY_REFERENCE[name](float(v)) for v in x])
    assert got.dtype == np.float32
    ulp = np.spacing(np.abs(want).astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(got - want) <= ulp), name


@pytest.mark.parametrize("name", ["exp", "tanh", "sin", "log1p", "erf", "sqrt"])
def test_unary_ops_f16_compute_in_f32_then_round(name):
    x = np.linspace(0.01, 3, 200).astype(np.float16)
    got = apply_op(f"math.{name}", "f16", x)
    assert got.dtype == np.float16
    want = np.array([UNARY_REFERENCE[name](float(v)) for v in x])
    # one f16 rounding of a (float32-accurate) value: within one f16 ulp
    assert np.all(np.abs(got.astype(np.float64) - want) <= np.spacing(want.astype(np.float16)))


def test_binary_and_ternary_ops():
    a = np.float32([1.5, -2.0, 0.5])
    b = np.float32([2.0, 3.0, -1.0])
    assert apply_op("math.powf", "f32", a, b).tolist() == [2.25, -8.0, 2.0]
    assert apply_op("math.copysign", "f32", a, b).tolist() == [1.5, 2.0, -0.5]
    assert np.allclose(apply_op("math.atan2", "f32", a, b), np.arctan2(a, b))
    assert apply_op("math.fma", "f16", np.float16(3), np.float16(4), np.float16(0.5)) == 12.5
    assert apply_op("math.absi", "i8", np.int8([-5, -128])).tolist() == [5, -128]


def test_round_is_half_away_and_roundeven_is_half_even():
    x = np.float32([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, 2.4])
    assert apply_op("math.round", "f32", x).tolist() == [1, 2, 3, -1, -3, 0, 2]
    assert apply_op("math.roundeven", "f32", x).tolist() == [0, 2, 2, -0.0, -2, 0, 2]


def test_erf_accuracy_against_math_erf():
    x = np.concatenate([np.linspace(-8, 8, 40001), np.logspace(-12, 1, 2000),
                        -np.logspace(-12, 1, 2000), [0.0, 2.5, -2.5, 2.4999999999]])
    want = np.array([math.erf(v) for v in x])
    got = erf(x)
    assert np.max(np.abs(got - want)) < 1e-14
    small = np.abs(x) < 1
    assert np.max(np.abs(got[small] - want[small]) / np.maximum(np.abs(want[small]), 1e-300)) < 1e-14


def test_erfc_relative_accuracy_in_the_tail():
    x = np.linspace(-4, 26, 30001)
    want = np.array([math.erfc(v) for v in x])
    assert np.max(np.abs(erfc(x) - want) / want) < 1e-10


def test_erf_special_values_and_shape():
    out = erf(np.array([np.inf, -np.inf, np.nan, 0.0, -0.0]))
    assert out[:2].tolist() == [1.0, -1.0] and np.isnan(out[2])
    assert out[3] == 0 and np.signbit(out[4])
    assert erf(np.zeros((3, 4))).shape == (3, 4)
    assert erfc(np.array([np.inf, -np.inf])).tolist() == [0.0, 2.0]


def test_required_math_ops_are_registered():
    required = """exp exp2 log log2 log10 log1p expm1 sqrt rsqrt tanh erf sin cos tan atan atan2
    absf ceil floor round roundeven powf fma copysign""".split()
    assert [op for op in required if f"math.{op}" not in OPS] == []
