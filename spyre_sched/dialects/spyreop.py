"""The `spyreop` dialect: the accelerator's scalar intrinsics, as xDSL IRDL definitions.

These ops appear inside `linalg.generic` bodies exactly like `arith`/`math` ops: they are
pure, take scalars and return scalars. Floating-point ops work on one type T out of
`f16`, `f32` and `!spyreop.df16`; every operand and result has that same T unless the op
says otherwise (the fused normalisation ops, which pack a (mean, mean-of-squares) pair
into one value of a `*_fused` type). `slice_reduction` is the one tensor op: it reduces
one 64-wide stick (128 bytes).

Simple ops (`_UnaryFloatOp`, `_BinaryFloatOp`, `select`) are the template for new
dialects: a declarative `assembly_format` and IRDL constraint variables for "same type".
The float-kind rule stays in `verify_` so that its message reads like MLIR's ("operand #0
must be f16, f32 or !spyreop.df16, but got i32"); ops with keywords, literals or enums in
their syntax keep hand-written parse/print.
"""

from __future__ import annotations

import math
from abc import ABC
from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    FixedBitwidthType,
    Float16Type,
    Float32Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    f32,
    i32,
    i64,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    Operation,
    ParametrizedAttribute,
    SSAValue,
)
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    VarConstraint,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from xdsl.utils.str_enum import StrEnum

from spyre_sched.xdsl_compat import current_token

# ---------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------


@irdl_attr_definition
class DF16Type(ParametrizedAttribute, FixedBitwidthType):
    """DLFloat16: 1 sign, 6 exponent, 9 mantissa bits. Written `!spyreop.df16`."""

    name = "spyreop.df16"

    @property
    def bitwidth(self) -> int:
        return 16

    @property
    def compile_time_size(self) -> int:
        return 2


class _FusedPairType(ParametrizedAttribute, FixedBitwidthType, ABC):
    """A (mean, mean-of-squares) pair of `element_type` values packed in one value."""

    ELEMENT_BITS: ClassVar[int]

    @property
    def bitwidth(self) -> int:
        return 2 * self.ELEMENT_BITS

    @property
    def compile_time_size(self) -> int:
        return self.bitwidth // 8

    @property
    def element_type(self) -> Attribute:
        return FUSED_TO_ELEMENT[type(self)]


@irdl_attr_definition
class FP16FusedType(_FusedPairType):
    name = "spyreop.fp16_fused"
    ELEMENT_BITS = 16


@irdl_attr_definition
class DF16FusedType(_FusedPairType):
    name = "spyreop.df16_fused"
    ELEMENT_BITS = 16


@irdl_attr_definition
class FP32FusedType(_FusedPairType):
    name = "spyreop.fp32_fused"
    ELEMENT_BITS = 32


df16 = DF16Type()
fp16_fused = FP16FusedType()
df16_fused = DF16FusedType()
fp32_fused = FP32FusedType()

FUSED_TO_ELEMENT: dict[type[_FusedPairType], Attribute] = {
    FP16FusedType: Float16Type(),
    DF16FusedType: df16,
    FP32FusedType: f32,
}


def fused_type_for(element_type: Attribute) -> _FusedPairType:
    """The pair type that packs two values of `element_type` (which must be a spyre float)."""
    if isinstance(element_type, Float16Type):
        return fp16_fused
    if isinstance(element_type, DF16Type):
        return df16_fused
    if isinstance(element_type, Float32Type):
        return fp32_fused
    raise ValueError(f"no fused pair type for {element_type}")


FLOAT_TYPES_TEXT = "f16, f32 or !spyreop.df16"
FUSED_TYPES_TEXT = "!spyreop.fp16_fused, !spyreop.df16_fused or !spyreop.fp32_fused"


def is_spyre_float(type_: Attribute) -> bool:
    return isinstance(type_, Float16Type | Float32Type | DF16Type)


def stick_elements(element_type: Attribute) -> int:
    """Elements in one 128-byte stick: 64 for the 16-bit types, 32 for f32."""
    return 32 if isinstance(element_type, Float32Type) else 64


# ---------------------------------------------------------------------------------------
# Enum attributes
# ---------------------------------------------------------------------------------------


