"""Reductions (`linalg.reduce`, reducing `linalg.generic`, `spyreop.slice_reduction`).

Shared semantics, which both executors must follow:

* float `add` and `mul` (f16, bf16, df16, f32, f64) give the **exact** sum or product of the
  exact values (and `init`), rounded **once** to the element type (correctly rounded).  So
  the result does not depend on the order of the terms, nor on how a reduction is split.
  Fast path: float64 accumulation, taken per output only when it is provably exact
  (`float64_sum_is_exact`: every term is a multiple of 2**q, and n * max|x| <= 2**(53 + q),
  so every partial sum is an integer multiple of 2**q below 2**53 * 2**q, which float64
  holds exactly; for a product: the terms' significant bits add up to at most 53 with no
  overflow or underflow). For f16 the sum bound always holds up to 8192 terms. Otherwise
  the output is computed exactly (`math.fsum` and the sign of its residual; integer
  significands for products) and brought to float64 by rounding to odd, which the final
  rounding to a type of at most 51 significant bits turns into a correct rounding.
  Two cheaper routes to the same bits: a few finite terms in all (one stick) are summed
  with `math.fsum` row by row, with no proof; and the rows the proof fails are first tried
  all at once by `split_exact_sums` (each term split in two parts that each sum exactly).
* An executor that accumulates in hardware order in an accumulator type is compared with
  this result within the bounds of `error_bounds` (docs/numerics.md states them); every
  other op, and max/min reductions, must match bit for bit.
* `round_result=False` returns the float64 accumulator of each output without the final
  rounding: exact when the fast path's bound holds, otherwise the exact value rounded to odd
  (rounding it once more to the element type is then still correct).
* `max`/`min` propagate NaN (like `arith.maximumf`); `maxnum`/`minnum` ignore NaN; -0 < +0.
* integers accumulate in 64-bit and wrap to the type at the end (the same as wrapping every
  step); `max`/`min` read signed, `maxu`/`minu` unsigned.
* `init` (the reduction's initial value, e.g. linalg.reduce's init operand) is one more
  term of the exact sum or product.  Reducing zero elements gives the identity.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from spyre_sched.errors import ExecutionError

from . import ieee_minmax
from .element_types import ElementType, element_type, round_to, wrap_int
from .int_views import signed, signed_range, unsigned, unsigned_max

FLOAT_KINDS = ("add", "mul", "max", "min", "maxnum", "minnum")
INT_KINDS = ("add", "mul", "max", "min", "maxu", "minu", "and", "or", "xor")

# Combiner op of a linalg.reduce body -> reduction kind.
REDUCTION_KIND_OF_OP = {
    "arith.addf": "add", "arith.mulf": "mul",
    "arith.maximumf": "max", "arith.minimumf": "min",
    "arith.maxnumf": "maxnum", "arith.minnumf": "minnum",
    "arith.addi": "add", "arith.muli": "mul",
    "arith.maxsi": "max", "arith.minsi": "min", "arith.maxui": "maxu", "arith.minui": "minu",
    "arith.andi": "and", "arith.ori": "or", "arith.xori": "xor",
}

_FLOAT_REDUCE = {
    "add": (np.add, 0.0), "mul": (np.multiply, 1.0),
    "max": (np.maximum, -np.inf), "min": (np.minimum, np.inf),
    "maxnum": (np.fmax, -np.inf), "minnum": (np.fmin, np.inf),
}
_FLOAT_COMBINE = {
    "add": np.add, "mul": np.multiply,
    "max": ieee_minmax.maximum, "min": ieee_minmax.minimum,
    "maxnum": ieee_minmax.maxnum, "minnum": ieee_minmax.minnum,
}


def _normalize_axes(axes, ndim: int) -> tuple[int, ...]:
    if axes is None:
        return tuple(range(ndim))
    if isinstance(axes, (int, np.integer)):
        axes = (int(axes),)
    out = []
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise ExecutionError(f"reduction axis {ax} out of range for rank {ndim}")
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ExecutionError(f"reduction axes {tuple(axes)} repeat an axis")
    return tuple(sorted(out))


def _float_reduce(kind: str, acc: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    if not axes:
        return acc
    ufunc, identity = _FLOAT_REDUCE[kind]
    if kind in ("add", "mul"):
        out = ufunc.reduce(acc, axis=axes)
        if kind == "add" and all(acc.shape[a] for a in axes):
            # numpy's sum starts from +0; IEEE gives -0 when every term is -0.
            all_negative_zero = np.all((acc == 0) & np.signbit(acc), axis=axes)
            out = np.where(all_negative_zero, -0.0, out)
    else:
        out = ufunc.reduce(acc, axis=axes, initial=identity)  # empty max/min -> identity
    if kind in ("max", "min", "maxnum", "minnum"):
        # ufunc max/min may return either zero for {-0, +0}: order -0 < +0 explicitly.
        want_positive = kind in ("max", "maxnum")
        zeros = acc == 0
        has = np.any(zeros & (np.signbit(acc) != want_positive), axis=axes)
        out = np.where((out == 0) & has, 0.0 if want_positive else -0.0, out)
    return np.asarray(out, dtype=np.float64)


def _int_reduce(kind: str, et: ElementType, values: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    if kind in ("maxu", "minu"):
        u = unsigned(et, values).astype(np.uint64)
        if kind == "maxu":
            return np.maximum.reduce(u, axis=axes, initial=np.uint64(0))
        return np.minimum.reduce(u, axis=axes, initial=np.uint64(unsigned_max(et)))
    s = signed(et, values).astype(np.int64)
    low, high = signed_range(et)
    table = {
        "add": (np.add, 0), "mul": (np.multiply, 1), "max": (np.maximum, low),
        "min": (np.minimum, high), "and": (np.bitwise_and, -1), "or": (np.bitwise_or, 0),
        "xor": (np.bitwise_xor, 0),
    }
    ufunc, identity = table[kind]
    return ufunc.reduce(s, axis=axes, initial=np.int64(identity))


def _int_combine(kind: str, et: ElementType, a, b):
    if kind in ("maxu", "minu"):
        fn = np.maximum if kind == "maxu" else np.minimum
        return fn(np.asarray(a).astype(np.uint64), unsigned(et, b).astype(np.uint64))
    fn = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum,
          "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[kind]
    return fn(np.asarray(a).astype(np.int64), signed(et, b).astype(np.int64))


def reduce(kind: str, array, axes, element_type_name, init=None, round_result: bool = True):
    """Reduce `array` (values of the element type) over `axes` (int, tuple, or None = all).

    `kind` is one of FLOAT_KINDS / INT_KINDS, or a combiner op name from
    REDUCTION_KIND_OF_OP.  With `round_result=False` the float64 (floats) or int64/uint64
    (integers) accumulator is returned unrounded, for combining partial reductions.
    """
    et = element_type(element_type_name)
    kind = REDUCTION_KIND_OF_OP.get(kind, kind)
    kinds = FLOAT_KINDS if et.is_float else INT_KINDS
    if kind not in kinds:
        raise ExecutionError(f"unknown {et.kind} reduction kind '{kind}' (known: {', '.join(kinds)})")
    arr = np.asarray(array)
    ax = _normalize_axes(axes, arr.ndim)
    with np.errstate(all="ignore"):
        if et.is_float:
            if kind in ("add", "mul"):
                acc = _exact_reduce(kind, arr.astype(np.float64), ax, init, et.name)
            else:
                acc = _float_reduce(kind, arr.astype(np.float64), ax)
                if init is not None:
                    acc = _FLOAT_COMBINE[kind](acc, np.asarray(init, dtype=np.float64))
            return round_to(et, acc) if round_result else acc
        acc = _int_reduce(kind, et, arr, ax)
        if init is not None:
            acc = _int_combine(kind, et, acc, np.asarray(init).astype(et.value_dtype))
        return wrap_int(et, acc) if round_result else acc


# ---- exact float sums and products ---------------------------------------------------------


def _terms(values: np.ndarray, axes: tuple[int, ...], init) -> np.ndarray:
    """The terms of every output along one last axis: shape (*kept, n [+1 for init])."""
    if init is None and axes == (values.ndim - 1,):
        return values                                         # already (*kept, n)
    kept = [d for d in range(values.ndim) if d not in axes]
    moved = np.moveaxis(values, [*kept, *axes], range(values.ndim))
    terms = moved.reshape(*moved.shape[:len(kept)], -1)
    if init is not None:
        extra = np.broadcast_to(np.asarray(init, dtype=np.float64), terms.shape[:-1])
        terms = np.concatenate([terms, extra[..., None]], axis=-1)
    return terms


#: the (-inf, +inf) markers of `_exponents`: far past any float64 exponent, and the sum of
#: two still fits frexp's int32 exponents (a marker that does not fit came out 0 there)
NO_TOP, NO_LOW = -(1 << 29), 1 << 29


def _exponents(terms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For finite non-zero terms: e with |x| < 2**e, and q with x a multiple of 2**q (the
    weight of the lowest set bit). Zeros and non-finite terms give (-inf, +inf) markers."""
    finite = np.isfinite(terms) & (terms != 0)
    mantissa, exponent = np.frexp(np.where(finite, terms, 1.0))
    digits = np.abs(mantissa * 2.0**53).astype(np.int64)       # exact: 53-bit integers
    lowest = digits & -digits
    q = exponent - 53 + np.log2(np.maximum(lowest, 1)).astype(np.int64)
    top = np.where(finite, exponent, NO_TOP)
    low = np.where(finite, q, NO_LOW)
    return top, low


