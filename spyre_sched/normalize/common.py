"""What the normal-form passes share: building an elementwise `linalg.generic`, and the
kernel function a pass rewrites."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap

from spyre_sched.schedule.common import kernel_funcs

PARALLEL = IteratorTypeAttr.parallel()
REDUCTION = IteratorTypeAttr.reduction()


def element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, TensorType) else t


def is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType)


def empty_like(result_type: TensorType) -> tensor.EmptyOp:
    return tensor.EmptyOp([], result_type)


def parallel_generic(inputs: Sequence[SSAValue], input_maps: Sequence[AffineMap],
                     init: SSAValue, result_type: TensorType,
                     body: Callable[[Sequence[SSAValue]], tuple[list[Operation], SSAValue]]
                     ) -> GenericOp:
    """An all-parallel generic over `result_type`'s shape writing `init` (identity output
    map). `body(args)` gets the scalar block arguments of the inputs and returns the ops
    that compute the element and the value to yield."""
    rank = result_type.get_num_dims()
    block = Block(arg_types=[element_type(v.type) for v in inputs]
                  + [result_type.element_type])
    ops, value = body(block.args[:len(inputs)])
    for op in ops:
        block.add_op(op)
    block.add_op(YieldOp(value))
    maps = [AffineMapAttr(m) for m in input_maps] + [AffineMapAttr(AffineMap.identity(rank))]
    return GenericOp(list(inputs), [init], Region(block), maps, [PARALLEL] * rank,
                     [result_type])


def kernel_of(module: ModuleOp) -> list[Operation]:
    """The kernel functions of the module (the normal form runs before program split)."""
    return list(kernel_funcs(module))
