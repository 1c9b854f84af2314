"""Argument inference: shape, element type and role of each kernel argument.

A pointer argument is an `index` argument that a memory view's offset is built on (the
view's offset is the argument itself, or the argument plus an affine function of the tile
id and other values). Its shape is what the kernel's views imply:

- offset = the argument: the bounding box of the union of those views' coordinate sets
  (extent = max - min + 1 per axis); a dynamic extent is None, with the largest value it
  can take (from run-time argument upper bounds) in `upper_bounds`;
- offset = argument + f(tile, ...): a flat 1-D shape covering every element those views
  address across all tiles and iterations.

Its role is "in" (read through ktdp.load), "out" (written through ktdp.store) or "inout",
including through distributed views. Any other argument is a "scalar".
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation

from spyre_sched.polyhedral.affine_values import VariableKind
from spyre_sched.polyhedral.argument_shapes import box_shape, flat_shape
from spyre_sched.polyhedral.kernel_model import KernelModel
from spyre_sched.polyhedral.views import ViewModel, element_name


@dataclass(frozen=True)
class ArgumentInfo:
    name: str
    position: int
    type: str  # the argument's MLIR type, e.g. "index"
    role: str  # "in" | "out" | "inout" | "scalar" ("unused" for a pointer never accessed)
    shape: tuple[int | None, ...] | None = None
    #: per-dim upper bound of the extent when the extent is dynamic (else the extent)
    upper_bounds: tuple[int | None, ...] | None = None
    element_type: str | None = None
    memory_spaces: tuple[str, ...] = ()
    #: True when the shape is a flat 1-D range (offset depends on the tile id)
    flat: bool = False

    def __str__(self) -> str:
        if self.role == "scalar":
            return f"%{self.name} (#{self.position}): scalar {self.type}"
        dims = "x".join(
            "?" if d is None else str(d) for d in (self.shape or ())
        )
        bounds = ""
        if self.shape and any(d is None for d in self.shape) and self.upper_bounds:
            bounds = " (at most " + "x".join(
                "?" if u is None else str(u) for u in self.upper_bounds) + ")"
        kind = " flat" if self.flat else ""
        spaces = ", ".join(self.memory_spaces)
        return (f"%{self.name} (#{self.position}): {self.role}{kind} "
                f"[{dims}] {self.element_type}{bounds} in {spaces}")


def infer_arguments(func_op: Operation, model: KernelModel | None = None) -> list[ArgumentInfo]:
    model = model or KernelModel(func_op)
    values = model.values
    block = func_op.regions[0].blocks[0]
    views_by_arg: dict[str, list[ViewModel]] = {}
    for view in model.views.values():
        for part in view.parts:
            for var in part.root:
                if part not in views_by_arg.setdefault(var.name, []):
                    views_by_arg[var.name].append(part)
    result = []
    for pos, arg in enumerate(block.args):
        expr = values.expr(arg)
        var = values.of_expr(expr).used[0] if values.of_expr(expr).used else None
        name = arg.name_hint or f"arg{pos}"
        views = views_by_arg.get(var.name, []) if var is not None else []
        if var is None or var.kind != VariableKind.ARGUMENT or not views:
            result.append(ArgumentInfo(name, pos, str(arg.type), "scalar"))
            continue
        reads = writes = False
        for access in model.accesses:
            if any(p in views for p in access.view.parts):
                reads |= access.kind == "load"
                writes |= access.kind == "store"
            # The index tensors of an indirect tile are read by its load and its store alike.
            index_views = getattr(access.tile_op, "index_views", ())
            if any(p in views for iv in index_views for p in model.view_of(iv).parts):
                reads = True
        role = {(True, False): "in", (False, True): "out", (True, True): "inout"}.get(
            (reads, writes), "unused")
        direct = all(values.of_expr(v.offset).used == [var] and
                     str(values.of_expr(v.offset)) == var.name for v in views)
        shape, upper = box_shape(views) if direct else flat_shape(model, views, var.name)
        spaces = []
        for v in views:
            if str(v.memory) not in spaces:
                spaces.append(str(v.memory))
        result.append(ArgumentInfo(
            name, pos, str(arg.type), role, shape, upper,
            element_name(views[0].element_type), tuple(spaces), flat=not direct,
        ))
    return result
