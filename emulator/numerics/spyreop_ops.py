"""Semantics of the `spyreop` scalar intrinsics, vectorised.

Float intrinsics take f16, f32 or df16 operands, compute in the compute dtype (float32 for
f16/df16, float64 for f32) and round the result to the type once per op; df16 results that
overflow or are infinite become the special code, i.e. NaN.  Formulas:

* exp(x), sqrt(x), rsqrt(x) = 1/sqrt(x), reciprocal(x) = 1/x, realdiv(a, b) = a/b.
* gelu(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))   (the tanh approximation),
  evaluated as the identical x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)) for accuracy.
* sigmoid(x) = 1 / (1 + exp(-x))   (evaluated without overflow for large |x|).
* silu(x) = x * sigmoid(x).
* softplus(x; beta=1, threshold=20) = log(1 + exp(beta x)) / beta, and x where beta x > threshold.
* compare(a, b; predicate) = 1.0 if the relation holds else 0.0, in the operand type;
  predicates equal, notequal, greaterthan, greaterequal, lesserthan, lesserequal.  With a NaN
  operand every predicate gives 0.0 except notequal (1.0), as in IEEE comparisons.
* select(c, t, f) = t where c != 0 else f (c, t, f all of the operand type; NaN c picks t).
* exx2(x) -> (x, x*x): one element's contribution to the mean and the mean of squares; the
  enclosing reduction (add, then scaling by 1/N) forms the means.
* exx2_fused(x) -> the same pair packed in one array with a trailing axis of length 2
  ([..., 0] = x, [..., 1] = x*x).  That is how every `!spyreop.*_fused` pair value is held;
  `element_type` for the fused ops is the pair's element type (f16 for fp16_fused, ...).
* layernormscale(mean, meansq; eps=LAYERNORM_EPS) = 1 / sqrt(max(meansq - mean^2, 0) + eps)
  (the variance is clamped at 0 against rounding).  In the IR: `layernormscale %m squares %sq`.
* layernormscale_fused(pair) = layernormscale(pair[..., 0], pair[..., 1]).
* layernormnorm(x, mean, scale, weight, bias) = (x - mean) * scale * weight + bias.  In the IR
  (`spyreop.layernormnorm %x squares %m scale %s weight %w bias %b`) the `squares` operand is
  the row **mean** (first output of the exx2 reduction), `scale` is layernormscale's result.
* addi32toi32 / addi64toi64 / muli32toi32: wrap-around add/multiply on i32 / i64.
* idx32toaddr(i, base, stride) = base + stride * i, on i32, wrapping.
* slice_reduction(x; reduction_kind, reduction_scope="in_slice", lanes=None): the last axis of
  `x` is one stick of 128 bytes (`lanes` defaults to 128 / element size: 64 for f16/df16, 32
  for f32).  reduction_kind: add, sub (x0 - x1 - ... - x_{n-1}), max, min (NaN-propagating),
  mul, abs_max (max |x|).  The result always has x's shape:
  in_slice: reduce the lanes of each stick; the result is broadcast to all its lanes.
  across_slice: combine all sticks of x (every axis but the last, in row-major stick order
  for `sub`) lane by lane; the combined stick is broadcast to every stick position.
  Accumulation follows `reductions`: float64, one rounding at the end.
"""

from __future__ import annotations

import math

import numpy as np

from spyre_sched.errors import ExecutionError

from .element_types import round_to, wrap_int
from .op_table import REQUIRED, register
from .reductions import reduce

LAYERNORM_EPS = 1e-5
GELU_COEFF = 0.044715
_GELU_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
SPYRE_FLOAT_TYPES = frozenset({"f16", "f32", "df16"})
STICK_BYTES = 128  # one stick: 64 lanes of a 16-bit type, 32 of f32


