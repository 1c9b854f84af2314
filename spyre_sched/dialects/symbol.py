"""The `symbol` dialect: values that stay symbolic until launch.

A value that depends on the caller's tensors (a start address, a run-time shape) is never
a constant in DataflowIR. The argument-free DataflowIR names it with
`symbol.create_symbol {SymbolId = N}`; one level up, the program's outer function (which
has the kernel's real signature) computes it from the arguments and records it with
`symbol.create_id %value {symbol_id = N}`. The runtime evaluates the table of symbols at
launch (docs/dataflowir.md, docs/bundle.md).
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, IndexType, IntegerAttr
from xdsl.ir import Dialect
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect
from xdsl.utils.exceptions import VerifyException


def _check_id(op: IRDLOperation, value: int) -> None:
    if value < 0:
        raise VerifyException(f"{op.name}: symbol ids are non-negative, got {value}")


@irdl_op_definition
class CreateSymbolOp(IRDLOperation):
    """`%s = symbol.create_symbol {SymbolId = N : i64} : index`: the value of symbol N, set by
    the runtime before the program is launched."""

    name = "symbol.create_symbol"

    symbol_id = prop_def(IntegerAttr[I64], prop_name="SymbolId")
    result = result_def(IndexType)

    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, symbol_id: int):
        super().__init__(
            properties={"SymbolId": IntegerAttr(symbol_id, 64)}, result_types=[IndexType()]
        )

    @property
    def id(self) -> int:
        return self.symbol_id.value.data

    def verify_(self) -> None:
        _check_id(self, self.id)


@irdl_op_definition
class CreateIdOp(IRDLOperation):
    """`symbol.create_id %v {symbol_id = N : i64}`: symbol N is the value `%v`, computed from
    the program's arguments in the outer function."""

    name = "symbol.create_id"

    value = operand_def(IndexType)
    symbol_id = prop_def(IntegerAttr[I64])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$value attr-dict"

    def __init__(self, value, symbol_id: int):
        super().__init__(operands=[value], properties={"symbol_id": IntegerAttr(symbol_id, 64)})

    @property
    def id(self) -> int:
        return self.symbol_id.value.data

    def verify_(self) -> None:
        _check_id(self, self.id)


SYMBOL = Dialect("symbol", [CreateSymbolOp, CreateIdOp], [])

__all__ = ["CreateSymbolOp", "CreateIdOp", "SYMBOL"]
