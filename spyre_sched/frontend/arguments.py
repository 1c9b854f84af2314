"""Argument inference: shape, element type and role of each kernel argument, and the one
rule for what the array passed for a pointer argument means.

A pointer argument is an `index` argument that a memory view's offset is built on (the
view's offset is the argument itself, or the argument plus an affine function of the tile
id, constants and other values). **The array passed for it is the memory at that pointer,
in C order** (as torch storage and the public KTIR interpreter have it): element k of the
flattened array is the element at address pointer + k. The kernel's views are windows on
that memory: a view's coordinate c is at `offset + sum((c - min) * stride)`, whatever its
strides (column-major, padded rows), however many views share the pointer and whatever
constant or per-tile offset they add to it. Both executors (the reference interpreter and
`spyre_sched.run`'s emulation), seeded inputs, `--inputs` / `--save-outputs` and the
bench all place and read arrays by this rule (`memory_problem`, `ArgumentInfo.extent`).

- `extent`: the elements of memory from the pointer that some view's coordinate set
  reaches (one past the highest address, over every tile, iteration and allowed run-time
  value); None when that is not bounded.
- `shape`: the array's shape. Where one view starting at the argument is dense row-major
  (its strides are those of its coordinate box in C order) and its box holds exactly the
  extent, the array has that view's shape (the common case: `%A: 96x64xf16`); otherwise
  it is the flat memory, `(extent,)`, and `flat` is True. A dynamic extent is None, with
  the largest value it can take (from run-time argument upper bounds) in `upper_bounds`.
- An array may be longer than the extent (any shape holding at least `extent` elements):
  the elements no view reaches are left as they were, and come back as they went in.

The exception is a tensor spread over several scratchpads (views of one argument naming
different compute tiles' memories): there is no one memory at the pointer, so its array
is the logical tensor over the union of the views' coordinates, placed part by part.

Its role is "in" (read through ktdp.load), "out" (written through ktdp.store) or "inout",
including through distributed views. Any other argument is a "scalar".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstantExpr, AffineExpr

from spyre_sched.polyhedral.affine_values import VariableKind
from spyre_sched.polyhedral.argument_shapes import address_range, box_shape
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
    #: True when the shape is the flat memory `(extent,)`, not one view's shape
    flat: bool = False
    #: elements of memory from the pointer that the views reach (the largest over the
    #: allowed run-time values); None when not bounded or not one memory (distributed)
    extent: int | None = None
    #: the lowest address the views reach, relative to the pointer (< 0: before it)
    lowest: int = 0

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

    def memory_problem(self, shape: tuple[int, ...]) -> str | None:
        """Why an array of `shape` cannot be the memory at this pointer (None: it can):
        it must have the argument's shape (a dynamic extent at most its upper bound), or
        hold at least `extent` elements in any shape."""
        want = self.shape or ()
        upper = self.upper_bounds or want
        if len(shape) == len(want) and all(
                (d == g) if d is not None else (u is None or g <= u)
                for d, u, g in zip(want, upper, shape)):
            return None
        if (self.extent is not None and None not in want
                and math.prod(int(g) for g in shape) >= self.extent):
            return None
        dims = "x".join("?" if d is None else str(d) for d in want) or "scalar"
        reach = ("" if self.extent is None else
                 f" (or any shape of at least {self.extent} elements: the memory its views "
                 "reach from the pointer)")
        return f"has shape {list(shape)}, the kernel expects [{dims}]{reach}"


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
    # id of a view part -> the kinds of access reaching it, found once for all arguments
    access_kinds: dict[int, set[str]] = {}
    for access in model.accesses:
        for p in access.view.parts:
            access_kinds.setdefault(id(p), set()).add(access.kind)
        # The index tensors of an indirect tile are read by its load and its store alike.
        for iv in getattr(access.tile_op, "index_views", ()):
            for p in model.view_of(iv).parts:
                access_kinds.setdefault(id(p), set()).add("load")
    result = []
    for pos, arg in enumerate(block.args):
        expr = values.expr(arg)
        var = values.of_expr(expr).used[0] if values.of_expr(expr).used else None
        name = arg.name_hint or f"arg{pos}"
        views = views_by_arg.get(var.name, []) if var is not None else []
        if var is None or var.kind != VariableKind.ARGUMENT or not views:
            result.append(ArgumentInfo(name, pos, str(arg.type), "scalar"))
            continue
        kinds = set().union(*(access_kinds.get(id(v), ()) for v in views))
        reads, writes = "load" in kinds, "store" in kinds
        role = {(True, False): "in", (False, True): "out", (True, True): "inout"}.get(
            (reads, writes), "unused")
        direct = all(values.of_expr(v.offset).used == [var] and
                     str(values.of_expr(v.offset)) == var.name for v in views)
        shape, upper, extent, lowest, flat = memory_of(model, views, var.name, direct)
        spaces = []
        for v in views:
            if str(v.memory) not in spaces:
                spaces.append(str(v.memory))
        result.append(ArgumentInfo(
            name, pos, str(arg.type), role, shape, upper,
            element_name(views[0].element_type), tuple(spaces), flat, extent, lowest,
        ))
    return result


#: addresses this far from the pointer are beyond 64-bit byte addresses: such a view is
#: reported by the access that reaches them, not given as an array
_ADDRESS_LIMIT = 2**62


def _row_major(strides: tuple[int, ...], shape) -> bool:
    """True when `strides` are those of `shape` in C order (an axis of extent 1 may have
    any stride: it never moves an address)."""
    step: int | None = 1
    for d, s in zip(reversed(shape), reversed(strides)):
        if d != 1 and s != step:
            return False
        step = None if step is None or d is None else step * d
    return True


def _own_row_major(view: ViewModel) -> bool:
    """True when the view's strides are those of its own sizes in C order, whatever
    run-time values they are (`sizes: [16, %N], strides: [%N, 1]`): dense rows."""
    expected: AffineExpr | None = AffineExpr.constant(1)
    for size, stride in zip(reversed(view.sizes), reversed(view.strides)):
        if expected is None or str(stride) != str(expected):
            return False  # (None: a product of two run-time values, not affine)
        if isinstance(size, AffineConstantExpr):
            expected = expected * size.value
        elif isinstance(expected, AffineConstantExpr):
            expected = size * expected.value
        else:
            expected = None
    return True


def memory_of(model: KernelModel, views: list[ViewModel], root: str, direct: bool):
    """(shape, upper bounds, extent, lowest address, flat) of a pointer argument whose
    views are `views`, by the rule in this module's docstring."""
    spaces = {str(v.memory) for v in views}
    if len(spaces) > 1 and "global" not in spaces:
        # spread over several scratchpads: the logical tensor, placed part by part
        shape, upper = box_shape(views)
        return shape, upper, None, 0, False
    span = address_range(model, views, root)
    if span is None and not all(v.constant_strides is not None or _own_row_major(v)
                                for v in views):
        # a run-time stride other than its own row length (padded rows): where the rows lie
        # is known once it is given (`KernelModel(bindings=...)`); the box would hold too
        # few of them
        return (None,), (None,), None, 0, True
    if span is None or span[1] >= _ADDRESS_LIMIT:
        # no constant address map, or none in 64 bits: the views' box, read row-major
        if direct:
            shape, upper = box_shape(views)
            return shape, upper, None, 0, False
        return (None,), (None,), None, 0, True
    lowest, extent = span[0], span[1] + 1
    for v in views:
        if str(model.values.of_expr(v.offset)) != root or v.constant_strides is None:
            continue
        shape, upper = box_shape([v])
        if (None not in upper and _row_major(v.constant_strides, shape)
                and math.prod(upper) == extent):
            return shape, upper, extent, lowest, False
    exact = all(not v.coordinate_set.num_symbols for v in views)
    return ((extent,) if exact else (None,)), (extent,), extent, lowest, True

