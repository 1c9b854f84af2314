"""Normal-form pass `extract-to-broadcast`: a scalar read out of a one-element tensor
(`tensor.extract`, as kernels read a reduction's result) is that tensor, broadcast.

KTIR kernels reduce a row to `tensor<1xf16>`, take the scalar out with `tensor.extract`
and spread it again with `tensor.splat` (or `linalg.fill`) to combine it with the row.
The scheduler moves tensors, not scalars, so each use of the scalar becomes a use of the
one-element tensor it came from:

- `tensor.splat %s` / `linalg.fill ins(%s) outs(%init)`: a `linalg.generic` broadcasting
  the tensor to the splat's shape;
- `tensor.from_elements %s` of one element: the tensor itself where the types agree,
  else a broadcast to the new shape;
- `%s` used inside a `linalg.generic` body: the tensor becomes one more input of that
  generic, read at the same element by every iteration;
- scalar `arith`/`math` on `%s` (`mean = sum / N`, `rsqrt(mean + eps)`): that op on the
  one-element tensor (an elementwise generic whose other operands, constants or casts of
  constants, are folded into the body), its element read out in turn.

The broadcast map sends each dimension of the one-element tensor to a dimension of
extent 1 of the iteration space, in order (a reduction over the last dimension of a
`1xN` row keeps the row dimension: `tensor<1xf16>` spreads along `(d0, d1) -> (d0)`).
A loop the normal form later folds widens both together, so the map stays right. A
shape with too few dimensions of extent 1 has no such map: refused, saying so.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass

from spyre_sched.normalize.common import empty_like, kernel_of, note_origin, parallel_generic
from spyre_sched.schedule.common import fail

NAME = "extract-to-broadcast"


def _spread_map(source: TensorType, extents: list[int], op: Operation) -> AffineMap:
    """Each dim of the one-element `source` onto the next dim of extent 1 of `extents`."""
    free = [d for d, extent in enumerate(extents) if extent == 1]
    rank = source.get_num_dims()
    if rank > len(free):
        raise fail(op, NAME, f"not supported yet: spreading the element of a {source} over "
                   f"a shape {list(extents)} with fewer than {rank} dimensions of extent 1 "
                   "(the broadcast would need a constant index)")
    return AffineMap(len(extents), 0, tuple(AffineExpr.dimension(d) for d in free[:rank]))


def _broadcast(source: SSAValue, init: SSAValue, rtype: TensorType,
               op: Operation) -> GenericOp:
    assert isinstance(source.type, TensorType)
    spread = _spread_map(source.type, list(rtype.get_shape()), op)
    return parallel_generic([source], [spread], init, rtype, lambda args: ([], args[0]))


def _add_input(generic: GenericOp, source: SSAValue, scalar: SSAValue) -> GenericOp:
    """`generic` with `source` as one more input whose element replaces `scalar` inside."""
    assert isinstance(source.type, TensorType)
    extents = list(generic.get_static_loop_ranges())
    spread = _spread_map(source.type, extents, generic)
    n_in = len(generic.inputs)
    maps = [m.data for m in generic.indexing_maps.data]
    body = generic.body.clone()
    block = body.block
    new_arg = block.insert_arg(source.type.element_type, n_in)
    for inner in block.walk():
        for i, operand in enumerate(inner.operands):
            if operand is scalar:
                inner.operands = (*inner.operands[:i], new_arg, *inner.operands[i + 1:])
    new = GenericOp([*generic.inputs, source], list(generic.outputs), body,
                    [AffineMapAttr(m) for m in (*maps[:n_in], spread, *maps[n_in:])],
                    list(generic.iterator_types.data), [r.type for r in generic.results])
    for attr in ("doc", "library_call"):
        if attr in generic.attributes:
            new.attributes[attr] = generic.attributes[attr]
    return new


def _enclosing_generic(op: Operation) -> GenericOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, GenericOp):
        parent = parent.parent_op()
    return parent


def _replace(old: Operation, new_ops: list[Operation], value: SSAValue) -> None:
    note_origin(new_ops, old)
    block = old.parent_block()
    assert block is not None
    block.insert_ops_before(new_ops, old)
    name = old.results[0].name_hint
    old.results[0].replace_all_uses_with(value)
    value.name_hint = name
    old.detach()
    old.erase()


def _scalar_arithmetic(op: Operation) -> bool:
    """An `arith`/`math` op on scalars outside any compute body (`mean = sum / N`)."""
    return (op.name.startswith(("arith.", "math.")) and len(op.results) == 1
            and not op.regions and op.name != "arith.constant"
            and not isinstance(op.results[0].type, TensorType)
            and _enclosing_generic(op) is None)


#: scalar casts folded on constants (numpy's conversions round to nearest, ties to even,
#: as the ops do)
CASTS = ("arith.index_cast", "arith.sitofp", "arith.uitofp", "arith.extf", "arith.truncf",
         "arith.bitcast")
_FLOATS = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def folded_constant(value: SSAValue) -> Attribute | None:
    """The constant `value` is, through casts of constants, or None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        return owner.value
    if not isinstance(owner, Operation) or owner.name not in CASTS:
        return None
    inner = folded_constant(owner.operands[0])
    if not isinstance(inner, IntegerAttr | FloatAttr):
        return None
    rtype = owner.results[0].type
    if owner.name == "arith.bitcast":
        return _reinterpreted(inner, rtype)
    if isinstance(rtype, IndexType | IntegerType):
        # a narrowing cast keeps the low bits (MLIR's index_cast truncates), read signed
        width = 64 if isinstance(rtype, IndexType) else rtype.width.data
        half = 1 << (width - 1)
        return IntegerAttr((int(inner.value.data) + half) % (2 * half) - half, rtype)
    kind = _FLOATS.get(str(rtype))
    if kind is None:
        return None
    source = str(inner.type)
    number = _FLOATS[source](inner.value.data) if source in _FLOATS else inner.value.data
    return FloatAttr(float(kind(number)), rtype)


