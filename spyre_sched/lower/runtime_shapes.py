"""Run-time shapes in the lowering: values that depend on a `!ktdp.runtime_arg`.

Scope of this version (docs/dataflowir.md, "Run-time shapes"): memory views may have
run-time *sizes* (their coordinate set takes the size as a symbol) as long as their
*strides* are static and their origin (the set's lower bounds) does not move with the
size; access tiles keep static shapes. A run-time size then never changes how a transfer
is addressed or how big it is: it bounds the orchestrator's loops (evaluated by the job
plan at launch) and can appear in an address (a launch-time term, so part of a symbol).
In a program, `ktdp.runtime_arg_extract value from %n` is the atom named like the
argument (the same name the job plan binds), so every value depending on it stays
symbolic: a symbol evaluated at launch, never a compile-time number. Anything else that
depends on a run-time value (a tile extent, a loop bound inside a program) keeps the
lowering's "not supported" error.
"""

from __future__ import annotations

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, MemRefType, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineExpr, AffineSet

from spyre_sched.dialects import ktdp
from spyre_sched.dialects.agen import box_bounds
from spyre_sched.errors import UnsupportedError, fold_hint
from spyre_sched.lower.values import Form


def runtime_arguments(fn: func.FuncOp) -> dict[str, ktdp.RuntimeArgType]:
    """The function's run-time arguments by name."""
    return {a.name_hint or f"arg{a.index}": a.type for a in fn.body.block.args
            if isinstance(a.type, ktdp.RuntimeArgType)}


def plain_arguments(fn: func.FuncOp) -> set[str]:
    """The function's plain arguments by name: what `--arg` fixes at compile time (not a
    `!ktdp.runtime_arg`, which stays a launch-time value)."""
    return {a.name_hint for a in fn.body.block.args
            if not isinstance(a.type, ktdp.RuntimeArgType)}


def value_range(rtype: ktdp.RuntimeArgType) -> tuple[int, int | None]:
    """Smallest non-empty and largest value a launch may give (None: no upper bound)."""
    return max(rtype.granularity_value or 1, 1), rtype.upperbound_value


def extract_form(op: ktdp.RuntimeArgExtractOp, env: dict[SSAValue, Form], where: str) -> Form:
    """`value`: the argument itself (a launch-time atom); `granularity`, `upperbound`: the
    type's constants."""
    rtype = op.arg.type
    assert isinstance(rtype, ktdp.RuntimeArgType)
    field = op.field.data
    if field == "granularity" and rtype.granularity_value is not None:
        return Form.constant(rtype.granularity_value)
    if field == "upperbound" and rtype.upperbound_value is not None:
        return Form.constant(rtype.upperbound_value)
    if field != "value":
        raise UnsupportedError(f"lowering: the run-time argument has no {field}", where)
    if not isinstance(rtype.value_type, IndexType):
        raise UnsupportedError(f"lowering: run-time arguments of type {rtype.value_type} are "
                               "not supported yet (only index)", where)
    if op.arg not in env:
        raise UnsupportedError("lowering: a run-time argument that is not an argument of the "
                               "program", where)
    return env[op.arg]


def _size_range(form: Form, runtime: dict[str, ktdp.RuntimeArgType], where: str) -> tuple[int, int | None]:
    """Range of a view's size: an affine form in run-time arguments with non-negative
    coefficients and a constant part the same on every core."""
    if form.dyn_terms() or not isinstance(form.const, int):
        raise UnsupportedError("not supported yet: a view size that depends on loop counters "
                               "or on the compute tile", where)
    lo = hi = form.const
    for name, coeff in form.arg_terms():
        if name not in runtime:
            # a plain scalar argument is a compile-time value: only `!ktdp.runtime_arg`
            # sizes are kept as symbols of the launch
            raise UnsupportedError(
                f"not supported yet: a view size that depends on %{name}, which is not a "
                "run-time argument (`!ktdp.runtime_arg`): " + fold_hint([name]), where)
        if coeff < 0:
            raise UnsupportedError("not supported yet: a view size that is not a non-negative "
                                   "multiple of run-time arguments", where)
        a, b = value_range(runtime[name])
        lo += coeff * a
        hi = None if hi is None or b is None else hi + coeff * b
    return lo, hi


def _bind_symbols(aset: AffineSet, symbols: list[int]) -> AffineSet:
    dims = [AffineExpr.dimension(i) for i in range(aset.num_dims)]
    syms = [AffineExpr.constant(v) for v in symbols]
    constraints = tuple(
        AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(dims, syms),
                             c.rhs.replace_dims_and_symbols(dims, syms))
        for c in aset.constraints)
    return AffineSet(aset.num_dims, 0, constraints)


