"""A quasi-affine expression as the linear one it equals over a set (isl's `gist`).

`(64 * p + l) floordiv 64` is `p` wherever `0 <= l <= 63`: producers that linearise and
split an index again write such subscripts. The normal form replaces them by the linear
expression (`simplify-indirect-subscripts`), and the legality check accepts what it will
replace."""

from __future__ import annotations

import islpy as isl
from xdsl.ir.affine import AffineExpr, AffineSet

from spyre_sched.dialects.agen import linear_form
from spyre_sched.dialects.ktdp import symbols_as_dims
from spyre_sched.polyhedral.isl_text import expr_text, set_text, val_int


def is_linear(expr: AffineExpr, num_dims: int, num_symbols: int) -> bool:
    """Whether `expr` (over `num_dims` dims and `num_symbols` symbols) is linear in both."""
    return linear_form(symbols_as_dims(expr, num_dims, num_symbols)) is not None


def linear_subscript(expr: AffineExpr, domain: AffineSet, num_symbols: int) -> AffineExpr | None:
    """`expr` when it is linear, else the linear expression it equals over `domain`
    (`linear_over`), else None."""
    if is_linear(expr, domain.num_dims, num_symbols):
        return expr
    return linear_over(expr, domain, num_symbols)


def linear_over(expr: AffineExpr, domain: AffineSet, num_symbols: int) -> AffineExpr | None:
    """`expr` (over `domain`'s dims and `num_symbols` free symbols) as the linear
    expression it equals at every point of `domain`, or None if it has none."""
    dims = [f"v{k}" for k in range(domain.num_dims)]
    syms = [f"s{k}" for k in range(num_symbols)]
    head = f"[{', '.join(syms)}] -> " if syms else ""
    where = isl.Set(f"{head}{{ [{', '.join(dims)}] : {set_text(domain, dims, [])} }}")
    pw = isl.PwAff(f"{head}{{ [{', '.join(dims)}] -> [({expr_text(expr, dims, syms)})] }}")
    pw = pw.gist(where)
    if pw.n_piece() != 1:
        return None
    ((_, aff),) = pw.get_pieces()
    if aff.dim(isl.dim_type.div) != 0 or val_int(aff.get_denominator_val()) != 1:
        return None
    out = AffineExpr.constant(val_int(aff.get_constant_val()))
    for kind, make, count in ((isl.dim_type.in_, AffineExpr.dimension, len(dims)),
                              (isl.dim_type.param, AffineExpr.symbol, len(syms))):
        for k in range(count):
            coeff = val_int(aff.get_coefficient_val(kind, k))
            if coeff:
                out = out + make(k) * coeff
    return out