#: (e, q) per value: |x| < 2**e and x a multiple of 2**q (markers for zeros and non-finite
#: values), for callers that bound sums without materialising every term
term_exponents = _exponents


def float64_sum_is_exact(terms: np.ndarray) -> np.ndarray:
    """Per output (last axis = the terms): whether summing the finite terms in float64, in
    any order, is exact. Every term is a multiple of 2**q_min and n * max|x| <= 2**(53 +
    q_min), so every partial sum is an integer multiple of 2**q_min below 2**53 in those
    units: float64 holds it exactly."""
    n = terms.shape[-1]
    if n == 0:
        return np.ones(terms.shape[:-1], dtype=bool)
    top, low = _exponents(terms)
    log_n = max(n - 1, 1).bit_length()                       # 2**log_n >= n
    return top.max(axis=-1) + log_n <= 53 + low.min(axis=-1)


def _float64_product_is_exact(terms: np.ndarray) -> np.ndarray:
    top, low = _exponents(terms)
    finite = np.isfinite(terms) & (terms != 0)
    bits = np.where(finite, top - low, 0).sum(axis=-1)       # significant bits per term
    exponent_sum = np.where(finite, top, 0).sum(axis=-1)
    return (bits <= 53) & (np.abs(exponent_sum) < 900)


