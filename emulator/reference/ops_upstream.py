"""Handlers of the upstream ops kernels use: arith, math, spyreop, scf, affine, tensor."""

from __future__ import annotations

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
)
from xdsl.ir import BlockArgument

from emulator.numerics import OPS, apply_op, constant, value_dtype
from emulator.numerics.arith_ops import native_f16
from emulator.numerics.index_scalars import INDEX_BINARY_OPS, index_binary, index_compare
from emulator.reference import error_tracking
from emulator.reference.interpreter import handles, op_static
from emulator.reference.types import element_name
from spyre_sched.errors import ExecutionError, UnsupportedError

# ---- arith ------------------------------------------------------------------------------


_INDEX_RANGE = range(-(2**63), 2**63)


def _index(name: str, value: int, operands) -> int:
    """An index result, which must fit in 64 bits: a kernel whose address arithmetic
    overflows is wrong, and the views it would build cannot be represented."""
    if value not in _INDEX_RANGE:
        shown = ", ".join(str(int(v)) for v in operands)
        raise ExecutionError(f"operands ({shown}) give {value}, which overflows a 64-bit index")
    return value


def _scalar_result(op, value):
    """Index results are Python ints; everything else stays a numpy value."""
    if isinstance(op.results[0].type, IndexType) and np.ndim(value) == 0:
        return int(value)
    return value


@handles("arith.constant")
def _constant(ex, op, vals):
    attr = op.value
    rtype = op.result.type
    et = element_name(rtype)
    if isinstance(attr, IntegerAttr):
        if isinstance(rtype, IndexType):
            return [int(attr.value.data)]
        return [constant(et, int(attr.value.data))]
    if isinstance(attr, FloatAttr):
        return [constant(et, float(attr.value.data))]
    if isinstance(attr, DenseIntOrFPElementsAttr):
        shape = tuple(rtype.get_shape())
        data = np.asarray(attr.get_values())
        if data.size == 1:
            return [constant(et, data.reshape(()), shape)]
        return [constant(et, data.reshape(shape))]
    raise UnsupportedError(f"constant value {attr} is not supported")


def _arith_static(op):
    """What an arith/math op's execution reads from the IR (once per op)."""
    name = op.name
    attrs = {}
    if name in ("arith.cmpf", "arith.cmpi"):
        attrs["predicate"] = op.predicate.value.data
    et = element_name(op.operands[1 if name == "arith.select" else 0].type)
    rtype = element_name(op.results[0].type) if OPS[name].needs_result_type else None
    # the f16 loop numpy runs natively where it is this table's result bit for bit
    native = native_f16(name) if et == "f16" and len(op.operands) == 2 else None
    return name, attrs, et, rtype, isinstance(op.results[0].type, IndexType), native


def _arith(ex, op, vals):
    name, attrs, et, rtype, index_result, native = op_static(op, _arith_static)
    a = vals[0]
    if len(vals) == 2:
        b = vals[1]
        if type(a) is int and type(b) is int:
            if name in INDEX_BINARY_OPS:
                return [index_binary(name, a, b)]
            if name == "arith.cmpi":
                return [index_compare(attrs["predicate"], a, b)]
        elif (native is not None and type(a) is np.ndarray and type(b) is np.ndarray
                and a.dtype == b.dtype == np.float16 and a.ndim and b.ndim):
            # what apply_op would call on these operands, without its checks (the launch
            # runs under np.errstate(all="ignore"), as apply_op does)
            return [native(a, b)]
    result = apply_op(name, et, *vals, result_type=rtype, **attrs)
    if index_result and np.ndim(result) == 0:
        return [int(result)]  # index results are Python ints
    return [result]


for _name in OPS:
    if _name.startswith(("arith.", "math.")) and _name != "arith.constant":
        handles(_name)(_arith)


# ---- spyreop ----------------------------------------------------------------------------


def _enum_value(attr) -> str:
    data = attr.data
    return str(getattr(data, "value", data))


@handles(*(n for n in OPS if n.startswith("spyreop.")))
def _spyreop(ex, op, vals):
    name = op.name
    attrs = {}
    if name == "spyreop.softplus":
        attrs = {"beta": op.beta.value.data, "threshold": op.threshold.value.data}
    elif name == "spyreop.compare":
        attrs = {"kind": _enum_value(op.predicate)}
    elif name == "spyreop.slice_reduction":
        attrs = {"reduction_kind": _enum_value(op.reduction_kind),
                 "scope": _enum_value(op.reduction_scope)}
    elif name == "spyreop.idx32toaddr":
        env = ex.env
        base = env[op.base] if op.base is not None else _imm(op.base_imm)
        stride = env[op.stride] if op.stride is not None else _imm(op.stride_imm, 1)
        vals = [env[op.index], base, stride]
    # A fused pair's element type is the pair's half (fp16_fused -> f16): the result's.
    typed = op.results[0] if name == "spyreop.layernormscale_fused" else (
        op.operands[-1 if name == "spyreop.select" else 0]
    )
    et = element_name(typed.type)
    result = apply_op(name, et, *vals, **attrs)
    return list(result) if isinstance(result, tuple) else [result]


