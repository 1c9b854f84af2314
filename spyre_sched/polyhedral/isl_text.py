"""xDSL affine expressions and constraints as isl text, and isl answers as Python ints.

The layer builds isl sets from text: it is short, isl's parser accepts `floor`, `ceil`,
`mod`, `!=` and `exists`, and substituting a name by a parenthesised expression is how
subscripts and bound symbols are plugged into a constraint.
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.ir.affine.affine_set import AffineConstraintExpr, AffineConstraintKind, AffineSet


def expr_text(expr: AffineExpr, dims: Sequence[str], syms: Sequence[str]) -> str:
    """isl text of `expr`, with dim k written as dims[k] and symbol k as syms[k]."""
    if isinstance(expr, AffineConstantExpr):
        return str(expr.value)
    if isinstance(expr, AffineDimExpr):
        return f"({dims[expr.position]})"
    if isinstance(expr, AffineSymExpr):
        return f"({syms[expr.position]})"
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = expr_text(expr.lhs, dims, syms)
    rhs = expr_text(expr.rhs, dims, syms)
    match expr.kind:
        case AffineBinaryOpKind.Add:
            return f"({lhs} + {rhs})"
        case AffineBinaryOpKind.Mul:
            return f"({lhs} * {rhs})"
        case AffineBinaryOpKind.Mod:
            return f"(({lhs}) mod {rhs})"
        case AffineBinaryOpKind.FloorDiv:
            return f"floor(({lhs}) / {rhs})"
        case AffineBinaryOpKind.CeilDiv:
            return f"ceil(({lhs}) / {rhs})"
    raise AssertionError(expr.kind)


def constraint_text(c: AffineConstraintExpr, dims: Sequence[str], syms: Sequence[str]) -> str:
    op = {AffineConstraintKind.ge: ">=", AffineConstraintKind.le: "<=", AffineConstraintKind.eq: "="}
    return f"{expr_text(c.lhs, dims, syms)} {op[c.kind]} {expr_text(c.rhs, dims, syms)}"


def set_text(aset: AffineSet, dims: Sequence[str], syms: Sequence[str]) -> str:
    """The conjunction of `aset`'s constraints (``true`` when it has none)."""
    parts = [constraint_text(c, dims, syms) for c in aset.constraints]
    return " and ".join(f"({p})" for p in parts) if parts else "true"


def conj(*parts: str) -> str:
    kept = [p for p in parts if p and p != "true"]
    return " and ".join(f"({p})" for p in kept) if kept else "true"


def make_set(params: Sequence[str], dims: Sequence[str], formula: str) -> isl.Set:
    return isl.Set(f"[{', '.join(params)}] -> {{ [{', '.join(dims)}] : {formula} }}")


def val_int(v: isl.Val) -> int:
    return int(v.to_python())


def pw_constant(pw: isl.PwAff) -> int | None:
    """The value of a piecewise-affine that is one constant, else None."""
    if pw.n_piece() != 1 or not pw.is_cst():
        return None
    ((_, aff),) = pw.get_pieces()
    return val_int(aff.get_constant_val())


def pw_affine_text(pw: isl.PwAff) -> str | None:
    """isl text of a single-piece affine over the parameters (names kept), else None."""
    if pw.n_piece() != 1:
        return None
    ((_, aff),) = pw.get_pieces()
    if aff.dim(isl.dim_type.div) != 0:
        return None
    terms = [str(val_int(aff.get_constant_val()))]
    for k in range(aff.dim(isl.dim_type.param)):
        coeff = val_int(aff.get_coefficient_val(isl.dim_type.param, k))
        if coeff:
            terms.append(f"{coeff} * {aff.get_dim_name(isl.dim_type.param, k)}")
    denom = val_int(aff.get_denominator_val())
    text = " + ".join(terms)
    return text if denom == 1 else f"floor(({text}) / {denom})"


def witness(iset: isl.Set) -> dict[str, int]:
    """One point of a non-empty set, parameters included, by name.

    The lexicographic minimum (parameters first, in declaration order) when the set is
    bounded and isl can compute it, so witnesses are the smallest tile / coordinate that
    shows the problem; otherwise any point isl picks (deterministic for a given input).
    """
    params = iset.get_var_names(isl.dim_type.param)
    dims = iset.get_var_names(isl.dim_type.set)
    nparam = len(params)
    flat = iset.move_dims(isl.dim_type.set, 0, isl.dim_type.param, 0, nparam)
    if flat.is_bounded():
        try:
            least = flat.lexmin()
        except isl.Error:
            # isl's lexmin gives up on some sets with existentially quantified divisions
            # ("affine expression involves some of the domain dimensions"); any point is
            # still a witness.
            least = None
        # on such a set it can also come back empty, the set itself not (a read-write
        # race of two strided tiles in the oracles' random kernels): a point of the set
        if least is not None and not least.is_empty():
            flat = least
    point = flat.sample_point()
    names = list(params) + [d or f"x{k}" for k, d in enumerate(dims)]
    return {
        name: val_int(point.get_coordinate_val(isl.dim_type.set, k))
        for k, name in enumerate(names)
    }