def _float_intrinsic(name: str, arity: int, **fields):
    def deco(fn):
        @register(f"spyreop.{name}", arity, "float", allowed_types=SPYRE_FLOAT_TYPES, **fields)
        def impl(et, rt, *operands, **attrs):
            computed = fn(*(o.astype(et.compute_dtype) for o in operands), **attrs)
            if isinstance(computed, tuple):
                return tuple(round_to(et, c) for c in computed)
            return round_to(et, computed)

        def unchecked(et, attrs: dict):
            """`impl` for a type whose values are its storage (f16, f32: rounding is a
            cast) without round_to's own floating-point error state, for callers that
            already run with every floating-point error ignored (an emulated launch); the
            same values. None for other types."""
            if et.name not in ("f16", "f32"):
                return None
            compute, value = et.compute_dtype, et.value_dtype

            def run(*operands):
                computed = fn(*[o.astype(compute) for o in operands], **attrs)
                if isinstance(computed, tuple):
                    return tuple(c.astype(value, copy=False) for c in computed)
                return computed.astype(value, copy=False)

            return run

        impl.__doc__ = fn.__doc__
        impl.unchecked = unchecked
        return fn

    return deco


def _sigmoid(x):
    e = np.exp(-np.abs(x))  # never overflows
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e)).astype(x.dtype, copy=False)


@_float_intrinsic("exp", 1)
def _exp(x):
    """exp(x)."""
    return np.exp(x)


@_float_intrinsic("sqrt", 1)
def _sqrt(x):
    """sqrt(x); negative x gives NaN."""
    return np.sqrt(x)


@_float_intrinsic("rsqrt", 1)
def _rsqrt(x):
    """1/sqrt(x)."""
    return 1.0 / np.sqrt(x)


@_float_intrinsic("reciprocal", 1)
def _reciprocal(x):
    """1/x."""
    return 1.0 / x


@_float_intrinsic("realdiv", 2)
def _realdiv(a, b):
    """a/b."""
    return a / b


@_float_intrinsic("gelu", 1)
def _gelu(x):
    """0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), evaluated as x * sigmoid(2u)."""
    # 0.5 (1 + tanh(u)) == sigmoid(2u) exactly; the sigmoid form avoids the cancellation in
    # 1 + tanh(u) for negative x, which would leave no correct digits in f16/df16 results.
    u = _GELU_SQRT_2_OVER_PI * (x + GELU_COEFF * x * x * x)
    return x * _sigmoid(2.0 * u)


@_float_intrinsic("sigmoid", 1)
def _sigmoid_op(x):
    """1 / (1 + exp(-x))."""
    return _sigmoid(x)


@_float_intrinsic("silu", 1)
def _silu(x):
    """x * sigmoid(x)."""
    return x * _sigmoid(x)


@_float_intrinsic("softplus", 1, attrs={"beta": 1.0, "threshold": 20.0})
def _softplus(x, beta, threshold):
    """log(1 + exp(beta x)) / beta; x itself where beta x > threshold."""
    beta = float(beta)
    if beta == 0.0:
        raise ExecutionError("softplus beta must be non-zero")
    z = beta * x
    return np.where(z > float(threshold), x, np.logaddexp(0.0, z) / beta)


COMPARE_PREDICATES = {
    "equal": np.equal, "notequal": np.not_equal,
    "greaterthan": np.greater, "greaterequal": np.greater_equal,
    "lesserthan": np.less, "lesserequal": np.less_equal,
}


@_float_intrinsic("compare", 2, attrs={"predicate": REQUIRED})
def _compare(a, b, predicate):
    """1.0 where `a predicate b` holds, else 0.0."""
    try:
        relation = COMPARE_PREDICATES[str(predicate)]
    except KeyError:
        known = ", ".join(COMPARE_PREDICATES)
        raise ExecutionError(f"unknown compare predicate '{predicate}' (known: {known})") from None
    return relation(a, b).astype(a.dtype)


@_float_intrinsic("select", 3)
def _select(c, t, f):
    """t where c != 0, else f."""
    return np.where(c != 0, t, f)


@_float_intrinsic("exx2", 1)
def _exx2(x):
    """(x, x*x): contributions to the mean and the mean of squares."""
    return x, x * x


@_float_intrinsic("exx2_fused", 1)
def _exx2_fused(x):
    """(x, x*x) packed on a trailing axis of length 2."""
    return np.stack([x, x * x], axis=-1)


