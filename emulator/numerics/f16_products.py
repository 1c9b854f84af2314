"""Sums of f16 x f16 products, exactly, rounded once to f32, without the products.

The rule for a float sum (`reductions.reduce`) is the exact sum of the exact terms (and
the init), rounded once. When the terms are products of two f16 values (a matmul's
`extf, extf, mulf f32` body), that sum is a matrix product, and float64 gives it exactly
in two ways:

- every product is exact in float64 (at most 22 significant bits between 2**-48 and
  2**32), and so is a sum of them, in any order (BLAS may block or reorder), when per
  output every term and the init is a multiple of 2**q and (K + 1) * max |term| <=
  2**(53 + q): checked from per-row and per-column exponents of the operands (|a * b| <
  2**(ta + tb), a * b a multiple of 2**(qa + qb)), which only errs on the safe side;
- else, where float64's own sum decides the rounding: a float64 sum of K + 1 terms in
  any order is within (K + 1) * 2**-52 * sum |term| of the exact one (twice the textbook
  bound, which also covers the rounding of that figure and of the interval's ends); when
  that interval excludes 0 and both its ends round to one f32, so does the exact sum
  (rounding is monotone). Most outputs of a real matmul are settled here;
- else in integer pieces: every f16 value is an integer below 2**40 times 2**-24; split
  into pieces of `bits` bits (least significant first, the sign on every piece), the
  products of two pieces are integers below 2**(2 * bits) and K of them sum exactly in
  float64 when K * 2**(2 * bits) <= 2**53. The pieces' product matrices, scaled by exact
  powers of two, and the init are then a few terms per output that `reduce` sums
  exactly.

An output whose sum is zero takes its sign from the terms (every term -0 gives -0): its
K products are materialised and reduced by the rule itself. Non-finite operands are the
caller's to route elsewhere (`exact_f16_product_sums` refuses them with None).
"""

from __future__ import annotations

import numpy as np

from .element_types import round_to
from .reductions import reduce, term_exponents

_F16_EXPONENTS: tuple[np.ndarray, np.ndarray] | None = None


def f16_exponents(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`term_exponents` of f16 values as int8, looked up by bit pattern in a table of all
    65536: (e, q) with |x| < 2**e and x a multiple of 2**q lie in [-24, 16] for finite
    non-zero values; zeros and non-finite values give -128 and 127, the int8 extremes
    (they bound nothing under max and min). A sum of two needs a wider type. int8 tables
    and `take` halve the lookup of int32 ones and fancy indexing."""
    global _F16_EXPONENTS
    if _F16_EXPONENTS is None:
        every = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
        top, low = term_exponents(every.astype(np.float64))
        _F16_EXPONENTS = (np.clip(top, -128, 127).astype(np.int8),
                          np.clip(low, -128, 127).astype(np.int8))
    bits = np.ascontiguousarray(values, dtype=np.float16).view(np.uint16)
    return _F16_EXPONENTS[0].take(bits), _F16_EXPONENTS[1].take(bits)


def exact_f16_product_sums(a: np.ndarray, b: np.ndarray,
                           init: np.ndarray | None = None) -> np.ndarray | None:
    """reduce("add", a[i, :] * b[:, j] (+ init[i, j]), "f32") for every output, as an
    M x N float array: f16 `a` (M x K) and `b` (K x N), their products exact in f32;
    `init` (M x N float64) an extra term of each sum. None when an operand or the init
    is not finite."""
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        return None
    if init is not None:
        init = np.asarray(init, dtype=np.float64)
        if not np.isfinite(init).all():
            return None
        init = np.broadcast_to(init, (a.shape[0], b.shape[1]))
    result, by_parts, total, a64, b64 = _decided_in_float64(a, b, init)
    k = a.shape[1]
    if by_parts.any():
        result[by_parts] = _sums_by_parts(a, b, init, k)[by_parts]
    zero = total == 0
    if zero.any():
        rows, cols = np.nonzero(zero)
        terms = a64[rows, :] * b64[:, cols].T  # the f32 products, exactly
        result[zero] = reduce("add", terms, 1, "f32",
                              init=None if init is None else init[zero])
    return result


def stacked_exact_f16_product_sums(a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """`exact_f16_product_sums(a[i], b[i])` for every i of stacked operands (a: n x M x K,
    b: n x K x N), as one n x M x N array, where float64 decides every output (the
    common case); None when an operand is not finite or some output needs the integer
    pieces or is an exact zero (the caller then takes them one at a time)."""
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        return None
    result, by_parts, total, _, _ = _decided_in_float64(a, b, None)
    if by_parts.any() or not total.all():
        return None
    return result


def _decided_in_float64(a: np.ndarray, b: np.ndarray, init: np.ndarray | None):
    """(float64's sums rounded to f32, the outputs float64 does not decide, the float64
    sums, a and b in float64) over any leading axes of finite operands: float64 decides
    where it is provably exact or its error interval rounds to one f32 (module doc); an
    exact zero sum is left to the caller (its sign comes from its terms)."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    top_a, low_a = f16_exponents(a)
    top_b, low_b = f16_exponents(b)
    # (int8 extremes per row and column, widened before they are added; an operand row or
    # column of zeros keeps every sum it takes part in exact, as its markers say)
    top = top_a.max(axis=-1).astype(np.int32)[..., :, None] \
        + top_b.max(axis=-2).astype(np.int32)[..., None, :]
    low = low_a.min(axis=-1).astype(np.int32)[..., :, None] \
        + low_b.min(axis=-2).astype(np.int32)[..., None, :]
    k = a.shape[-1]
    if init is not None:
        init = np.broadcast_to(init, top.shape)
        top_c, low_c = term_exponents(init)
        top, low = np.maximum(top, top_c), np.minimum(low, low_c)
    log_n = max(k, 1).bit_length()  # 2**log_n >= K + 1 terms with the init
    exact = top + log_n <= 53 + low
    total = a64 @ b64
    if init is not None:
        total = total + init
    result = round_to("f32", total)
    undecided = ~exact & (total != 0)
    if undecided.any():
        magnitude = np.abs(a64) @ np.abs(b64)
        if init is not None:
            magnitude = magnitude + np.abs(init)
        error = magnitude * ((k + 1) * 2.0**-52)
        with np.errstate(over="ignore"):
            settled = (np.abs(total) > error) \
                & (round_to("f32", total - error) == round_to("f32", total + error))
        undecided &= ~settled
    return result, undecided, total, a64, b64


def _sums_by_parts(a: np.ndarray, b: np.ndarray, init: np.ndarray | None,
                   k: int) -> np.ndarray:
    """Every output's sum from integer pieces (module doc), rounded once to f32."""
    bits = (53 - k.bit_length()) // 2
    pieces = -(-40 // bits)
    step = 2.0**bits

    def split(x: np.ndarray) -> list[np.ndarray]:
        sign = np.sign(x.astype(np.float64))
        magnitude = np.abs(x.astype(np.float64)) * 2.0**24  # an exact integer
        out = []
        for _ in range(pieces):
            low = np.mod(magnitude, step)
            out.append(sign * low)
            magnitude = (magnitude - low) / step
        return out

    a_parts, b_parts = split(a), split(b)
    terms = [a_i @ b_j * 2.0 ** (bits * (i + j) - 48)
             for i, a_i in enumerate(a_parts) for j, b_j in enumerate(b_parts)]
    return reduce("add", np.stack(terms, axis=-1), 2, "f32", init=init)
