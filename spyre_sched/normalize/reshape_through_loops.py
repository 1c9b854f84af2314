"""Normal-form pass `reshape-through-loops`: a value an `scf.for` carries in the shape it
is reshaped to inside the loop.

A loop that carries a tensor which each iteration only reshapes (`collapse_shape`) before
using it, and yields reshaped back (`expand_shape` with the same reassociation) of a
value of that collapsed shape, carries it collapsed instead: the initial value is
collapsed before the loop, the loop's result expanded after it. A reshape moves no data
(reshape-to-access), so nothing changes but where the shape changes: out of the loop,
where the initial value and the result are what the kernel loaded or stores, and
`reshape-to-access` takes them into the accesses. A splat constant is made again in the
collapsed shape rather than reshaped.

```mlir
%r = scf.for ... iter_args(%acc = %zero) -> (tensor<1x16x16xf32>) {
  %c = tensor.collapse_shape %acc [[0, 1], [2]] : tensor<1x16x16xf32> into tensor<16x16xf32>
  %m = linalg.generic ... outs(%c : tensor<16x16xf32>)
  %e = tensor.expand_shape %m [[0, 1], [2]] output_shape [1, 16, 16] : ... into tensor<1x16x16xf32>
  scf.yield %e : tensor<1x16x16xf32>
}
```
becomes a loop carrying `tensor<16x16xf32>` (`%zero` made as a 16x16 splat) whose result
is expanded to 1x16x16 after the loop. A batch matmul of one batch index in a K loop
(`batch-matmul-to-matmuls`) leaves this shape. Any other use of the carried value leaves
the loop as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.normalize.common import kernel_of, note_origin

NAME = "reshape-through-loops"


def _collapsed_init(init: SSAValue, collapse: tensor.CollapseShapeOp,
                    loop: scf.ForOp) -> SSAValue:
    """The loop's initial value in the collapsed shape, made before `loop`."""
    new_type = collapse.result.type
    owner = init.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, DenseIntOrFPElementsAttr) \
            and owner.value.is_splat():
        assert isinstance(new_type, TensorType)
        values = owner.value.get_values()
        made = arith.ConstantOp(DenseIntOrFPElementsAttr.from_list(new_type, [values[0]]))
    else:
        made = tensor.CollapseShapeOp(operands=[init], result_types=[new_type],
                                      properties={"reassociation": collapse.reassociation})
    Rewriter.insert_op(made, InsertPoint.before(loop))
    note_origin([made], loop)
    return made.results[0]


def _carry_collapsed(loop: scf.ForOp, index: int) -> bool:
    """Carry iter_arg `index` of `loop` collapsed, when the loop allows it (module doc)."""
    block = loop.body.block
    arg = block.args[1 + index]
    uses = [u.operation for u in arg.uses]
    if not uses or not all(isinstance(u, tensor.CollapseShapeOp) for u in uses):
        return False
    first = uses[0]
    assert isinstance(first, tensor.CollapseShapeOp)
    if any(u.reassociation != first.reassociation or u.result.type != first.result.type
           for u in uses):
        return False
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    back = yield_op.operands[index].owner
    if not isinstance(back, tensor.ExpandShapeOp) or back.reassociation != first.reassociation \
            or back.src.type != first.result.type or back.dynamic_output_shape:
        return False
    old_type = arg.type
    if not isinstance(old_type, TensorType) or any(d < 0 for d in old_type.get_shape()):
        return False  # (the expand after the loop needs the static shape)
    new_type = first.result.type
    old_init = loop.iter_args[index]
    init = _collapsed_init(old_init, first, loop)
    operands = list(loop.operands)
    operands[3 + index] = init
    loop.operands = operands
    if isinstance(old_init.owner, arith.ConstantOp) and not old_init.uses:
        Rewriter.erase_op(old_init.owner)  # (made again in the collapsed shape)
    new_arg = Rewriter.replace_value_with_new_type(arg, new_type)
    for collapse in uses:
        collapse.results[0].replace_all_uses_with(new_arg)
        Rewriter.erase_op(collapse)
    yield_op.operands = [back.src if k == index else v for k, v in enumerate(yield_op.operands)]
    if not back.result.uses:
        Rewriter.erase_op(back)
    result = Rewriter.replace_value_with_new_type(loop.results[index], new_type)
    expand = tensor.ExpandShapeOp(result, [], first.reassociation, list(old_type.get_shape()),
                                  old_type)
    Rewriter.insert_op(expand, InsertPoint.after(loop))
    note_origin([expand], loop)
    result.replace_uses_with_if(expand.result, lambda use: use.operation is not expand)
    return True


@dataclass(frozen=True)
class ReshapeThroughLoops(ModulePass):
    """Carry a loop's tensor in the shape each iteration reshapes it to."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for loop in [o for o in fn.walk() if isinstance(o, scf.ForOp)]:
                for index in range(len(loop.iter_args)):
                    _carry_collapsed(loop, index)
