"""Normal-form pass `reshape-through-elementwise`: a reshape of a computed value moves to
the computation's inputs, until it reaches memory.

`reshape-to-access` brings a reshape of a loaded tile, or of a value only stored, to the
memory side. A reshape of a value that is computed and then computed with again (an
all-reduced `tensor<1024xf16>` expanded to `4x256` for a residual add) is left to this
pass, which runs once every compute is a `linalg.generic`. An elementwise generic
(identity maps, all-parallel) computes each element from the same position of each
input, so it commutes with any reshape, which keeps row-major order:
`reshape(f(a, b)) = f(reshape(a), reshape(b))`. The pass rewrites the generic over the
reshaped shape, reshaping each tensor input in its place, and repeats on those reshapes:

- a reshape of a loaded tile becomes a load through a reshaped access
  (`reshape-to-access`'s rule);
- a reshape of a `linalg.fill` or of a `tensor.empty` is a fill or an empty tensor of the
  new shape;
- a reshape of a reshape reshapes the first one's source.

A generic that is not elementwise (a reduction, a broadcast, a matmul), a value with
other uses than the reshape (it would be computed twice), or a value crossing a loop or
condition boundary is refused with a located "not supported yet"."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdp
from spyre_sched.normalize.common import (
    PARALLEL,
    enclosing_func,
    kernel_of,
    note_origin,
    origin_of,
)
from spyre_sched.normalize.reshape_to_access import reshape_load
from spyre_sched.schedule.common import fail

NAME = "reshape-through-elementwise"

Reshape = tensor.CollapseShapeOp | tensor.ExpandShapeOp


def _shape(value: SSAValue) -> list[int]:
    assert isinstance(value.type, TensorType)
    return list(value.type.get_shape())


def _reshaped(value: SSAValue, shape: list[int]) -> TensorType:
    assert isinstance(value.type, TensorType)
    return TensorType(value.type.element_type, shape)


def _is_elementwise(generic: GenericOp) -> bool:
    if any(it != PARALLEL for it in generic.iterator_types):
        return False
    rank = len(generic.iterator_types)
    return all(m.data == AffineMap.identity(rank) for m in generic.indexing_maps)


def _refuse(op: Operation, why: str):
    return fail(op, NAME, f"not supported yet: {op.name} of a computed value {why} "
                "(reshapes of loaded tiles, of stored values and of elementwise computes "
                "on them are)")


def _new_reshape(like: Operation, source: SSAValue, shape: list[int],
                 before: Operation) -> Operation:
    """A reshape of `source` to `shape` of the same kind as `like`, put before `before`
    (the result's element type is the source's: an input may differ from the output)."""
    made = type(like).create(operands=[source, *like.operands[1:]],
                             result_types=[_reshaped(source, shape)],
                             properties=dict(like.properties), attributes=dict(like.attributes))
    note_origin([made], like)
    Rewriter.insert_op(made, InsertPoint.before(before))
    return made


def _push(reshape: Operation) -> list[Operation]:
    """Rewrite one reshape; returns the reshapes it made (to push in turn)."""
    source, result = reshape.operands[0], reshape.results[0]
    shape = _shape(result)
    producer = source.owner
    if not isinstance(producer, Operation):
        raise _refuse(reshape, "defined by a loop or a block (an iteration argument)")
    if isinstance(producer, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
        reshape.operands[0] = producer.operands[0]
        if not producer.results[0].uses:
            producer.detach()
            producer.erase()
        return [reshape]
    if isinstance(producer, ktdp.LoadOp):
        reshape_load(reshape, enclosing_func(reshape))
        return []
    if len(list(source.uses)) != 1:
        raise _refuse(reshape, "that is also used elsewhere (it would be computed twice)")
    if producer.parent_block() is not reshape.parent_block():
        raise _refuse(reshape, "made in another block (a loop or condition boundary)")
    if isinstance(producer, tensor.EmptyOp):
        made = tensor.EmptyOp([], _reshaped(source, shape))
        note_origin([made], producer)
        Rewriter.insert_op(made, InsertPoint.before(producer))
        _replace(reshape, made.results[0])
        producer.detach()
        producer.erase()
        return []
    if isinstance(producer, FillOp):
        init = _new_reshape(reshape, producer.outputs[0], shape, producer)
        made = FillOp([producer.inputs[0]], [init.results[0]], [_reshaped(source, shape)],
                      attributes=dict(producer.attributes))
        return _replace_producer(reshape, producer, made, [init])
    if isinstance(producer, GenericOp) and _is_elementwise(producer) \
            and len(producer.results) == 1:
        pushed = [_new_reshape(reshape, v, shape, producer)
                  for v in [*producer.inputs, *producer.outputs]]
        inputs = [p.results[0] for p in pushed[:len(producer.inputs)]]
        outputs = [p.results[0] for p in pushed[len(producer.inputs):]]
        identity = AffineMapAttr(AffineMap.identity(len(shape)))
        made = GenericOp(inputs, outputs, producer.body.clone(),
                         [identity] * (len(inputs) + len(outputs)),
                         [PARALLEL] * len(shape), [_reshaped(source, shape)],
                         doc=producer.doc, library_call=producer.library_call)
        made.attributes.update(producer.attributes)
        return _replace_producer(reshape, producer, made, pushed)
    raise _refuse(reshape, f"made by {origin_of(producer).name}, which is not elementwise")


def _replace(reshape: Operation, value: SSAValue) -> None:
    value.name_hint = reshape.results[0].name_hint or value.name_hint
    reshape.results[0].replace_all_uses_with(value)
    reshape.detach()
    reshape.erase()


def _replace_producer(reshape: Operation, producer: Operation, made: Operation,
                      pushed: list[Operation]) -> list[Operation]:
    note_origin([made], producer)
    Rewriter.insert_op(made, InsertPoint.before(producer))
    _replace(reshape, made.results[0])
    producer.detach()
    producer.erase()
    return pushed


@dataclass(frozen=True)
class ReshapeThroughElementwise(ModulePass):
    """Reshapes of computed values -> the same computes over reshaped inputs."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx
        for fn in kernel_of(op):
            assert isinstance(fn, FuncOp)
            work = [o for o in fn.walk() if isinstance(o, Reshape)]
            while work:
                reshape = work.pop(0)
                if reshape.parent is None:
                    continue
                if not reshape.results[0].uses:
                    reshape.detach()
                    reshape.erase()
                    continue
                work[:0] = _push(reshape)

