"""Normal-form pass `select-compare-to-generic`: `arith.select` on tensors whose
condition is an `arith.cmpf` on tensors becomes one elementwise `linalg.generic` that
computes both.

```
%p = arith.cmpf ogt, %a, %b : tensor<2x64xf16>
%r = arith.select %p, %x, %y : tensor<2x64xi1>, tensor<2x64xf16>
->
%r = linalg.generic ins(%a, %b, %x, %y) {
  %c = arith.cmpf ogt, %ea, %eb : f16
  %s = arith.select %c, %ex, %ey : f16
}
```

Run before `tensor-elementwise-to-generic`, so the `i1` comparison never becomes a tensor
of its own between two computes (a vector unit has no lanes for `i1`; `compare-to-mask`
turns the body's pair into the device's float mask). Every operand must be a tensor of
the result's shape; a comparison used otherwise stays, and is refused where it is used.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass

from spyre_sched.dialects.linalg_ktir import inside_linalg_body
from spyre_sched.normalize.common import (
    element_type,
    empty_like,
    kernel_of,
    note_origin,
    parallel_generic,
)
from spyre_sched.schedule.common import fail

NAME = "select-compare-to-generic"


def _tensor_select(select: Operation) -> None:
    """`select(cmpf(a, b), x, y)` on tensors -> one elementwise generic of both."""
    cmp = select.operands[0].owner
    if not isinstance(cmp, Operation) or cmp.name != "arith.cmpf":
        return
    rtype = select.results[0].type
    assert isinstance(rtype, TensorType)
    shape = rtype.get_shape()
    operands = [cmp.operands[0], cmp.operands[1], select.operands[1], select.operands[2]]
    for operand in operands:
        otype = operand.type
        if not isinstance(otype, TensorType) or otype.get_shape() != shape:
            raise fail(select, NAME, f"not supported yet: {select.name} on operands of "
                       f"different shapes ({otype} and {rtype})")
    identity = AffineMap.identity(len(shape))

    def body(args):
        scalar_cmp = type(cmp).create(operands=[args[0], args[1]],
                                      result_types=[element_type(cmp.results[0].type)],
                                      properties=dict(cmp.properties))
        scalar_select = type(select).create(
            operands=[scalar_cmp.results[0], args[2], args[3]],
            result_types=[element_type(rtype)])
        return [scalar_cmp, scalar_select], scalar_select.results[0]

    init = empty_like(rtype)
    generic = parallel_generic(operands, [identity] * 4, init.tensor, rtype, body)
    note_origin([init, generic], select)
    block = select.parent_block()
    assert block is not None
    block.insert_ops_before([init, generic], select)
    select.results[0].replace_all_uses_with(generic.res[0])
    block.erase_op(select)
    if not cmp.results[0].uses:
        cmp_block = cmp.parent_block()
        assert cmp_block is not None
        cmp_block.erase_op(cmp)


@dataclass(frozen=True)
class SelectCompareToGeneric(ModulePass):
    """select(cmpf(a, b), x, y) on tensors -> one elementwise generic."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for inner in list(fn.walk()):
                if inner.name == "arith.select" and not inside_linalg_body(inner) \
                        and isinstance(inner.results[0].type, TensorType):
                    _tensor_select(inner)