class ComparePredicate(StrEnum):
    EQUAL = "equal"
    NOTEQUAL = "notequal"
    GREATERTHAN = "greaterthan"
    GREATEREQUAL = "greaterequal"
    LESSERTHAN = "lesserthan"
    LESSEREQUAL = "lesserequal"


class ReductionKind(StrEnum):
    ADD = "add"
    SUB = "sub"
    MAX = "max"
    MIN = "min"
    MUL = "mul"
    ABS_MAX = "abs_max"


class ReductionScope(StrEnum):
    IN_SLICE = "in_slice"
    ACROSS_SLICE = "across_slice"


class _AngleBracketEnum:
    """Writes the enum value in angle brackets: `#spyreop.reduction_kind<add>`."""

    @classmethod
    def parse_parameter(cls, parser: AttrParser):
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # type: ignore[misc]

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)  # type: ignore[misc]


@irdl_attr_definition
class ComparePredicateAttr(_AngleBracketEnum, EnumAttribute[ComparePredicate]):
    """`#spyreop.compare_predicate<greaterthan>`; the op syntax writes just `<greaterthan>`."""

    name = "spyreop.compare_predicate"


@irdl_attr_definition
class ReductionKindAttr(_AngleBracketEnum, EnumAttribute[ReductionKind]):
    name = "spyreop.reduction_kind"


@irdl_attr_definition
class ReductionScopeAttr(_AngleBracketEnum, EnumAttribute[ReductionScope]):
    name = "spyreop.reduction_scope"


# ---------------------------------------------------------------------------------------
# Shared parsing, printing and checking helpers
# ---------------------------------------------------------------------------------------


def _check_float(type_: Attribute, what: str) -> None:
    if not is_spyre_float(type_):
        raise VerifyException(f"{what} must be {FLOAT_TYPES_TEXT}, but got {type_}")


def _check_exact(type_: Attribute, expected: Attribute, what: str) -> None:
    if type_ != expected:
        raise VerifyException(f"{what} must be {expected}, but got {type_}")


def _parse_attrs_then_type(parser: Parser) -> tuple[dict[str, Attribute], Attribute]:
    """` attr-dict? : type`"""
    attrs = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    return attrs, parser.parse_type()


def _print_attrs_then_type(printer: Printer, op: Operation, type_: Attribute) -> None:
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(type_)


