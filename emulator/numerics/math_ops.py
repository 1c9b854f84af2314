"""Semantics of the `math` dialect's ops, vectorised.

Each op evaluates numpy's function in the type's compute dtype (float32 for 16-bit floats,
float64 for f32/f64) and rounds the result to the type once.  erf/erfc use our float64
implementation (`erf.py`) for every type.  Definitions where numpy's spelling differs:
`round` rounds half away from zero, `roundeven` half to even, `rsqrt` is 1/sqrt(x),
`fma` is a*b+c evaluated in the compute dtype (not a single rounding for f32; a*b is exact
for 16-bit floats), `absi` wraps (|INT_MIN| = INT_MIN).
"""

from __future__ import annotations

import numpy as np

from . import erf as erf_impl
from .element_types import round_to, wrap_int
from .int_views import signed
from .op_table import register


def _round_half_away(x):
    t = np.trunc(x)
    return np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)  # x - t is exact


def _rsqrt(x):
    return 1.0 / np.sqrt(x)


_UNARY = {
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
    "sqrt": np.sqrt, "rsqrt": _rsqrt, "cbrt": np.cbrt,
    "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
    "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
    "absf": np.abs, "ceil": np.ceil, "floor": np.floor, "trunc": np.trunc,
    "round": _round_half_away, "roundeven": np.rint,
}
_BINARY = {"atan2": np.arctan2, "powf": np.power, "copysign": np.copysign}


def _register_unary(name: str, fn):
    @register(f"math.{name}", 1, "float")
    def impl(et, rt, a):
        return round_to(et, fn(a.astype(et.compute_dtype)))

    impl.__doc__ = f"math.{name} in the compute dtype, rounded once."


def _register_binary(name: str, fn):
    @register(f"math.{name}", 2, "float")
    def impl(et, rt, a, b):
        return round_to(et, fn(a.astype(et.compute_dtype), b.astype(et.compute_dtype)))

    impl.__doc__ = f"math.{name} in the compute dtype, rounded once."


for _name, _fn in _UNARY.items():
    _register_unary(_name, _fn)
for _name, _fn in _BINARY.items():
    _register_binary(_name, _fn)


@register("math.erf", 1, "float")
def _erf(et, rt, a):
    """erf in float64 (see erf.py), rounded to the type."""
    return round_to(et, erf_impl.erf(a))


@register("math.erfc", 1, "float")
def _erfc(et, rt, a):
    """erfc in float64 (see erf.py), rounded to the type."""
    return round_to(et, erf_impl.erfc(a))


@register("math.fma", 3, "float")
def _fma(et, rt, a, b, c):
    """a*b + c in the compute dtype, rounded once to the type."""
    cd = et.compute_dtype
    return round_to(et, a.astype(cd) * b.astype(cd) + c.astype(cd))


@register("math.absi", 1, "int")
def _absi(et, rt, a):
    """|a| on the signed reading, wrapping."""
    return wrap_int(et, np.abs(signed(et, a)))