def view_bounds(op: ktdp.ConstructMemoryViewOp, env: dict[SSAValue, Form],
                fn: func.FuncOp, where: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(minima, maxima) of a view with run-time sizes: the minima must not move with the
    sizes; the maxima are those at the sizes' upper bounds (empty when unbounded: then
    the view is treated as reaching anywhere when checking overlaps)."""
    if op.strides:
        raise UnsupportedError("not supported yet: memory views with run-time strides "
                               "(run-time sizes with static strides are)", where)
    mtype = op.result.type
    assert isinstance(mtype, MemRefType)
    runtime = runtime_arguments(fn)
    aset = op.coordinate_set.data
    ranges = []
    for size in op.sizes[: aset.num_symbols]:
        if size not in env:
            raise UnsupportedError("not supported yet: a view size computed inside a loop", where)
        ranges.append(_size_range(env[size], runtime, where))
    if len(ranges) < aset.num_symbols:
        raise UnsupportedError("lowering: the view's coordinate set has more symbols than "
                               "run-time sizes", where)
    smallest = box_bounds(_bind_symbols(aset, [lo for lo, _ in ranges]))
    if smallest is None:
        raise UnsupportedError("not supported yet: a view with run-time sizes whose coordinate "
                               "set is not a box", where)
    minima = tuple(lo for lo, _ in smallest)
    if any(hi is None for _, hi in ranges):
        return minima, ()
    largest = box_bounds(_bind_symbols(aset, [hi for _, hi in ranges]))  # type: ignore[misc]
    if largest is None or tuple(lo for lo, _ in largest) != minima:
        raise UnsupportedError("not supported yet: a view whose origin moves with a run-time "
                               "size", where)
    return minima, tuple(hi for _, hi in largest)


def symbol_kind(kind: str, expr, runtime_names) -> str:
    """A symbol that is not an address and depends on a run-time argument is a "shape"."""
    if kind == "address":
        return kind
    return "shape" if _mentions(expr, set(runtime_names)) else kind


def _mentions(expr, names: set[str]) -> bool:
    if isinstance(expr, list):
        if expr and expr[0] == "arg":
            return expr[1] in names
        return any(_mentions(e, names) for e in expr[1:])
    return False


def outer_argument_values(block: Block, ops: list[Operation]) -> dict[str, SSAValue]:
    """Name -> the index value of each outer-function argument: a run-time argument is
    read once with `ktdp.runtime_arg_extract value`, a float scalar's bit pattern taken
    with `arith.bitcast`, `arith.extui` and `arith.index_cast`, an integer (an i32 loop
    counter) cast with `arith.index_cast` (appended to `ops`)."""
    names: dict[str, SSAValue] = {}
    for arg in block.args:
        name = arg.name_hint or f"arg{arg.index}"
        names[name] = _index_value(arg, ops)
    return names


def _index_value(arg: BlockArgument, ops: list[Operation]) -> SSAValue:
    if isinstance(arg.type, AnyFloat):
        # a float scalar reaches the units as its bit pattern (a "bits" symbol)
        width = arg.type.bitwidth
        cast: Operation = arith.BitcastOp(arg, IntegerType(width))
        ops.append(cast)
        if width < 64:  # zero-extended: a bit pattern is not a signed number
            cast = arith.ExtUIOp(cast.results[0], IntegerType(64))
            ops.append(cast)
        index = arith.IndexCastOp(cast.results[0], IndexType())
        ops.append(index)
        return index.result
    if isinstance(arg.type, IntegerType):
        # an integer the orchestrator passes (a loop counter kept in i32): as an index
        index = arith.IndexCastOp(arg, IndexType())
        ops.append(index)
        return index.result
    if not isinstance(arg.type, ktdp.RuntimeArgType):
        return arg
    op = ktdp.RuntimeArgExtractOp.create(
        operands=[arg], result_types=[arg.type.value_type],
        properties={"field": StringAttr("value")})
    op.results[0].name_hint = f"{arg.name_hint}_value" if arg.name_hint else None
    ops.append(op)
    return op.results[0]


_SHAPE_ARITH = {"arith.addi": "add", "arith.subi": "sub", "arith.muli": "mul",
                "arith.floordivsi": "floordiv", "arith.divui": "floordiv", "arith.remui": "mod",
                "arith.minsi": "min", "arith.maxsi": "max", "arith.minui": "min", "arith.maxui": "max"}


def size_expr(value: SSAValue):
    """A view size as an expression over the function's arguments (`symbols.py`
    grammar: run-time arguments by name), or None when it is not one."""
    if isinstance(value, BlockArgument):  # (a plain argument: not a run-time shape)
        return None
    owner = value.owner
    if owner.name == "arith.constant":
        attr = owner.properties.get("value")
        data = getattr(getattr(attr, "value", None), "data", None)
        return data if isinstance(data, int) else None
    if isinstance(owner, ktdp.RuntimeArgExtractOp):
        rtype = owner.arg.type
        assert isinstance(rtype, ktdp.RuntimeArgType)
        if owner.field.data != "value":
            return getattr(rtype, f"{owner.field.data}_value")
        arg = owner.arg
        return ["arg", arg.name_hint] if isinstance(arg, BlockArgument) and arg.name_hint else None
    if owner.name in _SHAPE_ARITH:
        a, b = size_expr(owner.operands[0]), size_expr(owner.operands[1])
        return None if a is None or b is None else [_SHAPE_ARITH[owner.name], a, b]
    return None


def view_shape(op: ktdp.ConstructMemoryViewOp) -> list:
    """The view's memref shape with each run-time extent as an expression (None: unknown)."""
    mtype = op.result.type
    assert isinstance(mtype, MemRefType)
    sizes = iter(op.sizes)
    shape: list = []
    for d in mtype.get_shape():
        shape.append(d if d >= 0 else size_expr(next(sizes)))
    return shape


def argument_row(arg: BlockArgument) -> dict | None:
    """The job plan's row for a run-time argument (None for any other argument)."""
    rtype = arg.type
    if not isinstance(rtype, ktdp.RuntimeArgType):
        return None
    return {"name": arg.name_hint, "kind": "runtime", "type": str(rtype.value_type),
            "granularity": rtype.granularity_value, "upperbound": rtype.upperbound_value}