def split_exact_sums(rows: np.ndarray, to_odd: bool) -> tuple[np.ndarray, np.ndarray]:
    """The exact sum of each row (terms on the last axis) in float64, all rows at once:
    correctly rounded, or rounded to odd; and which rows it decided (the others need
    `_exact_sum`). Each term is split at C = e_max + log_n - 53 into a multiple of 2**C
    (hi) and the rest in [0, 2**C) (lo); n terms of either part sum exactly in float64
    when the row's bits span at most 106 - 2 * log_n, so the exact sum is S_hi + S_lo, and
    TwoSum gives its rounding to nearest s and the residual t = exact - s. Rows with a
    non-finite term, a zero result (whose sign `_exact_sum` decides) or exponents near the
    ends of float64 are left undecided."""
    count, n = rows.shape
    if count == 0 or n == 0:
        return np.zeros(count), np.zeros(count, dtype=bool)
    top, low = _exponents(rows)
    log_n = max(n - 1, 1).bit_length()                       # 2**log_n >= n
    e_max, q_min = top.max(axis=-1), low.min(axis=-1)
    cut = e_max + log_n - 53
    decided = (np.isfinite(rows).all(axis=-1) & (cut + log_n <= 53 + q_min)
               & (e_max + log_n <= 1000) & (e_max >= -1000) & (q_min >= -1000))
    cut = np.where(decided, cut, 0)[:, None]
    x = np.where(decided[:, None], rows, 0.0)
    hi = np.ldexp(np.floor(np.ldexp(x, -cut)), cut)          # exact: scaling by 2**-C
    lo = x - hi                                              # exact: the bits below 2**C
    s_hi, s_lo = hi.sum(axis=-1), lo.sum(axis=-1)            # exact by the span bound
    s = s_hi + s_lo
    b = s - s_hi                                             # TwoSum: t = s_hi + s_lo - s
    t = (s_hi - (s - b)) + (s_lo - b)
    decided &= s != 0
    if to_odd:
        other = np.nextafter(s, np.where(t > 0, np.inf, -np.inf))
        other_odd = (other.view(np.int64) & 1).astype(bool)
        s = np.where((t != 0) & other_odd, other, s)
    return s, decided