def _imm(attr, default: int = 0) -> int:
    return default if attr is None else int(attr.value.data)


# ---- scf, affine ------------------------------------------------------------------------


#: the most iterations one `scf.for` may run in the reference interpreter: it steps
#: through each (microseconds apiece even when every access is masked), so a loop past
#: this could not finish in a run anyone waits for (a mutated bound of 2^31 or 2^62 would
#: otherwise run for hours or forever without an error); the longest loop of a shipped
#: kernel runs a few thousand
MAX_LOOP_ITERATIONS = 1 << 24


@handles("scf.for", generator=True)
def _for(ex, op, vals):
    lb, ub, step = (int(v) for v in vals[:3])
    if step <= 0:
        raise ExecutionError(f"loop step must be positive, got {step}")
    trips = max(0, -(-(ub - lb) // step))
    if trips > MAX_LOOP_ITERATIONS:
        raise ExecutionError(f"the loop runs {trips} iterations ({lb} to {ub} step {step}): "
                             f"more than the reference interpreter steps through "
                             f"({MAX_LOOP_ITERATIONS})")
    carried = vals[3:]
    block = op.body.block
    ex.loop_entries[block] += 1
    if ex.errors is not None:  # carried values' error bounds go round the loop with them
        return (yield from error_tracking.run_loop(ex, op, block, range(lb, ub, step), carried))
    for iv in range(lb, ub, step):
        carried = yield from ex.run_block(block, [iv, *carried])
    return carried


@handles("scf.if", generator=True)
def _if(ex, op, vals):
    region = op.true_region if bool(np.asarray(vals[0])) else op.false_region
    if not region.blocks:
        return []
    return (yield from ex.run_block(region.block, []))


@handles("affine.apply")
def _apply(ex, op, vals):
    amap = op.map.data
    result = amap.eval([int(v) for v in vals[: amap.num_dims]], [int(v) for v in vals[amap.num_dims :]])[0]
    return [_index(op.name, result, vals)]


@handles("affine.min", "affine.max")
def _affine_minmax(ex, op, vals):
    amap = op.map.data
    results = amap.eval([int(v) for v in vals[: amap.num_dims]], [int(v) for v in vals[amap.num_dims :]])
    return [_index(op.name, min(results) if op.name == "affine.min" else max(results), vals)]


# ---- tensor -----------------------------------------------------------------------------


def _shape(type_, dynamic) -> tuple[int, ...]:
    dyn = iter(int(v) for v in dynamic)
    return tuple(next(dyn) if d == DYNAMIC_INDEX else d for d in type_.get_shape())


def _mixed(static, dynamic) -> list[int]:
    dyn = iter(int(v) for v in dynamic)
    return [next(dyn) if s == DYNAMIC_INDEX else s for s in static.get_values()]


@handles("tensor.empty")
def _empty(ex, op, vals):
    """Zeros (deterministic), as one read-only zero broadcast to the shape: most empties
    are the `outs` of an op that never reads them, and an op that writes into a tensor
    copies it first (loaded tensors are read-only views too)."""
    rtype = op.tensor.type
    zero = np.zeros((), dtype=value_dtype(element_name(rtype)))
    return [np.broadcast_to(zero, _shape(rtype, vals))]


def _slices(op, env):
    offsets = _mixed(op.static_offsets, [env[v] for v in op.offsets])
    sizes = _mixed(op.static_sizes, [env[v] for v in op.sizes])
    strides = _mixed(op.static_strides, [env[v] for v in op.strides])
    return tuple(slice(o, o + s * st, st) if s else slice(o, o) for o, s, st in zip(offsets, sizes, strides)), sizes


def _check_slice(array, slices, sizes):
    for axis, (s, size) in enumerate(zip(slices, sizes)):
        last = s.start + (size - 1) * (s.step or 1)  # (an empty slice has no step)
        if s.start < 0 or (size and last >= array.shape[axis]):
            raise ExecutionError(
                f"slice [{s.start}, size {size}, stride {s.step}] of axis {axis} is outside "
                f"the tensor's extent {array.shape[axis]}"
            )


@handles("tensor.extract_slice")
def _extract_slice(ex, op, vals):
    source = vals[0]
    slices, sizes = _slices(op, ex.env)
    _check_slice(source, slices, sizes)
    part = source[slices]
    rshape = [d for d in op.result.type.get_shape()]
    if all(d >= 0 for d in rshape):
        part = part.reshape(rshape)
    else:  # rank-reduced with dynamic dims: drop the unit dims the result omits
        part = part.reshape([s for s in sizes if s != 1] if len(rshape) < len(sizes) else sizes)
    return [part.copy()]


def _carried_only_through(op) -> bool:
    """True when `op`'s destination tensor is an scf.for iteration argument used by `op`
    alone, and `op`'s result is used only to carry it to the next iteration: the loop
    then hands the array from one insert to the next and nothing else can see it."""
    dest, result = op.operands[1], op.results[0]
    if not (isinstance(dest, BlockArgument) and dest.has_one_use() and result.has_one_use()):
        return False
    block = dest.block
    loop = block.parent_op()
    if not isinstance(loop, scf.ForOp) or op.parent_block() is not block or dest.index == 0:
        return False
    use = result.get_unique_use()
    return isinstance(use.operation, scf.YieldOp) and use.operation.parent_block() is block \
        and use.index == dest.index - 1


def _updated(ex, op, dest: np.ndarray) -> np.ndarray:
    """The array an insert writes its result into: `dest` itself when the previous
    iteration of the same loop entry produced it and nothing else can see it (a row-by-row
    build costs a row, not a copy of the whole tensor), else a copy."""
    if op_static(op, _carried_only_through):
        block = op.operands[1].block
        last = ex.owned.get(op)
        if last is not None and last[0] is dest and last[1] == ex.loop_entries[block]:
            return dest
        out = dest.copy()
        ex.owned[op] = (out, ex.loop_entries[block])
        return out
    return dest.copy()


@handles("tensor.insert_slice")
def _insert_slice(ex, op, vals):
    source, dest = vals[0], vals[1]
    slices, sizes = _slices(op, ex.env)
    _check_slice(dest, slices, sizes)
    out = _updated(ex, op, dest)
    out[slices] = source.reshape(sizes)
    return [out]


def _indices(array, indices):
    idx = tuple(int(i) for i in indices)
    for axis, i in enumerate(idx):
        if not 0 <= i < array.shape[axis]:
            raise ExecutionError(f"index {i} of axis {axis} is outside the extent {array.shape[axis]}")
    return idx


@handles("tensor.extract")
def _extract(ex, op, vals):
    array = vals[0]
    value = array[_indices(array, vals[1:])]
    return [_scalar_result(op, np.asarray(value))]


@handles("tensor.insert")
def _insert(ex, op, vals):
    scalar, dest = vals[0], vals[1]
    index = _indices(dest, vals[2:])
    out = _updated(ex, op, dest)
    out[index] = scalar
    return [out]


@handles("tensor.expand_shape")
def _expand_shape(ex, op, vals):
    shape = _mixed(op.static_output_shape, vals[1:])
    return [vals[0].reshape(shape)]


@handles("tensor.collapse_shape")
def _collapse_shape(ex, op, vals):
    source = vals[0]
    groups = [[int(i) for i in g] for g in _reassociation(op)]
    shape = [int(np.prod([source.shape[i] for i in g])) for g in groups]
    return [source.reshape(shape)]


def _reassociation(op):
    out = []
    for group in op.reassociation.data:
        out.append([e.data if hasattr(e, "data") else e.value.data for e in group.data])
    return out


@handles("tensor.reshape")
def _reshape(ex, op, vals):
    return [vals[0].reshape([int(v) for v in np.asarray(vals[1]).reshape(-1)])]


@handles("tensor.cast")
def _cast(ex, op, vals):
    return [vals[0]]


@handles("tensor.splat")
def _splat(ex, op, vals):
    rtype = op.result.type
    shape = _shape(rtype, vals[1:])
    return [np.full(shape, vals[0], dtype=value_dtype(element_name(rtype)))]


@handles("tensor.from_elements")
def _from_elements(ex, op, vals):
    rtype = op.result.type
    arr = np.array([np.asarray(v) for v in vals], dtype=value_dtype(element_name(rtype)))
    return [arr.reshape(tuple(rtype.get_shape()))]


@handles("tensor.dim")
def _dim(ex, op, vals):
    return [int(vals[0].shape[int(vals[1])])]
