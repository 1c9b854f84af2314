"""A matmul-shaped reduction through `numpy.matmul`, when that is provably the same numbers.

The reference's rule for a float sum (`emulator.numerics.reductions`) is the exact sum of
the exact terms and the init, rounded once. A reduction over an M x N x K domain normally
materialises its terms slab by slab. For the body of a mixed-precision matmul,

    %x32 = arith.extf %x : f16 to f32 ; %y32 = arith.extf %y : f16 to f32
    %p = arith.mulf %x32, %y32 : f32 ; %s = arith.addf %out, %p : f32

every term is an f16 x f16 product, exact in f32 (at most 22 significant bits, between
2**-48 and 2**32) and in float64. Float64 then sums them exactly in any order (so BLAS may
block, reorder or fuse as it likes) when, per output, every term and the init is a multiple
of 2**q and (K + 1) * max |term| <= 2**(53 + q): the bound `float64_sum_is_exact` checks on
materialised terms, here taken from per-row and per-column exponents of the operands
(|a * b| < 2**(ta + tb), a * b a multiple of 2**(qa + qb)), which only errs on the safe
side. Then `A @ B + init` in float64, rounded once to f32, is the reference's result. The
outputs the bound does not cover (a row or column holding a tiny value: with random data
most of them) are summed exactly from integer pieces of the operands (`_sums_by_parts`:
a few more matrix products, each exact in float64, then a few terms per output reduced
by the rule), and exact zeros (whose sign the rule takes from the terms) get their K
terms materialised and reduced by the rule itself (`numerics.reduce`), as the general
path would.

A launch that tracks error bounds takes this path too when the operands and the init carry
none (loaded values): the bound of a reordered sum reads only sums over the terms of their
magnitudes and of each sign's, which are matrix products as well (`sum_bound`); a 4096^3
matmul's terms, materialised, would take 2**31 float64 values per 128-row tile. Anything
else takes the general path: other bodies or types, a non-finite operand, operands that
carry bounds (the bound of a reordered sum is computed from the terms themselves).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.ir import Block, BlockArgument, Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap

from emulator.numerics import reduce, round_to, sum_error_bound
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


_F16_EXPONENTS: tuple[np.ndarray, np.ndarray] | None = None


def _f16_exponents(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`term_exponents` of f16 values, looked up by bit pattern in a table of all 65536."""
    global _F16_EXPONENTS
    if _F16_EXPONENTS is None:
        every = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
        _F16_EXPONENTS = term_exponents(every.astype(np.float64))
    bits = values.view(np.uint16)
    return _F16_EXPONENTS[0][bits], _F16_EXPONENTS[1][bits]


def _dims(amap: AffineMap) -> list[int] | None:
    if not all(isinstance(e, AffineDimExpr) for e in amap.results):
        return None
    return [e.position for e in amap.results]


def contract(bound_in, maps, sizes: list[int], red: list[int], init,
             errors: SumBounds | None = None):
    """The f32 values of sum_k a * b + init over the reduction loop, in the parallel loops'
    order (`init` given in that order), or None when the bound does not cover every output
    (see the module docstring). `bound_in`: the two f16 operands laid out over the domain.
    With `errors` (a launch that tracks bounds, on exact operands and init), a pair:
    the values and the bound of a reordered sum of each (`sum_bound`)."""
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
    a = np.squeeze(np.asarray(bound_in[0]), axis=pb)  # the domain's axes, in order, but pb
    b = np.squeeze(np.asarray(bound_in[1]), axis=pa)
    a = a if pa < r else a.T  # (pa, r)
    b = b if r < pb else b.T  # (r, pb)
    init = np.asarray(init, dtype=np.float64)
    if (a.dtype != np.float16 or b.dtype != np.float16 or not np.isfinite(a).all()
            or not np.isfinite(b).all() or not np.isfinite(init).all()):
        return None
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    top_a, low_a = _f16_exponents(a)
    top_b, low_b = _f16_exponents(b)
    top = top_a.max(axis=1)[:, None] + top_b.max(axis=0)[None, :]
    low = low_a.min(axis=1)[:, None] + low_b.min(axis=0)[None, :]
    if pa > pb:
        top, low = top.T, low.T
    init = np.broadcast_to(init, top.shape)
    top_c, low_c = term_exponents(init)
    log_n = max(sizes[r], 1).bit_length()  # 2**log_n >= K + 1 terms with the init
    exact = np.maximum(top, top_c) + log_n <= 53 + np.minimum(low, low_c)
    total = a64 @ b64
    total = (total if pa < pb else total.T) + init
    result = round_to("f32", total)
    # Outputs the bound does not cover: their sums taken exactly in integer pieces.
    by_parts = ~exact & (total != 0)
    if by_parts.any():
        parts = _sums_by_parts(a, b, init if pa < pb else init.T, sizes[r])
        result[by_parts] = (parts if pa < pb else parts.T)[by_parts]
    # Exact zeros (whose sign the rule takes from the terms): their terms materialised
    # and reduced by the rule itself.
    redo = total == 0
    if redo.any():
        rows, cols = np.nonzero(redo)
        if pa > pb:
            rows, cols = cols, rows
        terms = a64[rows, :] * b64[:, cols].T  # the f32 products, exactly
        redone = reduce("add", terms, 1, "f32", init=init[redo])
        result[redo] = redone  # in np.nonzero order, as the terms
    if errors is None:
        return result
    if pa > pb:
        a64, b64 = b64.T, a64.T  # so that a64 @ b64 is laid out like `result`
    return result, sum_bound(a64, b64, init, result, errors)


def _sums_by_parts(a: np.ndarray, b: np.ndarray, init: np.ndarray, k: int) -> np.ndarray:
    """The exact sums a @ b + init (f16 a: M x K, b: K x N; init laid out M x N), rounded
    once to f32, by the reference's rule, with no term materialised: every f16 value is
    an integer below 2**40 times 2**-24, so split into pieces of `bits` bits each
    (least significant first, sign on every piece) the products of two pieces are
    integers below 2**(2 * bits), and K of them sum exactly in float64 whatever BLAS's
    order when K * 2**(2 * bits) <= 2**53. The pieces' products (exact matrices,
    scaled by exact powers of two) and the init are then the few terms of each output
    that `reduce` sums exactly."""
    bits = (53 - k.bit_length()) // 2
    pieces = -(-40 // bits)
    step = 2.0**bits

    def split(x: np.ndarray) -> list[np.ndarray]:
        sign = np.sign(x)
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
    a_pos, a_neg = np.maximum(a64, 0.0), np.maximum(-a64, 0.0)
    b_pos, b_neg = np.maximum(b64, 0.0), np.maximum(-b64, 0.0)
    positive = (a_pos @ b_pos + a_neg @ b_neg + np.maximum(init, 0.0)) * widen
    negative = (a_pos @ b_neg + a_neg @ b_pos + np.maximum(-init, 0.0)) * widen
    return sum_error_bound(positive + negative, n, how.accumulator, how.element_type, oracle,
                           how.max_roundings, positive=positive, negative=negative)
