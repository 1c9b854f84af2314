"""Pass 3, fuse-compute: each program's compute as few `linalg.generic`s as possible.

The normal form (`spyre_sched/normalize`) has already made every compute a generic. An
all-parallel generic whose only user is another generic is fused into
it (its body inlined, its inputs re-indexed through the consumer's map), repeatedly, so
an elementwise chain is one generic. Nothing is fused into a matmul (the matrix unit runs it as
it is), and a reduction is never fused into its consumer (its result exists only once the
reduction is done): a program whose compute is a reduction
followed by work on its result keeps one generic per step, in order ("computes").
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import tensor
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from spyre_sched.dialects.linalg_matmul import matmul_dims
from spyre_sched.schedule.common import fail, programs

NAME = "fuse-compute"

PARALLEL = IteratorTypeAttr.parallel()


def _is_all_parallel(op: GenericOp) -> bool:
    return all(t == PARALLEL for t in op.iterator_types.data)


def _fusable_producer(consumer: GenericOp) -> tuple[int, GenericOp] | None:
    if matmul_dims(consumer) is not None:
        # A matmul keeps its shape (the matrix unit runs it): what feeds it stays a
        # compute of its own, its result in the scratchpad.
        return None
    for index, value in enumerate(consumer.inputs):
        producer = value.owner
        if not isinstance(producer, GenericOp) or not _is_all_parallel(producer):
            continue
        if len(producer.outputs) != 1 or len(producer.res) != 1:
            continue
        out_map = producer.indexing_maps.data[-1].data
        if out_map != AffineMap.identity(out_map.num_dims):
            continue
        if any(use.operation is not consumer for use in value.uses) or len(list(value.uses)) != 1:
            continue
        out_arg = producer.body.block.args[len(producer.inputs)]
        if out_arg.uses:
            continue  # the producer reads its output: not a pure elementwise map
        return index, producer
    return None


def fuse(consumer: GenericOp, index: int, producer: GenericOp) -> GenericOp:
    """The consumer with input `index` computed in place by the producer's body. An
    input the two read the same way (same value, same map) is read once."""
    maps = [m.data for m in consumer.indexing_maps.data]
    through = maps[index]
    p_maps = [m.data for m in producer.indexing_maps.data]
    inputs: list[tuple[SSAValue, AffineMap]] = []
    # which fused input each consumer / producer block argument reads
    c_slot: dict[int, int] = {}
    p_slot: dict[int, int] = {}

    def slot(value: SSAValue, amap: AffineMap) -> int:
        if (value, amap) not in inputs:
            inputs.append((value, amap))
        return inputs.index((value, amap))

    for k, value in enumerate(consumer.inputs):
        if k == index:
            for j, (pv, pm) in enumerate(zip(producer.inputs, p_maps)):
                p_slot[j] = slot(pv, pm.compose(through))
        else:
            c_slot[k] = slot(value, maps[k])
    outputs = list(consumer.outputs)
    new_maps = [m for _, m in inputs] + maps[len(consumer.inputs):]
    block = Block(arg_types=[_scalar(v) for v, _ in inputs] + [_scalar(v) for v in outputs])
    c_args = consumer.body.block.args
    p_args = producer.body.block.args
    mapping: dict[SSAValue, SSAValue] = {}
    for j, k in p_slot.items():
        mapping[p_args[j]] = block.args[k]
    for j, k in c_slot.items():
        mapping[c_args[j]] = block.args[k]
    for k in range(len(outputs)):
        mapping[c_args[len(consumer.inputs) + k]] = block.args[len(inputs) + k]
    for op in producer.body.block.ops:
        if isinstance(op, YieldOp):
            mapping[c_args[index]] = mapping.get(op.operands[0], op.operands[0])
            continue
        block.add_op(op.clone(value_mapper=mapping))
    for op in consumer.body.block.ops:
        block.add_op(op.clone(value_mapper=mapping))
    return GenericOp([v for v, _ in inputs], outputs, Region(block),
                     [AffineMapAttr(m) for m in new_maps],
                     list(consumer.iterator_types.data), [r.type for r in consumer.res])


def _scalar(value: SSAValue):
    t = value.type
    return t.element_type if hasattr(t, "element_type") else t  # type: ignore[attr-defined]


def _remove_dead_tensors(fn: Operation) -> None:
    changed = True
    while changed:
        changed = False
        for op in list(fn.walk()):
            if isinstance(op, tensor.EmptyOp | FillOp) and all(not r.uses for r in op.results):
                Rewriter.erase_op(op)
                changed = True


@dataclass(frozen=True)
class FuseCompute(ModulePass):
    """Fuse elementwise producer -> consumer chains of generics."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _, fn in list(programs(op)):
            changed = True
            while changed:
                changed = False
                for consumer in [o for o in fn.walk() if isinstance(o, GenericOp)]:
                    found = _fusable_producer(consumer)
                    if found is None:
                        continue
                    index, producer = found
                    fused = fuse(consumer, index, producer)
                    Rewriter.replace_op(consumer, fused)
                    Rewriter.erase_op(producer)
                    changed = True
                    break
            _remove_dead_tensors(fn)
            for inner in fn.walk():
                if inner.name.startswith("linalg.") and not isinstance(
                        inner, GenericOp | FillOp | YieldOp) \
                        and isinstance(inner.parent_op(), type(fn)):
                    raise fail(inner, NAME, f"not supported yet: {inner.name} after fusion")
