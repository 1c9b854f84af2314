"""How many bytes each memory view spans and each loaded tile holds: plain data for the
device fit checks (`spyre_sched.device.fit.check_resources`) to compare with memories.

A view's span is the distance from its lowest to its highest element address plus one
element, from its static sizes and strides (`1 + sum (size_d - 1) * |stride_d|`); a
dynamic size takes the upper bound of the run-time argument it comes from when there is
one. A loaded tile holds its tensor's elements.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Operation

from spyre_sched.dialects.ktdp import ConstructMemoryViewOp, LoadOp
from spyre_sched.polyhedral.affine_values import AffineValues
from spyre_sched.polyhedral.views import element_bytes


@dataclass(frozen=True)
class Span:
    op: Operation
    bytes: int | None
    """None: a size or stride is not bounded statically."""
    space: str
    """The KTIR memory space: "global" or "ct_local"."""


def view_spans(func_op: Operation) -> list[Span]:
    values = AffineValues(func_op)
    spans = []
    for op in func_op.walk():
        if not isinstance(op, ConstructMemoryViewOp):
            continue
        sizes = _bounded(values, op.static_sizes.get_values(), list(op.sizes))
        strides = _bounded(values, op.static_strides.get_values(), list(op.strides))
        nbytes = None
        if None not in sizes and None not in strides:
            if any(s <= 0 for s in sizes):
                nbytes = 0
            else:
                elements = 1 + sum((s - 1) * abs(t) for s, t in zip(sizes, strides))
                nbytes = elements * element_bytes(op.result.type.element_type)
        spans.append(Span(op, nbytes, op.memory_space.space))  # type: ignore[attr-defined]
    return spans


def loaded_tiles(func_op: Operation) -> list[Span]:
    """Every `ktdp.load`'s result: it lands in the executing core's scratchpad."""
    spans = []
    for op in func_op.walk():
        if isinstance(op, LoadOp) and isinstance(op.result.type, TensorType):
            count = 1
            for d in op.result.type.get_shape():
                count *= d
            spans.append(Span(op, count * element_bytes(op.result.type.element_type),
                              "ct_local"))
    return spans


def _bounded(values: AffineValues, static, dynamic) -> list[int | None]:
    """Static values, and dynamic ones as their largest value (None when unbounded)."""
    out: list[int | None] = []
    it = iter(dynamic)
    for s in static:
        if s != DYNAMIC_INDEX:
            out.append(int(s))
            continue
        form = values.form(next(it))
        out.append(form.constant if form.constant is not None else _upper(values, form))
    return out


def _upper(values: AffineValues, form) -> int | None:
    """The largest value of a single run-time argument (times a constant), else None."""
    text = form.isl()
    for var in values.variables:
        if var.upper is not None and text == var.name:
            return var.upper
    return None


def touched_address_range(model, position: int) -> tuple[int, int] | None:
    """The lowest and highest element address (relative to the argument) that any load or
    store touches through views of pointer argument `position`, over every tile and
    iteration; None when that cannot be bounded exactly (an indirect tile, a view with
    dynamic strides, a distributed view, no access)."""
    from spyre_sched.polyhedral.affine_values import VariableKind
    from spyre_sched.polyhedral.isl_text import conj, make_set, pw_constant
    from spyre_sched.polyhedral.views import ViewModel

    values = model.values
    block = model.func_op.regions[0].blocks[0]
    used = values.of_expr(values.expr(block.args[position])).used
    if len(used) != 1 or used[0].kind != VariableKind.ARGUMENT:
        return None
    root = used[0]
    mine = [a for a in model.accesses if any(root in p.root for p in a.view.parts)]
    if not mine:
        return None
    pieces = []
    for access in mine:
        view = access.view
        if not (access.exact and isinstance(view, ViewModel) and view.root == (root,)
                and view.has_address()):
            return None
        coords = [f"c{k}" for k in range(view.rank)]
        pieces.append(f"exists ({', '.join(coords)} : "
                      f"{conj(access.contains_text(coords), f'a = {view.address_text(coords)}')})")
    import islpy as isl

    names = [v.name for v in values.variables]
    formula = conj(values.context(), f"{root.name} = 0", " or ".join(f"({p})" for p in pieces))
    touched = make_set(names, ["a"], formula).project_out(isl.dim_type.param, 0, len(names))
    if touched.is_empty() or not touched.is_bounded():
        return None
    lo, hi = pw_constant(touched.dim_min(0)), pw_constant(touched.dim_max(0))
    return None if lo is None or hi is None else (lo, hi)
