"""The `scf` dialect as KTIR uses it: xDSL 0.75's, with `scf.for` also reading the
result type list of `iter_args` without parentheses when there is one result
(`iter_args(%a = %x) -> tensor<4xf16> {`), which MLIR prints and accepts.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType, SignlessIntegerConstraint
from xdsl.ir import Dialect
from xdsl.irdl import (
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.traits import RecursiveMemoryEffect, SingleBlockImplicitTerminator, ensure_terminator


@irdl_op_definition
class ForOp(scf.ForOp):
    """`scf.for`, printed as xDSL prints it; parsed with both result-type spellings."""

    name = "scf.for"

    T: ClassVar = VarConstraint("T", base(IndexType) | SignlessIntegerConstraint)
    lb = operand_def(T)
    ub = operand_def(T)
    step = operand_def(T)
    iter_args = var_operand_def()
    res = var_result_def()
    body = region_def("single_block")
    traits = traits_def(
        SingleBlockImplicitTerminator(scf.YieldOp),
        scf.ForOpHasCanonicalizationPatternsTrait(),
        RecursiveMemoryEffect(),
    )

    @classmethod
    def parse(cls, parser: Parser) -> ForOp:
        indvar = parser.parse_argument(expect_type=False)
        parser.parse_punctuation("=")
        lb = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        ub = parser.parse_unresolved_operand()
        parser.parse_keyword("step")
        step = parser.parse_unresolved_operand()
        pos = parser.pos
        iter_args, iter_operands, iter_types = [], [], []
        if parser.parse_optional_keyword("iter_args"):

            def assignment():
                arg = parser.parse_argument(expect_type=False)
                parser.parse_punctuation("=")
                return arg, parser.parse_unresolved_operand()

            for arg, operand in parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, assignment
            ):
                iter_args.append(arg)
                iter_operands.append(operand)
            parser.parse_punctuation("->")
            if parser.parse_optional_punctuation("(") is not None:
                iter_types = parser.parse_comma_separated_list(
                    Parser.Delimiter.NONE, parser.parse_type)
                parser.parse_punctuation(")")
            else:
                iter_types = [parser.parse_type()]
            if len(iter_types) != len(iter_operands):
                parser.raise_error(
                    f"scf.for has {len(iter_operands)} iter_args but {len(iter_types)} "
                    "result types")
        operands = parser.resolve_operands(iter_operands, iter_types, pos)
        block_args = [a.resolve(t) for a, t in zip(iter_args, iter_types)]
        index_type = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
        body = parser.parse_region((indvar.resolve(index_type), *block_args))
        attrs = parser.parse_optional_attr_dict()
        op = cls(
            parser.resolve_operand(lb, index_type),
            parser.resolve_operand(ub, index_type),
            parser.resolve_operand(step, index_type),
            operands,
            body,
        )
        op.attributes |= attrs
        if not block_args:
            for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
                ensure_terminator(op, trait)
        return op


def _scf_for_ktir() -> Dialect:
    ops = [op if op.name != ForOp.name else ForOp for op in scf.Scf.operations]
    return Dialect("scf", ops, list(scf.Scf.attributes))


SCF_KTIR = _scf_for_ktir()