_BITS = {16: (np.uint16, np.int16), 32: (np.uint32, np.int32), 64: (np.uint64, np.int64)}


def _reinterpreted(inner: IntegerAttr | FloatAttr, rtype: Attribute) -> Attribute | None:
    """`arith.bitcast` of a constant: the same bits read as `rtype` (a float constant
    written as its bit pattern, Triton's `0xFF800000 : i32` for -inf), or None for a
    width this does not fold."""
    source = str(inner.type)
    width = int(source[1:]) if source[1:].isdigit() else None
    if width not in _BITS or str(rtype) != f"{str(rtype)[0]}{width}":
        return None
    unsigned, signed = _BITS[width]
    if isinstance(inner, IntegerAttr):
        bits = np.array(int(inner.value.data) & ((1 << width) - 1), dtype=unsigned)
    elif source in _FLOATS:
        bits = np.array(inner.value.data, dtype=_FLOATS[source]).view(unsigned)
    else:
        return None
    if isinstance(rtype, IntegerType):
        return IntegerAttr(int(bits.view(signed)), rtype)
    kind = _FLOATS.get(str(rtype))
    return FloatAttr(float(bits.view(kind)), rtype) if kind is not None else None


def _lift(user: Operation, source: SSAValue, scalar: SSAValue,
          extract: tensor.ExtractOp) -> tensor.ExtractOp:
    """`f(extract(source), c)` -> `extract(generic(source) { f(element, c) })`: scalar
    arithmetic on the element becomes elementwise work on the one-element tensor; another
    operand must be a constant (possibly cast), which goes into the body, or a float the
    body reads from outside (a scalar argument, arithmetic on one)."""
    stype = source.type
    assert isinstance(stype, TensorType)
    element = user.results[0].type
    rtype = TensorType(element, stype.get_shape())

    def body(args):
        ops: list[Operation] = []
        operands = []
        for operand in user.operands:
            if operand is scalar:
                operands.append(args[0])
                continue
            value = folded_constant(operand)
            if value is None and isinstance(operand.type, AnyFloat):
                # a float known at launch (an argument, arithmetic on one): the body reads
                # it from outside, as the lowering spreads it
                operands.append(operand)
                continue
            if value is None:
                raise fail(user, NAME, f"not supported yet: {user.name} of a scalar read out "
                           "of a tensor and a value that is not a constant or a float")
            constant = arith.ConstantOp(value)
            ops.append(constant)
            operands.append(constant.result)
        op = type(user).create(operands=operands, result_types=[element],
                               properties=dict(user.properties), attributes=dict(user.attributes))
        return [*ops, op], op.results[0]

    init = empty_like(rtype)
    identity = AffineMap.identity(stype.get_num_dims())
    generic = parallel_generic([source], [identity], init.tensor, rtype, body)
    lifted = tensor.ExtractOp(generic.results[0], list(extract.indices), element)
    _replace(user, [init, generic, lifted], lifted.result)
    return lifted


