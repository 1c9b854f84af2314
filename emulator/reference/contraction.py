"""A matmul-shaped reduction through `numpy.matmul`, when that is provably the same numbers.

The reference's rule for a float sum (`emulator.numerics.reductions`) is the exact sum of
the exact terms and the init, rounded once. A reduction over an M x N x K domain normally
materialises its terms slab by slab. For the body of a mixed-precision matmul,

    %x32 = arith.extf %x : f16 to f32 ; %y32 = arith.extf %y : f16 to f32
    %p = arith.mulf %x32, %y32 : f32 ; %s = arith.addf %out, %p : f32

every term is an f16 x f16 product, exact in f32, and their sums are matrix products:
`numerics.exact_f16_product_sums` takes them exactly in float64 (where provably exact,
else in integer pieces of the operands, exact zeros from their materialised terms) and
rounds each once, the rule's value, whatever order BLAS sums in.

A launch that tracks error bounds takes this path too: the bound of a reordered sum reads
only sums over the terms of their magnitudes and of each sign's, which are matrix products
as well (`sum_bound`); a 4096^3 matmul's terms, materialised, would take 2**31 float64
values per 128-row tile. When the operands or the init carry bounds of their own (an FFN's
down projection reads H = silu(X @ Wg) * (X @ Wu), which reordered sums reach), each term's
bound is taken no smaller than the general path's and summed by matrix products too
(`carried_sum_bound`). Anything else takes the general path: other bodies or types, a
non-finite operand, a bound that is not finite, a corner that overflows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import Block, BlockArgument, Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap

from emulator.numerics import exact_f16_product_sums, sum_error_bound
from emulator.numerics.error_bounds import UNIT_ROUNDOFF
from emulator.numerics.reductions import term_exponents
from emulator.reference.types import element_name


def _extended_arg(value, block: Block) -> int | None:
    """The position of the f16 block argument `value` extends exactly to f32, or None."""
    op = value.owner
    if not isinstance(op, Operation) or op.name != "arith.extf" or op.parent_block() is not block:
        return None
    source = op.operands[0]
    if (not isinstance(source, BlockArgument) or source.block is not block
            or element_name(source.type) != "f16" or element_name(op.results[0].type) != "f32"):
        return None
    return source.index


def matmul_body(block: Block, combiners) -> tuple[int, int] | None:
    """(left, right) block-argument positions when the body is exactly extf, extf, mulf
    (f32) and the addf combiner (f32) of a two-input, one-output reduction; else None."""
    if len(combiners) != 1 or len(block.args) != 3:
        return None
    comb, product = combiners[0]
    mul = product.owner
    if (comb.name != "arith.addf" or not isinstance(mul, Operation) or mul.name != "arith.mulf"
            or mul.parent_block() is not block or element_name(mul.results[0].type) != "f32"
            or element_name(block.args[2].type) != "f32"):
        return None
    sides = [_extended_arg(v, block) for v in mul.operands]
    if sorted(s for s in sides if s is not None) != [0, 1]:
        return None
    if len(list(block.ops)) != 5:  # extf, extf, mulf, addf, yield: nothing else
        return None
    return sides[0], sides[1]


def _dims(amap: AffineMap) -> list[int] | None:
    if not all(isinstance(e, AffineDimExpr) for e in amap.results):
        return None
    return [e.position for e in amap.results]


def contract(bound_in, maps, sizes: list[int], red: list[int], init,
             errors: SumBounds | None = None, carried: tuple | None = None):
    """The f32 values of sum_k a * b + init over the reduction loop, in the parallel loops'
    order (`init` given in that order), or None when it is not an f16 matmul of that shape
    or a value is not finite. `bound_in`: the two f16 operands laid out over the domain.
    With `errors` (a launch that tracks bounds), a pair: the values and the bound of a
    reordered sum of each. `carried`: (a's bound, b's bound, the init's bound), each laid
    out like its value or None (exact); None when a bound is not finite."""
    if len(sizes) != 3 or len(red) != 1 or not all(sizes):
        return None
    r = red[0]
    dims = [_dims(m) for m in maps[:2]]
    if any(d is None or len(d) != 2 or r not in d or len(set(d)) != 2 for d in dims):
        return None
    (pa,) = set(dims[0]) - {r}
    (pb,) = set(dims[1]) - {r}
    if pa == pb:
        return None
    def left(x):  # the domain's axes, in order, but pb; then (pa, r)
        x = np.squeeze(np.broadcast_to(np.asarray(x), np.shape(bound_in[0])), axis=pb)
        return x if pa < r else x.T

    def right(x):  # (r, pb)
        x = np.squeeze(np.broadcast_to(np.asarray(x), np.shape(bound_in[1])), axis=pa)
        return x if r < pb else x.T

    a, b = left(bound_in[0]), right(bound_in[1])
    init = np.asarray(init, dtype=np.float64)
    if a.dtype != np.float16 or b.dtype != np.float16:
        return None
    # laid out (pa, pb) for the product; the result comes in the parallel loops' order
    out_shape = (a.shape[0], b.shape[1]) if pa < pb else (b.shape[1], a.shape[0])
    init = np.broadcast_to(init, out_shape)
    bounds = None
    if carried is not None:
        ea, eb, e_init = carried
        bounds = [None if ea is None else left(np.asarray(ea, dtype=np.float64)),
                  None if eb is None else right(np.asarray(eb, dtype=np.float64)),
                  None if e_init is None else np.broadcast_to(
                      np.asarray(e_init, dtype=np.float64), out_shape)]
        if not all(e is None or np.isfinite(e).all() for e in bounds):
            return None
    sums = exact_f16_product_sums(a, b, init if pa < pb else init.T)
    if sums is None:
        return None
    result = sums if pa < pb else sums.T
    if errors is None:
        return result
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if pa > pb:
        a64, b64 = b64.T, a64.T  # so that a64 @ b64 is laid out like `result`
        if bounds is not None:
            ea, eb, e_init = bounds
            bounds = [None if eb is None else eb.T, None if ea is None else ea.T, e_init]
    if bounds is not None and any(e is not None for e in bounds):
        bound = carried_sum_bound(a64, b64, *bounds, init, result, errors)
        return None if bound is None else (result, bound)
    return result, sum_bound(a64, b64, init, result, errors)


@dataclass(frozen=True)
class SumBounds:
    """How a launch bounds a reordered sum: the accumulator type, the most roundings a
    term goes through (None: any order) and the output's element type."""

    accumulator: str
    max_roundings: int | None
    element_type: str


def sum_bound(a64: np.ndarray, b64: np.ndarray, init: np.ndarray, oracle: np.ndarray,
              how: SumBounds) -> np.ndarray:
    """`numerics.reduction_error_bound` of the sums of a64[i, k] * b64[k, j] and init[i, j]
    (exact f16 values and products, no carried bounds) without materialising the terms:
    what the rule reads of them are sums of products, so matrix products give them
    (|a| @ |b| for the magnitudes; the positive and negative parts of a and b for what
    each side may reach). float64 sums of K + 1 non-negative terms lie within
    (K + 1) * 2**-53 relative of the exact ones (Higham 4.2); each is widened by that, so
    the bound holds whatever order BLAS adds them in."""
    n = a64.shape[1] + 1
    widen = 1 + n * 2.0**-52
    reach_pos, reach_neg = _reaches(a64, b64, init)
    positive, negative = reach_pos * widen, reach_neg * widen
    return sum_error_bound(positive + negative, n, how.accumulator, how.element_type, oracle,
                           how.max_roundings, positive=positive, negative=negative)


def _reaches(a64: np.ndarray, b64: np.ndarray, init: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sums of the terms' (and the init's) positive parts and of their negative parts'
    magnitudes, per output: matrix products of each operand's positive and negative parts."""
    a_pos, a_neg = np.maximum(a64, 0.0), np.maximum(-a64, 0.0)
    b_pos, b_neg = np.maximum(b64, 0.0), np.maximum(-b64, 0.0)
    return (a_pos @ b_pos + a_neg @ b_neg + np.maximum(init, 0.0),
            a_pos @ b_neg + a_neg @ b_pos + np.maximum(-init, 0.0))


def carried_sum_bound(a64: np.ndarray, b64: np.ndarray, ea: np.ndarray | None,
                      eb: np.ndarray | None, e_init: np.ndarray | None, init: np.ndarray,
                      oracle: np.ndarray, how: SumBounds) -> np.ndarray | None:
    """`sum_bound` where the f16 operands or the init carry bounds (None: exact), never
    smaller than the general path's (the body's ops bounded one by one by the corner
    rule, then `numerics.reduction_error_bound` of the materialised terms), so that a
    verdict cannot change with the path; None when a corner overflows f16 (the general
    path says what that gives).

    The general path follows an operand's corners a -+ e through the body: `arith.extf`
    reads them as f16 (rounded to f16 first), so the extension lies within e16 = the
    larger of |f16(a -+ e) - a|; `arith.mulf` reads its corners a -+ e16 as f32 (rounded
    to f32), within e32 = the larger of |f32(a -+ e16) - a|; all per operand element and
    computed here the same way. The product X * Y of such corners lies within
    e32_a |b| + |a| e32_b + e32_a e32_b of a * b, and its rounding to f32 adds at most
    u |X * Y| (u = 2**-24; f16-grid corners are multiples of 2**-24, so no product is
    subnormal), and nothing when X and Y have at most 24 significant bits together: an
    exact operand is f16 (11 bits), so only a corner of more than 13 bits, or a term
    whose two operands both vary, is counted. Summed over k those are matrix products;
    the init's bound is one more term's. The rule reads the terms' magnitudes plus
    bounds, their bounds' sum, and what each side may reach (at most its part of the
    magnitudes plus every bound); float64 sums of K + 1 non-negative terms lie within
    (K + 1) * 2**-53 relative of the exact ones, and each is widened by twice that, which
    also covers the general path's own float64 sums."""
    n = a64.shape[1] + 1
    widen = 1 + 2 * n * 2.0**-52
    u = UNIT_ROUNDOFF["f32"]
    magnitude_a, magnitude_b = np.abs(a64), np.abs(b64)
    zero_a, zero_b = np.zeros_like(a64), np.zeros_like(b64)

    def as_seen(x, e, zero):
        """(e32, whether a corner may make a product round, whether the operand varies)."""
        if e is None:
            return zero, zero, zero
        with np.errstate(over="ignore", invalid="ignore"):
            e16 = np.maximum(np.abs((x - e).astype(np.float16).astype(np.float64) - x),
                             np.abs((x + e).astype(np.float16).astype(np.float64) - x))
            low = (x - e16).astype(np.float32).astype(np.float64)
            high = (x + e16).astype(np.float32).astype(np.float64)
        varies = e16 > 0
        e32 = np.where(varies, np.maximum(np.abs(low - x), np.abs(high - x)), 0.0)
        bits = np.maximum(*(np.subtract(*term_exponents(c)) for c in (low, high)))
        return e32, (varies & (bits > 13)).astype(np.float64), varies.astype(np.float64)

    e32_a, wide_a, varies_a = as_seen(a64, ea, zero_a)
    e32_b, wide_b, varies_b = as_seen(b64, eb, zero_b)
    if not (np.isfinite(e32_a).all() and np.isfinite(e32_b).all()):
        return None
    reach_a, reach_b = magnitude_a + e32_a, magnitude_b + e32_b
    rounding = (wide_a * reach_a) @ reach_b + reach_a @ (wide_b * reach_b) \
        + (varies_a * reach_a) @ (varies_b * reach_b)
    carried = e32_a @ magnitude_b + magnitude_a @ e32_b + e32_a @ e32_b + u * rounding
    if e_init is not None:
        carried = carried + e_init
    reach_pos, reach_neg = _reaches(a64, b64, init)
    positive = (reach_pos + carried) * widen
    negative = (reach_neg + carried) * widen
    total = (reach_pos + reach_neg + carried) * widen
    return sum_error_bound(total, n, how.accumulator, how.element_type, oracle,
                           how.max_roundings, carried * widen, positive=positive,
                           negative=negative)
