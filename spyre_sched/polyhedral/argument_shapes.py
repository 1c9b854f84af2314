"""The shape a pointer argument's views imply, as plain tuples (argument inference in the
front end asks; isl stays in this layer)."""

from __future__ import annotations

import islpy as isl

from spyre_sched.polyhedral.isl_text import conj, make_set, pw_constant
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.views import ViewModel


def box_shape(views: list[ViewModel]) -> tuple[tuple[int | None, ...], tuple[int | None, ...]]:
    """(extents, upper bounds) per axis of the union of the views' coordinate sets: an
    extent is None when it depends on a variable; its upper bound is the widest it can be
    with every variable ranging over its bounds (None when unbounded)."""
    rank = views[0].rank
    union = views[0].coordinate_set_isl()
    for v in views[1:]:
        if v.rank == rank:
            union = union.union(v.coordinate_set_isl())
    union = union.coalesce()
    nparam = union.dim(isl.dim_type.param)
    # Every variable ranging over its bounds: the largest extent a dimension can have.
    widest = union.project_out(isl.dim_type.param, 0, nparam)
    shape, upper = [], []
    for k in range(rank):
        lo, hi = _dim_range(union, k)
        shape.append(hi - lo + 1 if lo is not None and hi is not None else None)
        wlo = pw_constant(widest.dim_min(k).coalesce()) if widest.is_bounded() else None
        whi = pw_constant(widest.dim_max(k).coalesce()) if widest.is_bounded() else None
        upper.append(whi - wlo + 1 if wlo is not None and whi is not None else None)
    return tuple(shape), tuple(upper)


def _dim_range(aset: isl.Set, k: int) -> tuple[int | None, int | None]:
    """The constant least and greatest values of dim k of `aset`, each None when it depends
    on a variable; both None when the dim has no bound on some side (a coordinate set
    missing a constraint), where isl has no optimum to give."""
    dim = aset.project_out(isl.dim_type.set, k + 1, aset.dim(isl.dim_type.set) - k - 1) \
        .project_out(isl.dim_type.set, 0, k)
    if not dim.project_out(isl.dim_type.param, 0, dim.dim(isl.dim_type.param)).is_bounded():
        return None, None
    return pw_constant(aset.dim_min(k).coalesce()), pw_constant(aset.dim_max(k).coalesce())


def address_range(model: KernelModel, views: list[ViewModel], root: str) -> tuple[int, int] | None:
    """The lowest and highest element address the views' coordinate sets reach over all
    tiles, iterations and allowed run-time values, with the argument `root` at 0; None
    when a view has no constant address map or the range is not bounded."""
    values = model.values
    if not all(v.has_address() for v in views):
        return None
    per_view = []
    for v in views:
        coords = [f"c{k}" for k in range(v.rank)]
        per_view.append(
            f"exists ({', '.join(coords)} : "
            f"{conj(v.contains_text(coords), f'a = {v.address_text(coords)}')})"
        )
    names = [n.name for n in values.variables]
    formula = conj(values.context(), f"{root} = 0", " or ".join(f"({p})" for p in per_view))
    aset = make_set(names, ["a"], formula)
    aset = aset.project_out(isl.dim_type.param, 0, len(names))
    if not aset.is_bounded() or aset.is_empty():
        return None
    lo, hi = pw_constant(aset.dim_min(0)), pw_constant(aset.dim_max(0))
    return None if lo is None or hi is None else (lo, hi)