def _rewrite_extract(extract: tensor.ExtractOp) -> None:
    source = extract.tensor
    stype = source.type
    assert isinstance(stype, TensorType)
    if any(extent != 1 for extent in stype.get_shape()):
        raise fail(extract, NAME, f"not supported yet: tensor.extract of one element of a "
                   f"{stype} (only the element of a one-element tensor, such as a reduction's "
                   "result, is read out)")
    scalar = extract.result
    while scalar.uses:
        use = next(iter(scalar.uses))
        user = use.operation
        if isinstance(user, tensor.SplatOp):
            rtype = user.result.type
            assert isinstance(rtype, TensorType)
            init = empty_like(rtype)
            generic = _broadcast(source, init.tensor, rtype, user)
            _replace(user, [init, generic], generic.results[0])
        elif isinstance(user, FillOp) and use.index == 0 and len(user.outputs) == 1 \
                and isinstance(user.outputs[0].type, TensorType):
            rtype = user.outputs[0].type
            generic = _broadcast(source, user.outputs[0], rtype, user)
            _replace(user, [generic], generic.results[0])
        elif isinstance(user, tensor.FromElementsOp) and len(user.elements) == 1:
            rtype = user.result.type
            assert isinstance(rtype, TensorType)
            if rtype == stype:
                user.result.replace_all_uses_with(source)
                user.detach()
                user.erase()
            else:
                init = empty_like(rtype)
                generic = _broadcast(source, init.tensor, rtype, user)
                _replace(user, [init, generic], generic.results[0])
        elif _scalar_arithmetic(user):
            lifted = _lift(user, source, scalar, extract)
            _rewrite_extract(lifted)  # the one-element result, used in turn
        elif (generic := _enclosing_generic(user)) is not None:
            new = _add_input(generic, source, scalar)  # every use inside it at once
            note_origin([new], generic)
            block = generic.parent_block()
            assert block is not None
            block.insert_op_before(new, generic)
            for old_result, new_result in zip(generic.results, new.results):
                old_result.replace_all_uses_with(new_result)
                new_result.name_hint = old_result.name_hint
            generic.detach()
            generic.erase()
        else:
            raise fail(user, NAME, f"not supported yet: {user.name} of a scalar read out of "
                       "a tensor by tensor.extract (it may be spread by tensor.splat or "
                       "linalg.fill, or used inside a linalg.generic body)")
    extract.detach()
    extract.erase()


def _rewrite_from_elements(op: tensor.FromElementsOp) -> None:
    """A one-element tensor made of a scalar that is not read out of a tensor: a fill."""
    rtype = op.result.type
    assert isinstance(rtype, TensorType)
    if len(op.elements) != 1:
        raise fail(op, NAME, "not supported yet: tensor.from_elements of several scalars "
                   "(the schedule has no place for a tensor assembled element by element)")
    init = empty_like(rtype)
    fill = FillOp([op.elements[0]], [init.tensor], [rtype])
    _replace(op, [init, fill], fill.results[0])


@dataclass(frozen=True)
class ExtractToBroadcast(ModulePass):
    """`tensor.extract` of a one-element tensor -> broadcasts of that tensor;
    `tensor.from_elements` of one scalar -> a fill."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for extract in [o for o in fn.walk() if isinstance(o, tensor.ExtractOp)]:
                _rewrite_extract(extract)
            for made in [o for o in fn.walk() if isinstance(o, tensor.FromElementsOp)]:
                _rewrite_from_elements(made)