def _to_odd(exact: Fraction | float, nearest: float) -> float:
    """The float64 next to `exact` (with `nearest` its correctly rounded float64) whose last
    significand bit is odd, unless `exact` is a float64: rounding to odd."""
    if Fraction(nearest) == exact:
        return nearest
    other = math.nextafter(nearest, math.inf if exact > Fraction(nearest) else -math.inf)
    pair = (nearest, other)
    bits = [int(np.float64(v).view(np.int64)) & 1 for v in pair]
    return pair[bits.index(1)] if 1 in bits else nearest


def _exact_sum(terms: np.ndarray, to_odd: bool) -> float:
    values = [float(v) for v in terms]
    nonfinite = [v for v in values if not math.isfinite(v)]
    if nonfinite:
        return float(np.sum(nonfinite))                       # nan, or one infinity
    return _finite_sum(values, to_odd)


def _finite_sum(values: list[float], to_odd: bool) -> float:
    """The exact sum of finite floats, correctly rounded or rounded to odd."""
    try:
        nearest = math.fsum(values)
    except OverflowError:
        exact: Fraction = sum((Fraction(v) for v in values), Fraction(0))
        return _fraction_to_float(exact, to_odd)
    if not to_odd or not math.isfinite(nearest):
        return nearest
    residual = math.fsum([*values, -nearest])                 # sign of exact - nearest
    if residual == 0:
        return nearest
    other = math.nextafter(nearest, math.inf if residual > 0 else -math.inf)
    return other if int(np.float64(other).view(np.int64)) & 1 else nearest


def _fraction_to_float(exact: Fraction, to_odd: bool) -> float:
    try:
        nearest = float(exact)
    except OverflowError:
        return math.inf if exact > 0 else -math.inf
    return _to_odd(exact, nearest) if to_odd and math.isfinite(nearest) else nearest


def _exact_product(terms: np.ndarray, to_odd: bool) -> float:
    values = [float(v) for v in terms]
    if any(not math.isfinite(v) for v in values) or 0.0 in values:
        return float(np.prod(np.asarray(values, dtype=np.float64)))  # nan, inf or signed 0
    exact = Fraction(1)
    for v in values:
        exact *= Fraction(v)
    return _fraction_to_float(exact, to_odd)


# Per type: (e_max with |x| < 2**e_max for every finite value, q with every value a
# multiple of 2**q). f16: |x| < 2**16, multiples of 2**-24, so any 8192 terms sum exactly.
_TYPE_EXPONENTS = {"f16": (16, -24)}


def _sum_exact_for_type(type_name: str, n: int) -> bool:
    """Whether float64 sums every n values of the type exactly (a bound on the type alone)."""
    if type_name not in _TYPE_EXPONENTS:
        return False
    top, low = _TYPE_EXPONENTS[type_name]
    return top + max(n - 1, 1).bit_length() <= 53 + low


