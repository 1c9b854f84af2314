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

from emulator.numerics import exact_f16_product_sums, sum_error_bound
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
             errors: SumBounds | None = None):
    """The f32 values of sum_k a * b + init over the reduction loop, in the parallel loops'
    order (`init` given in that order), or None when it is not an f16 matmul of that shape
    or a value is not finite. `bound_in`: the two f16 operands laid out over the domain.
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
    if a.dtype != np.float16 or b.dtype != np.float16:
        return None
    # laid out (pa, pb) for the product; the result comes in the parallel loops' order
    init = np.broadcast_to(init, (a.shape[0], b.shape[1]) if pa < pb else (b.shape[1], a.shape[0]))
    sums = exact_f16_product_sums(a, b, init if pa < pb else init.T)
    if sums is None:
        return None
    result = sums if pa < pb else sums.T
    if errors is None:
        return result
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if pa > pb:
        a64, b64 = b64.T, a64.T  # so that a64 @ b64 is laid out like `result`
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
    a_pos, a_neg = np.maximum(a64, 0.0), np.maximum(-a64, 0.0)
    b_pos, b_neg = np.maximum(b64, 0.0), np.maximum(-b64, 0.0)
    positive = (a_pos @ b_pos + a_neg @ b_neg + np.maximum(init, 0.0)) * widen
    negative = (a_pos @ b_neg + a_neg @ b_pos + np.maximum(-init, 0.0)) * widen
    return sum_error_bound(positive + negative, n, how.accumulator, how.element_type, oracle,
                           how.max_roundings, positive=positive, negative=negative)
