"""The `arith` dialect as KTIR uses it: xDSL 0.75's, with what MLIR allows on tensors and
Triton-generated KTIR prints, but xDSL 0.75 rejects:

- `arith.cmpi` / `arith.cmpf` on tensors give a tensor of i1 of the operands' shape
  (xDSL 0.75 types every comparison result as a scalar i1);
- `arith.select` takes a condition of the values' shape (`arith.select %m, %a, %b :
  tensor<8xi1>, tensor<8xf16>`), what Triton's `tl.where` lowers to.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ShapedType, TensorType, VectorType
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def _is_i1(attr: Attribute) -> bool:
    return isinstance(attr, IntegerType) and attr.width.data == 1


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`%r = arith.select %c, %a, %b : T` (scalar i1 condition) or
    `: tensor<...xi1>, tensor<...>` (elementwise condition of the values' shape)."""

    name = "arith.select"

    cond = operand_def()
    lhs = operand_def()
    rhs = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand)
        if len(operands) != 3:
            parser.raise_error(f"arith.select takes 3 operands, got {len(operands)}")
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
        if len(types) == 1:
            cond_type, value_type = IntegerType(1), types[0]
        elif len(types) == 2:
            cond_type, value_type = types
        else:
            parser.raise_error("arith.select expects ': T' or ': COND_TYPE, T'")
        cond, lhs, rhs = (parser.resolve_operand(o, t) for o, t in
                          zip(operands, (cond_type, value_type, value_type)))
        op = cls.build(operands=[cond, lhs, rhs], result_types=[value_type])
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if not _is_i1(self.cond.type):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        value_type = self.result.type
        if self.lhs.type != value_type or self.rhs.type != value_type:
            raise VerifyException(
                f"arith.select: both values and the result must have one type, got "
                f"{self.lhs.type}, {self.rhs.type} -> {value_type}")
        cond = self.cond.type
        if _is_i1(cond):
            return
        if not (isinstance(cond, TensorType | VectorType) and _is_i1(cond.element_type)):
            raise VerifyException(
                f"arith.select: the condition must be i1 or a shaped type of i1, got {cond}")
        if not isinstance(value_type, ShapedType) or type(cond) is not type(value_type) or (
            tuple(cond.get_shape()) != tuple(value_type.get_shape())
        ):
            raise VerifyException(
                f"arith.select: a shaped condition {cond} must have the values' shape "
                f"({value_type})")


def i1_like(operand_type: Attribute) -> Attribute:
    """The comparison result type for operands of `operand_type`: i1 of the same shape."""
    if isinstance(operand_type, TensorType):
        return TensorType(IntegerType(1), operand_type.get_shape())
    if isinstance(operand_type, VectorType):
        return VectorType(IntegerType(1), operand_type.get_shape())
    return IntegerType(1)


def _shaped_result(op: IRDLOperation) -> None:
    # xDSL's constructors type the result as a scalar i1; MLIR's rule is i1 of the
    # operands' shape. The result has no uses yet, so its type can still be set.
    op.results[0]._type = i1_like(op.operands[0].type)  # noqa: SLF001


def _verify_comparison_result(op: CmpiOp | CmpfOp) -> None:
    """A comparison gives i1 of its operands' shape (a scalar i1 for scalars)."""
    if op.result.type != i1_like(op.lhs.type):
        raise VerifyException(
            f"{op.name}: operands {op.lhs.type} give {i1_like(op.lhs.type)}, "
            f"not {op.result.type}")


@irdl_op_definition
class CmpiOp(arith.CmpiOp):
    name = "arith.cmpi"
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(arith.signlessIntegerLike)
    rhs = operand_def(arith.signlessIntegerLike)
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _shaped_result(self)

    def verify_(self) -> None:
        _verify_comparison_result(self)


@irdl_op_definition
class CmpfOp(arith.CmpfOp):
    name = "arith.cmpf"
    predicate = prop_def(IntegerAttr)
    lhs = operand_def(arith.floatingPointLike)
    rhs = operand_def(arith.floatingPointLike)
    fastmath = prop_def(arith.FastMathFlagsAttr, default_value=arith.FastMathFlagsAttr("none"))
    result = result_def()
    traits = traits_def(Pure())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _shaped_result(self)

    def verify_(self) -> None:
        _verify_comparison_result(self)


_REPLACED = {op.name: op for op in (SelectOp, CmpiOp, CmpfOp)}


def _arith_for_ktir() -> Dialect:
    ops = [_REPLACED.get(op.name, op) for op in arith.Arith.operations]
    return Dialect("arith", ops, list(arith.Arith.attributes))


ARITH_KTIR = _arith_for_ktir()