#: up to this many terms in all, a sum of finite terms is computed row by row in Python
_FEW_TERMS = 1024


def _exact_reduce(kind: str, values: np.ndarray, axes: tuple[int, ...], init,
                  type_name: str) -> np.ndarray:
    """Float add/mul reduction: float64 where provably exact, exact arithmetic elsewhere."""
    terms = _terms(values, axes, init)
    n = terms.shape[-1]
    to_odd = type_name != "f64"   # f64: the correctly rounded float64 is the result
    if (kind == "add" and 1 < n and terms.size <= _FEW_TERMS
            and not _sum_exact_for_type(type_name, n) and np.isfinite(terms).all()):
        # Few finite terms (one stick, say): summing them exactly in Python costs less than
        # proving float64 exact, and gives the same value. The zero's sign is the float64
        # sum's: -0 only when every term is -0.
        sums = []
        for row in terms.reshape(-1, n).tolist():
            total = _finite_sum(row, to_odd)
            if total == 0:
                total = -0.0 if all(math.copysign(1.0, v) < 0 for v in row) else 0.0
            sums.append(total)
        return np.array(sums, dtype=np.float64).reshape(terms.shape[:-1])
    fast = _float_reduce(kind, values, axes)
    if init is not None:
        fast = _FLOAT_COMBINE[kind](fast, np.asarray(init, dtype=np.float64))
    fast = np.asarray(fast, dtype=np.float64)
    if n <= 1 or (kind == "add" and _sum_exact_for_type(type_name, n)):
        return fast
    exact_ok = (float64_sum_is_exact(terms) if kind == "add"
                else _float64_product_is_exact(terms))
    if np.all(exact_ok):
        return fast
    out = np.array(fast, dtype=np.float64, copy=True)
    slow = _exact_sum if kind == "add" else _exact_product
    undecided = ~np.asarray(exact_ok)
    if kind == "add":
        rows = np.nonzero(undecided.reshape(-1))[0]
        flat_terms = terms.reshape(-1, n)
        sums, decided = split_exact_sums(flat_terms[rows], to_odd)
        out.reshape(-1)[rows[decided]] = sums[decided]
        undecided.reshape(-1)[rows[decided]] = False
    for index in np.argwhere(undecided):
        out[tuple(index)] = slow(terms[tuple(index)], to_odd)
    return out


_F32_MAX = float(np.finfo(np.float32).max)


def few_f32_sums(values: np.ndarray) -> np.ndarray | None:
    """`reduce("add", values, -1, "f32")` for float32 `values` of at most _FEW_TERMS
    elements (1 < terms per row) whose terms are all finite: the same sums as
    `_exact_reduce`'s few-terms path (exact, rounded to odd in float64, then to f32),
    without the layers around it; None when that path does not apply (the caller then
    calls `reduce`)."""
    n = values.shape[-1]
    if n <= 1 or values.size > _FEW_TERMS:
        return None
    sums = []
    fsum = math.fsum
    for row in values.reshape(-1, n).tolist():
        try:
            nearest = fsum(row)
        except (ValueError, OverflowError):          # inf - inf, or beyond float64
            return None
        if not math.isfinite(nearest):               # a NaN or infinite term
            return None
        residual = fsum([*row, -nearest])             # sign of exact - nearest
        total = nearest
        if residual != 0:
            other = math.nextafter(nearest, math.inf if residual > 0 else -math.inf)
            if int(np.float64(other).view(np.int64)) & 1:
                total = other
        if total == 0:
            total = -0.0 if all(math.copysign(1.0, v) < 0 for v in row) else 0.0
        elif not -_F32_MAX <= total <= _F32_MAX:
            return None                               # rounds to an infinity: `reduce`'s way
        sums.append(total)
    return np.array(sums, dtype=np.float64).reshape(values.shape[:-1]).astype(np.float32)


# The comparison of an executor that sums in hardware order with `reduce` (its error
# bounds) lives in `error_bounds`.