def _print_operand_list(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string(" ")
    printer.print_list(values, printer.print_operand)


def _parse_f32_literal(parser: Parser, what: str) -> FloatAttr:
    """A float written as MLIR prints f32 attributes: `2.000000e-01`, `1.5`, `3`, `-1.0`,
    or a `0x7F800000` bit pattern (how MLIR writes inf and nan)."""
    if current_token(parser).text[:2] in ("0x", "0X"):
        bits = parser.parse_integer(allow_boolean=False, allow_negative=False)
        if bits.bit_length() > 32:
            parser.raise_error(f"hexadecimal {what} does not fit the 32 bits of an f32")
        return FloatAttr(next(f32.iter_unpack(bits.to_bytes(4, "little"))), f32)
    value = parser.parse_number(context_msg=f" for {what}")
    return FloatAttr(float(value), f32)


def _print_f32_literal(printer: Printer, attr: FloatAttr) -> None:
    value = attr.value.data
    if math.isfinite(value):
        printer.print_float(value, f32)
    else:
        # inf and nan as their bit pattern, in MLIR's upper-case spelling.
        bits = int.from_bytes(f32.pack((value,)), "little")
        printer.print_string(f"0x{bits:08X}")


class _SpyreOp(IRDLOperation, ABC):
    traits = traits_def(Pure())


class _SameFloatTypeOp(_SpyreOp, ABC):
    """Every operand and result has one type T in {f16, f32, !spyreop.df16}."""

    def verify_(self) -> None:
        for index, operand in enumerate(self.operands):
            _check_float(operand.type, f"operand #{index}")
        expected = self.operands[0].type
        for index, operand in enumerate(self.operands[1:], start=1):
            if operand.type != expected:
                raise VerifyException(
                    f"operand #{index} must have the type of operand #0 ({expected}), "
                    f"but got {operand.type}"
                )
        for index, result in enumerate(self.results):
            if result.type != expected:
                raise VerifyException(
                    f"result #{index} must have the operand type {expected}, "
                    f"but got {result.type}"
                )


# ---------------------------------------------------------------------------------------
# Float elementwise ops
# ---------------------------------------------------------------------------------------


SAME_TYPE = "T (the one type of every operand and the result)"
"""The constraint variable of ops whose operands and result share one type; xDSL's
messages name it: "attribute f16 expected from variable 'T (...)', but got f32"."""


class _UnaryFloatOp(_SameFloatTypeOp, ABC):
    """`%r = spyreop.<name> %x : T`

    The template for simple ops: a declarative `assembly_format`, and the "same type"
    rule as an IRDL constraint variable `T` (which also gives the result type when
    parsing); only the rule xDSL has no constraint message for (T is one of three float
    types) stays in `verify_`."""

    T: ClassVar = VarConstraint(SAME_TYPE, AnyAttr())
    input = operand_def(T)
    result = result_def(T)

    assembly_format = "$input attr-dict `:` type($input)"

    def __init__(
        self, input: SSAValue | Operation, attributes: Mapping[str, Attribute] | None = None
    ):
        super().__init__(
            operands=[input],
            result_types=[SSAValue.get(input).type],
            attributes=dict(attributes or {}),
        )


@irdl_op_definition
class ExpOp(_UnaryFloatOp):
    name = "spyreop.exp"


@irdl_op_definition
class GeluOp(_UnaryFloatOp):
    name = "spyreop.gelu"


@irdl_op_definition
class SigmoidOp(_UnaryFloatOp):
    name = "spyreop.sigmoid"


@irdl_op_definition
class SiluOp(_UnaryFloatOp):
    name = "spyreop.silu"


@irdl_op_definition
class SqrtOp(_UnaryFloatOp):
    name = "spyreop.sqrt"


@irdl_op_definition
class RsqrtOp(_UnaryFloatOp):
    name = "spyreop.rsqrt"


@irdl_op_definition
class ReciprocalOp(_UnaryFloatOp):
    name = "spyreop.reciprocal"


@irdl_op_definition
class SoftplusOp(_SameFloatTypeOp):
    """`%r = spyreop.softplus %x beta B threshold T : T`: log(1 + exp(beta·x)) / beta,
    and x itself where beta·x > threshold (the PyTorch definition)."""

    name = "spyreop.softplus"

    input = operand_def()
    result = result_def()
    beta = prop_def(FloatAttr[Float32Type])
    threshold = prop_def(FloatAttr[Float32Type])

    def __init__(
        self,
        input: SSAValue | Operation,
        beta: float | FloatAttr,
        threshold: float | FloatAttr,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if not isinstance(beta, FloatAttr):
            beta = FloatAttr(beta, f32)
        if not isinstance(threshold, FloatAttr):
            threshold = FloatAttr(threshold, f32)
        super().__init__(
            operands=[input],
            result_types=[SSAValue.get(input).type],
            properties={"beta": beta, "threshold": threshold},
            attributes=dict(attributes or {}),
        )

    @classmethod
    def parse(cls, parser: Parser):
        input = parser.parse_unresolved_operand()
        parser.parse_keyword("beta")
        beta = _parse_f32_literal(parser, "beta")
        parser.parse_keyword("threshold")
        threshold = _parse_f32_literal(parser, "threshold")
        attrs, type_ = _parse_attrs_then_type(parser)
        return cls(parser.resolve_operand(input, type_), beta, threshold, attrs)

    def print(self, printer: Printer) -> None:
        _print_operand_list(printer, [self.input])
        printer.print_string(" beta ")
        _print_f32_literal(printer, self.beta)
        printer.print_string(" threshold ")
        _print_f32_literal(printer, self.threshold)
        _print_attrs_then_type(printer, self, self.input.type)

    def verify_(self) -> None:
        super().verify_()
        if self.beta.value.data == 0.0:
            raise VerifyException("softplus beta must be non-zero (it divides the result)")


class _BinaryFloatOp(_SameFloatTypeOp, ABC):
    """`%r = spyreop.<name> %a, %b : T` (declarative, like `_UnaryFloatOp`)."""

    T: ClassVar = VarConstraint(SAME_TYPE, AnyAttr())
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($lhs)"

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[SSAValue.get(lhs).type],
            attributes=dict(attributes or {}),
        )


@irdl_op_definition
class RealDivOp(_BinaryFloatOp):
    """`%r = spyreop.realdiv %a, %b : T`: a / b."""

    name = "spyreop.realdiv"


@irdl_op_definition
class CompareOp(_SameFloatTypeOp):
    """`%r = spyreop.compare <pred> %a, %b : T`: 1.0 where `a pred b` holds, else 0.0."""

    name = "spyreop.compare"

    lhs = operand_def()
    rhs = operand_def()
    result = result_def()
    predicate = prop_def(ComparePredicateAttr)

    def __init__(
        self,
        predicate: ComparePredicate | ComparePredicateAttr | str,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if not isinstance(predicate, ComparePredicateAttr):
            predicate = ComparePredicateAttr(ComparePredicate(predicate))
        super().__init__(
            operands=[lhs, rhs],
            result_types=[SSAValue.get(lhs).type],
            properties={"predicate": predicate},
            attributes=dict(attributes or {}),
        )

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("<")
        predicate = parser.parse_str_enum(ComparePredicate)
        parser.parse_punctuation(">")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs, type_ = _parse_attrs_then_type(parser)
        lhs_value, rhs_value = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        return cls(predicate, lhs_value, rhs_value, attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" <{self.predicate.data.value}>")
        _print_operand_list(printer, [self.lhs, self.rhs])
        _print_attrs_then_type(printer, self, self.lhs.type)


@irdl_op_definition
class SelectOp(_SameFloatTypeOp):
    """`%r = spyreop.select %c, %t, %f : T`: t where c ≠ 0, else f."""

    name = "spyreop.select"

    T: ClassVar = VarConstraint(SAME_TYPE, AnyAttr())
    condition = operand_def(T)
    true_value = operand_def(T)
    false_value = operand_def(T)
    result = result_def(T)

    assembly_format = "$condition `,` $true_value `,` $false_value attr-dict `:` type($result)"

    def __init__(
        self,
        condition: SSAValue | Operation,
        true_value: SSAValue | Operation,
        false_value: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[condition, true_value, false_value],
            result_types=[SSAValue.get(true_value).type],
            attributes=dict(attributes or {}),
        )


# ---------------------------------------------------------------------------------------
# Normalisation building blocks
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class Exx2Op(_SameFloatTypeOp):
    """`%m, %sq = spyreop.exx2 %x : T`: running mean E[x] and mean of squares E[x²]."""

    name = "spyreop.exx2"

    input = operand_def()
    mean = result_def()
    squares = result_def()

    def __init__(
        self, input: SSAValue | Operation, attributes: Mapping[str, Attribute] | None = None
    ):
        type_ = SSAValue.get(input).type
        super().__init__(
            operands=[input], result_types=[type_, type_], attributes=dict(attributes or {})
        )

    @classmethod
    def parse(cls, parser: Parser):
        input = parser.parse_unresolved_operand()
        attrs, type_ = _parse_attrs_then_type(parser)
        return cls(parser.resolve_operand(input, type_), attrs)

    def print(self, printer: Printer) -> None:
        _print_operand_list(printer, [self.input])
        _print_attrs_then_type(printer, self, self.input.type)


@irdl_op_definition
class Exx2FusedOp(_SpyreOp):
    """`%p = spyreop.exx2_fused %x : T -> !spyreop.<t>_fused`: exx2 with both results
    packed into one pair value (f16 -> fp16_fused, df16 -> df16_fused, f32 -> fp32_fused)."""

    name = "spyreop.exx2_fused"

    input = operand_def()
    result = result_def()

    def __init__(
        self,
        input: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if result_type is None:
            result_type = fused_type_for(SSAValue.get(input).type)
        super().__init__(
            operands=[input], result_types=[result_type], attributes=dict(attributes or {})
        )

    @classmethod
    def parse(cls, parser: Parser):
        input = parser.parse_unresolved_operand()
        attrs, input_type = _parse_attrs_then_type(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls(parser.resolve_operand(input, input_type), result_type, attrs)

    def print(self, printer: Printer) -> None:
        _print_operand_list(printer, [self.input])
        _print_attrs_then_type(printer, self, self.input.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        _check_float(self.input.type, "operand #0")
        _check_exact(
            self.result.type,
            fused_type_for(self.input.type),
            f"result type for a {self.input.type} operand",
        )


@irdl_op_definition
class LayerNormScaleOp(_SameFloatTypeOp):
    """`%r = spyreop.layernormscale %m squares %sq : T`: the normalisation scale computed
    from the mean (`mean`) and the mean of squares (`squares`) that exx2 produced."""

    name = "spyreop.layernormscale"

    mean = operand_def()
    squares = operand_def()
    result = result_def()

    def __init__(
        self,
        mean: SSAValue | Operation,
        squares: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[mean, squares],
            result_types=[SSAValue.get(mean).type],
            attributes=dict(attributes or {}),
        )

    @classmethod
    def parse(cls, parser: Parser):
        mean = parser.parse_unresolved_operand()
        parser.parse_keyword("squares")
        squares = parser.parse_unresolved_operand()
        attrs, type_ = _parse_attrs_then_type(parser)
        values = parser.resolve_operands([mean, squares], [type_, type_], parser.pos)
        return cls(*values, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_operand_list(printer, [self.mean])
        printer.print_string(" squares ")
        printer.print_operand(self.squares)
        _print_attrs_then_type(printer, self, self.mean.type)


@irdl_op_definition
class LayerNormScaleFusedOp(_SpyreOp):
    """`%r = spyreop.layernormscale_fused %p : !spyreop.<t>_fused -> T`: layernormscale
    reading both inputs from one pair value (fp16_fused -> f16, and so on)."""

    name = "spyreop.layernormscale_fused"

    input = operand_def()
    result = result_def()

    def __init__(
        self,
        input: SSAValue | Operation,
        result_type: Attribute | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        if result_type is None:
            pair = SSAValue.get(input).type
            if not isinstance(pair, _FusedPairType):
                raise ValueError(f"layernormscale_fused needs a fused pair, got {pair}")
            result_type = pair.element_type
        super().__init__(
            operands=[input], result_types=[result_type], attributes=dict(attributes or {})
        )

    @classmethod
    def parse(cls, parser: Parser):
        input = parser.parse_unresolved_operand()
        attrs, input_type = _parse_attrs_then_type(parser)
        parser.parse_punctuation("->")
        result_type = parser.parse_type()
        return cls(parser.resolve_operand(input, input_type), result_type, attrs)

    def print(self, printer: Printer) -> None:
        _print_operand_list(printer, [self.input])
        _print_attrs_then_type(printer, self, self.input.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        pair = self.input.type
        if not isinstance(pair, _FusedPairType):
            raise VerifyException(f"operand #0 must be {FUSED_TYPES_TEXT}, but got {pair}")
        _check_exact(self.result.type, pair.element_type, f"result type for a {pair} operand")


@irdl_op_definition
class LayerNormNormOp(_SameFloatTypeOp):
    """`%r = spyreop.layernormnorm %x squares %sq scale %s weight %w bias %b : T`:
    the normalised output; operands are named after the keywords that introduce them."""

    name = "spyreop.layernormnorm"

    input = operand_def()
    squares = operand_def()
    scale = operand_def()
    weight = operand_def()
    bias = operand_def()
    result = result_def()

    KEYWORDS: ClassVar[tuple[str, ...]] = ("squares", "scale", "weight", "bias")

    def __init__(
        self,
        input: SSAValue | Operation,
        squares: SSAValue | Operation,
        scale: SSAValue | Operation,
        weight: SSAValue | Operation,
        bias: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[input, squares, scale, weight, bias],
            result_types=[SSAValue.get(input).type],
            attributes=dict(attributes or {}),
        )

    @classmethod
    def parse(cls, parser: Parser):
        names = [parser.parse_unresolved_operand()]
        for keyword in cls.KEYWORDS:
            parser.parse_keyword(keyword)
            names.append(parser.parse_unresolved_operand())
        attrs, type_ = _parse_attrs_then_type(parser)
        values = parser.resolve_operands(names, [type_] * len(names), parser.pos)
        return cls(*values, attributes=attrs)

    def print(self, printer: Printer) -> None:
        _print_operand_list(printer, [self.input])
        for keyword, value in zip(
            self.KEYWORDS, (self.squares, self.scale, self.weight, self.bias), strict=True
        ):
            printer.print_string(f" {keyword} ")
            printer.print_operand(value)
        _print_attrs_then_type(printer, self, self.input.type)


# ---------------------------------------------------------------------------------------
# Integer and address arithmetic
# ---------------------------------------------------------------------------------------


class _FixedIntBinaryOp(_SpyreOp, ABC):
    """`%r = spyreop.<name> %a, %b`: the type is in the op name, so none is written."""

    INT_TYPE: ClassVar[IntegerType]

    lhs = operand_def()
    rhs = operand_def()
    result = result_def()

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[self.INT_TYPE],
            attributes=dict(attributes or {}),
        )

    @classmethod
    def parse(cls, parser: Parser):
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        lhs_value, rhs_value = parser.resolve_operands(
            [lhs, rhs], [cls.INT_TYPE, cls.INT_TYPE], parser.pos
        )
        return cls(lhs_value, rhs_value, attrs)

    def print(self, printer: Printer) -> None:
        _print_operand_list(printer, [self.lhs, self.rhs])
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        for index, operand in enumerate(self.operands):
            _check_exact(operand.type, self.INT_TYPE, f"operand #{index}")
        _check_exact(self.result.type, self.INT_TYPE, "result #0")


@irdl_op_definition
class AddI32ToI32Op(_FixedIntBinaryOp):
    """a + b on i32, wrapping."""

    name = "spyreop.addi32toi32"
    INT_TYPE: ClassVar[IntegerType] = i32


@irdl_op_definition
class AddI64ToI64Op(_FixedIntBinaryOp):
    """a + b on i64, wrapping."""

    name = "spyreop.addi64toi64"
    INT_TYPE: ClassVar[IntegerType] = i64


@irdl_op_definition
class MulI32ToI32Op(_FixedIntBinaryOp):
    """a · b on i32, wrapping."""

    name = "spyreop.muli32toi32"
    INT_TYPE: ClassVar[IntegerType] = i32


@irdl_op_definition
class Idx32ToAddrOp(_SpyreOp):
    """`%r = spyreop.idx32toaddr %i base B stride S`: B + S·i, all i32.

    B and S are each either an i32 SSA value (`base`/`stride` operands) or an integer
    literal (`base_imm`/`stride_imm` properties); exactly one of each pair is set, and
    the op prints back in the form it was written.
    """

    name = "spyreop.idx32toaddr"

    index = operand_def()
    base = opt_operand_def()
    stride = opt_operand_def()
    result = result_def()
    base_imm = opt_prop_def(IntegerAttr)
    stride_imm = opt_prop_def(IntegerAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        index: SSAValue | Operation,
        base: SSAValue | Operation | int,
        stride: SSAValue | Operation | int,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        properties: dict[str, Attribute] = {}
        base_operands: list[SSAValue | Operation] = []
        stride_operands: list[SSAValue | Operation] = []
        if isinstance(base, int):
            properties["base_imm"] = IntegerAttr(base, i32)
        else:
            base_operands.append(base)
        if isinstance(stride, int):
            properties["stride_imm"] = IntegerAttr(stride, i32)
        else:
            stride_operands.append(stride)
        super().__init__(
            operands=[[index], base_operands, stride_operands],
            result_types=[i32],
            properties=properties,
            attributes=dict(attributes or {}),
        )

    @classmethod
    def _parse_value_or_literal(cls, parser: Parser, keyword: str) -> SSAValue | int:
        parser.parse_keyword(keyword)
        if (name := parser.parse_optional_unresolved_operand()) is not None:
            return parser.resolve_operand(name, i32)
        pos = parser.pos
        value = parser.parse_integer(
            allow_boolean=False, context_msg=f" or SSA value for {keyword}"
        )
        if not -(2**31) <= value < 2**31:
            parser.raise_error(f"{keyword} {value} does not fit in i32", pos, parser.pos)
        return value

    @classmethod
    def parse(cls, parser: Parser):
        index = parser.parse_operand(i32)
        base = cls._parse_value_or_literal(parser, "base")
        stride = cls._parse_value_or_literal(parser, "stride")
        attrs = parser.parse_optional_attr_dict()
        return cls(index, base, stride, attrs)

    @staticmethod
    def _print_value_or_literal(
        printer: Printer, keyword: str, value: SSAValue | None, literal: IntegerAttr | None
    ) -> None:
        printer.print_string(f" {keyword} ")
        if value is not None:
            printer.print_operand(value)
        elif literal is not None:
            printer.print_string(str(literal.value.data))

    def print(self, printer: Printer) -> None:
        _print_operand_list(printer, [self.index])
        self._print_value_or_literal(printer, "base", self.base, self.base_imm)
        self._print_value_or_literal(printer, "stride", self.stride, self.stride_imm)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _check_exact(self.index.type, i32, "operand #0 (index)")
        for keyword, value, literal in (
            ("base", self.base, self.base_imm),
            ("stride", self.stride, self.stride_imm),
        ):
            if (value is None) == (literal is None):
                raise VerifyException(
                    f"{keyword} must be given exactly once: as an i32 operand "
                    f"or as the {keyword}_imm integer property"
                )
            if value is not None:
                _check_exact(value.type, i32, keyword)
            if literal is not None:
                _check_exact(literal.type, i32, f"{keyword}_imm type")
        _check_exact(self.result.type, i32, "result #0")


# ---------------------------------------------------------------------------------------
# Stick reduction
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class SliceReductionOp(_SpyreOp):
    """`%r = spyreop.slice_reduction %x {reduction_kind = ..., reduction_scope = ...}
    : tensor<...x64xf16> -> tensor<...x64xf16>`.

    Reduces along the innermost dimension, which must be exactly one 128-byte stick:
    64 elements of f16 / df16, 32 of f32. `in_slice` reduces within each stick;
    `across_slice` combines the sticks of the slice. The result has the input's type.
    """

    name = "spyreop.slice_reduction"

    input = operand_def()
    result = result_def()
    reduction_kind = prop_def(ReductionKindAttr)
    reduction_scope = prop_def(ReductionScopeAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$input attr-dict `:` type($input) `->` type($result)"

    def __init__(
        self,
        input: SSAValue | Operation,
        reduction_kind: ReductionKind | ReductionKindAttr | str,
        reduction_scope: ReductionScope | ReductionScopeAttr | str = ReductionScope.IN_SLICE,
        result_type: Attribute | None = None,
    ):
        if not isinstance(reduction_kind, ReductionKindAttr):
            reduction_kind = ReductionKindAttr(ReductionKind(reduction_kind))
        if not isinstance(reduction_scope, ReductionScopeAttr):
            reduction_scope = ReductionScopeAttr(ReductionScope(reduction_scope))
        if result_type is None:
            result_type = SSAValue.get(input).type
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"reduction_kind": reduction_kind, "reduction_scope": reduction_scope},
        )

    def verify_(self) -> None:
        input_type = self.input.type
        if not isinstance(input_type, TensorType) or not input_type.get_shape():
            raise VerifyException(
                f"operand #0 must be a ranked tensor of {FLOAT_TYPES_TEXT}, but got {input_type}"
            )
        _check_float(input_type.element_type, "operand #0 element type")
        if self.result.type != input_type:
            raise VerifyException(
                f"result type must equal the operand type {input_type}, "
                f"but got {self.result.type}"
            )
        stick = stick_elements(input_type.element_type)
        innermost = input_type.get_shape()[-1]
        if innermost != stick:
            raise VerifyException(
                f"innermost dimension must be one stick ({stick} elements of "
                f"{input_type.element_type}), but got {'?' if innermost < 0 else innermost}"
            )


SPYREOP = Dialect(
    "spyreop",
    [
        ExpOp,
        GeluOp,
        SigmoidOp,
        SiluOp,
        SqrtOp,
        RsqrtOp,
        ReciprocalOp,
        SoftplusOp,
        RealDivOp,
        CompareOp,
        SelectOp,
        Exx2Op,
        Exx2FusedOp,
        LayerNormScaleOp,
        LayerNormScaleFusedOp,
        LayerNormNormOp,
        AddI32ToI32Op,
        AddI64ToI64Op,
        MulI32ToI32Op,
        Idx32ToAddrOp,
        SliceReductionOp,
    ],
    [
        DF16Type,
        FP16FusedType,
        DF16FusedType,
        FP32FusedType,
        ComparePredicateAttr,
        ReductionKindAttr,
        ReductionScopeAttr,
    ],
)
