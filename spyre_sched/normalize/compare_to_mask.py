"""Normal-form pass `compare-to-mask`: a comparison that chooses between two values
(`arith.cmpf` + `arith.select`) in a compute body becomes a mask in the values' own
float type (`spyreop.compare` + `spyreop.select`).

A vector unit has lanes for the types it computes with, not for `i1`: the comparison's
result is held as 1.0 / 0.0 in the compared type, and the select picks by it.

```
%p = arith.cmpf ogt, %a, %b : f16            %m = spyreop.compare <greaterthan> %a, %b : f16
%r = arith.select %p, %x, %y : f16      ->   %r = spyreop.select %m, %x, %y : f16
```

The ordered predicates (`oeq ogt oge olt ole`, false when an operand is NaN) are the
device comparisons `equal greaterthan greaterequal lesserthan lesserequal`, and `une`
(true when an operand is NaN) is `notequal`: the device's comparisons are false on NaN
except `notequal`. The unordered `ugt uge ult ule` are the negations of `ole olt oge ogt`:
the mask of the ordered one with the select's two values swapped. `one`, `ueq`, `ord`,
`uno`, `true` and `false` have no such spelling and are refused, as is a comparison
whose `i1` is used other than as a select's condition. A select of values of another
float type than the compared ones (f16 scores chosen by a comparison of f32 positions)
gets the mask converted to its type first (1.0 and 0.0 are exact in each).

On tensors, `select-compare-to-generic` has already made each select of a comparison one
generic, so the `i1` never leaves a body.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from spyre_sched.dialects import spyreop
from spyre_sched.normalize.common import kernel_of
from spyre_sched.schedule.common import fail

NAME = "compare-to-mask"

CMPF_PREDICATES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                   "uge", "ult", "ule", "une", "uno", "true")

#: arith.cmpf predicate -> (device comparison, whether the select's values swap)
MASKS = {
    "oeq": ("equal", False), "ogt": ("greaterthan", False), "oge": ("greaterequal", False),
    "olt": ("lesserthan", False), "ole": ("lesserequal", False), "une": ("notequal", False),
    "ugt": ("lesserequal", True), "uge": ("lesserthan", True),
    "ult": ("greaterequal", True), "ule": ("greaterthan", True),
}


def predicate_name(cmp: Operation) -> str:
    return CMPF_PREDICATES[cmp.properties["predicate"].value.data]  # type: ignore[attr-defined]


def _is_select(op: Operation) -> bool:
    return op.name == "arith.select"  # (the kernel parser has its own arith.select class)


def _selects_of(cmp: Operation) -> list[Operation]:
    users = [use.operation for use in cmp.results[0].uses]
    for user in users:
        if not _is_select(user) or user.operands[0] is not cmp.results[0] \
                or cmp.results[0] in user.operands[1:]:
            raise fail(cmp, NAME, f"not supported yet: the result of {cmp.name} used other "
                       f"than as the condition of arith.select (by {user.name})")
    return users


def _width(t) -> int | None:
    """Bits of a float type the vector unit holds (None: not a plain float type)."""
    return {"f16": 16, "bf16": 16, "f32": 32}.get(str(t))


def _body_compare(cmp: Operation) -> None:
    """Rewrite one scalar cmpf of a compute body and the selects it drives."""
    pred = predicate_name(cmp)
    if pred not in MASKS:
        raise fail(cmp, NAME, f"not supported yet: arith.cmpf {pred} choosing between values "
                   f"(the device compares with {', '.join(sorted(MASKS))})")
    device_pred, swap = MASKS[pred]
    compared = cmp.operands[0].type
    selects = _selects_of(cmp)
    for select in selects:
        chosen_type = select.results[0].type
        if chosen_type != compared and (_width(chosen_type) is None or _width(compared) is None):
            raise fail(select, NAME, f"not supported yet: a select of {chosen_type} "
                       f"values by a comparison of {compared} values")
    block = cmp.parent_block()
    assert block is not None
    mask = spyreop.CompareOp(device_pred, cmp.operands[0], cmp.operands[1])
    block.insert_op_before(mask, cmp)
    # a mask of 1.0 / 0.0 is exact in every float type: one selecting values of another
    # type (f16 scores chosen by f32 positions) is converted to it first
    masks = {compared: mask.result}
    for select in selects:
        on_true, on_false = select.operands[1], select.operands[2]
        if swap:
            on_true, on_false = on_false, on_true
        chosen_type = select.results[0].type
        if chosen_type not in masks:
            convert = (arith.TruncFOp if _width(chosen_type) < _width(compared)  # type: ignore[operator]
                       else arith.ExtFOp)(mask.result, chosen_type)
            block.insert_op_after(convert, mask)
            masks[chosen_type] = convert.result
        chosen = spyreop.SelectOp(masks[chosen_type], on_true, on_false)
        select_block = select.parent_block()
        assert select_block is not None
        select_block.insert_op_before(chosen, select)
        select.results[0].replace_all_uses_with(chosen.result)
        select_block.erase_op(select)
    block.erase_op(cmp)


@dataclass(frozen=True)
class CompareToMask(ModulePass):
    """cmpf + select in compute bodies -> spyreop.compare + spyreop.select."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for generic in [g for g in fn.walk() if isinstance(g, GenericOp)]:
                for inner in list(generic.body.block.ops):
                    if inner.name == "arith.cmpf":
                        _body_compare(inner)