@_float_intrinsic("layernormscale", 2, attrs={"eps": LAYERNORM_EPS})
def _layernormscale(mean, meansq, eps):
    """1 / sqrt(max(meansq - mean^2, 0) + eps)."""
    var = np.maximum(meansq - mean * mean, 0.0)
    return 1.0 / np.sqrt(var + eps)


@_float_intrinsic("layernormscale_fused", 1, attrs={"eps": LAYERNORM_EPS})
def _layernormscale_fused(pair, eps):
    """layernormscale(pair[..., 0], pair[..., 1])."""
    if pair.ndim == 0 or pair.shape[-1] != 2:
        raise ExecutionError(f"a fused pair needs a trailing axis of length 2, got shape {pair.shape}")
    return _layernormscale(pair[..., 0], pair[..., 1], eps)


@_float_intrinsic("layernormnorm", 5)
def _layernormnorm(x, mean, scale, weight, bias):
    """(x - mean) * scale * weight + bias."""
    return (x - mean) * scale * weight + bias


# ---- integer and address arithmetic ---------------------------------------------------------


def _int_intrinsic(name: str, arity: int, type_name: str, fn):
    @register(f"spyreop.{name}", arity, "int", allowed_types=frozenset({type_name}))
    def impl(et, rt, *operands):
        return wrap_int(et, fn(*(o.astype(np.int64) for o in operands)))

    impl.__doc__ = f"spyreop.{name}: wraps modulo 2**width of {type_name}."


_int_intrinsic("addi32toi32", 2, "i32", np.add)
_int_intrinsic("addi64toi64", 2, "i64", np.add)
_int_intrinsic("muli32toi32", 2, "i32", np.multiply)
_int_intrinsic("idx32toaddr", 3, "i32", lambda i, base, stride: base + stride * i)


# ---- slice reduction ------------------------------------------------------------------------

SLICE_REDUCTION_KINDS = ("add", "sub", "max", "min", "mul", "abs_max")
SLICE_SCOPES = ("in_slice", "across_slice")


@register(
    "spyreop.slice_reduction", 1, "float", allowed_types=SPYRE_FLOAT_TYPES,
    attrs={"reduction_kind": REQUIRED, "reduction_scope": "in_slice", "lanes": None},
)
def _slice_reduction(et, rt, x, reduction_kind, reduction_scope, lanes):
    """Reduce each 128-byte stick (in_slice) or combine all sticks lane by lane (across_slice)."""
    kind, scope = str(reduction_kind), str(reduction_scope)
    if kind not in SLICE_REDUCTION_KINDS:
        known = ", ".join(SLICE_REDUCTION_KINDS)
        raise ExecutionError(f"unknown reduction_kind '{kind}' (known: {known})")
    if scope not in SLICE_SCOPES:
        raise ExecutionError(f"unknown reduction_scope '{scope}' (known: {', '.join(SLICE_SCOPES)})")
    lanes = STICK_BYTES // et.size if lanes is None else int(lanes)
    if x.ndim == 0 or x.shape[-1] != lanes:
        raise ExecutionError(
            f"slice_reduction needs one stick ({lanes} lanes of {et.name}) on the last axis, "
            f"got shape {x.shape}"
        )
    # in_slice reduces the lane axis; across_slice reduces all stick positions, lane by lane.
    sticks = x if scope == "in_slice" else x.reshape(-1, lanes).T
    if kind == "sub":
        # first - (the rest): one exact sum of the first and the negated rest.
        signed_terms = np.concatenate([sticks[..., :1], -sticks[..., 1:]], axis=-1)
        acc = reduce("add", signed_terms, -1, et, round_result=False)
    elif kind == "abs_max":
        acc = reduce("max", np.abs(sticks), -1, et, round_result=False)
    else:
        acc = reduce(kind, sticks, -1, et, round_result=False)
    result = round_to(et, acc)
    if scope == "in_slice":
        return np.broadcast_to(result[..., None], x.shape).copy()
    return np.broadcast_to(result, x.shape).copy()
