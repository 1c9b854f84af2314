"""The `vectorchain` dialect: compute on a vector unit, whole vectors at a time.

Values are builtin vectors (`vector<K x N x T>`: K sticks of N lanes, or any static shape);
one op applies its scalar semantics to every element. The scalar semantics are those of the
shared numerics table (`emulator.numerics.apply_op`), named per op below, so the reference
interpreter and the device emulator round identically. Exact semantics and timing
(elements / SIMD lanes + latency): docs/dataflowir.md.
"""

from __future__ import annotations

import math
from typing import ClassVar

from xdsl.dialects.builtin import DenseArrayBase, IndexType, StringAttr, VectorType, i64
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import (
    BaseAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.vector_types import static_vector

FLOAT_TYPES = ("f16", "f32", "bf16", "f64", "!spyreop.df16")
REDUCTION_KINDS = ("add", "mul", "max", "min", "maxnum", "minnum", "maxu", "minu", "and", "or", "xor")


def _is_float(element: Attribute) -> bool:
    return str(element) in FLOAT_TYPES


# Binary op -> the numerics table's scalar op for (float, integer) element types.
SCALAR_OPS = {
    "vectorchain.add": ("arith.addf", "arith.addi"),
    "vectorchain.sub": ("arith.subf", "arith.subi"),
    "vectorchain.mul": ("arith.mulf", "arith.muli"),
    "vectorchain.div": ("arith.divf", "arith.divsi"),
    "vectorchain.max": ("arith.maximumf", "arith.maxsi"),
    "vectorchain.min": ("arith.minimumf", "arith.minsi"),
}


class BinaryOp(IRDLOperation):
    """`%r = vectorchain.<op> %a, %b : vector<...>`: elementwise, same types throughout."""

    T: ClassVar = VarConstraint("T", BaseAttr(VectorType))
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"

    def __init__(self, lhs, rhs):
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])

    def scalar_op(self) -> str:
        """The numerics table's name for this op on the operands' element type."""
        element = self.result.type.element_type  # type: ignore[attr-defined]
        float_op, int_op = SCALAR_OPS[self.name]
        return float_op if _is_float(element) else int_op

    def verify_(self) -> None:
        static_vector(self, self.result.type, "the result")


@irdl_op_definition
class AddOp(BinaryOp):
    name = "vectorchain.add"


@irdl_op_definition
class SubOp(BinaryOp):
    name = "vectorchain.sub"


@irdl_op_definition
class MulOp(BinaryOp):
    name = "vectorchain.mul"


@irdl_op_definition
class DivOp(BinaryOp):
    name = "vectorchain.div"


@irdl_op_definition
class MaxOp(BinaryOp):
    name = "vectorchain.max"


@irdl_op_definition
class MinOp(BinaryOp):
    name = "vectorchain.min"


@irdl_op_definition
class ApplyOp(IRDLOperation):
    """`%r = vectorchain.apply "spyreop.gelu"(%a, ...) {attrs} : (vector<...>, ...) -> vector<...>`:
    any elementwise op of the numerics table (an intrinsic of the device's instruction
    sequence, a cast, a compare); extra attributes are the op's attributes."""

    name = "vectorchain.apply"

    fn = prop_def(StringAttr)
    inputs = var_operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    assembly_format = "$fn `(` $inputs `)` attr-dict `:` functional-type($inputs, $result)"

    def __init__(self, fn: str, inputs, result_type: VectorType, attributes: dict | None = None):
        super().__init__(
            operands=[inputs],
            properties={"fn": StringAttr(fn)},
            result_types=[result_type],
            attributes=attributes or {},
        )

    def verify_(self) -> None:
        result = static_vector(self, self.result.type, "the result")
        if "." not in self.fn.data:
            raise VerifyException(
                f"vectorchain.apply: '{self.fn.data}' must be a full op name such as 'math.exp'"
            )
        if not self.inputs:
            raise VerifyException("vectorchain.apply: needs at least one input")
        for value in self.inputs:
            t = static_vector(self, value.type, "every input")
            if tuple(t.get_shape()) != tuple(result.get_shape()):
                raise VerifyException(
                    f"vectorchain.apply: input shape {list(t.get_shape())} differs from the "
                    f"result's {list(result.get_shape())}"
                )


@irdl_op_definition
class ConstantBitstreamOp(IRDLOperation):
    """`%c = vectorchain.constant_bitstream "3c00" : vector<1xf16>`: a constant given as the
    bit patterns of its elements, row-major, each as bitwidth/4 hex digits (most significant
    first), concatenated."""

    name = "vectorchain.constant_bitstream"

    bits = prop_def(StringAttr)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    assembly_format = "$bits attr-dict `:` type($result)"

    def __init__(self, bits: str, type_: VectorType):
        super().__init__(properties={"bits": StringAttr(bits)}, result_types=[type_])

    def verify_(self) -> None:
        t = static_vector(self, self.result.type, "the result")
        width = getattr(t.element_type, "bitwidth", None)
        if width is None:
            width = 16 if "df16" in str(t.element_type) else None
        if width is None or width % 4:
            raise VerifyException(f"vectorchain.constant_bitstream: no bit layout for {t.element_type}")
        digits = self.bits.data
        if len(digits) != t.element_count() * (width // 4) or any(c not in "0123456789abcdef" for c in digits):
            raise VerifyException(
                f"vectorchain.constant_bitstream: needs {t.element_count() * (width // 4)} lowercase hex "
                f"digits for {t}, got {len(digits)}"
            )


@irdl_op_definition
class SplatBitsOp(IRDLOperation):
    """`%v = vectorchain.splat_bits %bits : vector<1xf16>`: a vector whose every element has
    the bit pattern held in the index value `%bits` (its low bitwidth bits): how a scalar
    known only at launch (a float argument, passed as its bits in a symbol) enters compute,
    as `constant_bitstream` does for a constant."""

    name = "vectorchain.splat_bits"

    bits = operand_def(IndexType)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    assembly_format = "$bits attr-dict `:` type($result)"

    def __init__(self, bits, type_: VectorType):
        super().__init__(operands=[bits], result_types=[type_])

    def verify_(self) -> None:
        t = static_vector(self, self.result.type, "the result")
        if getattr(t.element_type, "bitwidth", None) is None and "df16" not in str(t.element_type):
            raise VerifyException(f"vectorchain.splat_bits: no bit layout for {t.element_type}")


@irdl_op_definition
class ShuffleOp(IRDLOperation):
    """`%r = vectorchain.shuffle %src {pattern = array<i64: p0, ...>} : vector<A> -> vector<B>`:
    result.flat[j] = src.flat[pattern[j mod len(pattern)]]; `pattern = [0]` is a splat."""

    name = "vectorchain.shuffle"

    source = operand_def(VectorType)
    pattern = prop_def(DenseArrayBase)
    result = result_def(VectorType)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source, pattern: list[int], result_type: VectorType):
        super().__init__(
            operands=[source],
            properties={"pattern": DenseArrayBase.from_list(i64, pattern)},
            result_types=[result_type],
        )

    @property
    def pattern_list(self) -> tuple[int, ...]:
        return tuple(int(p) for p in self.pattern.get_values())

    def verify_(self) -> None:
        src = static_vector(self, self.source.type, "the source")
        res = static_vector(self, self.result.type, "the result")
        if src.element_type != res.element_type:
            raise VerifyException("vectorchain.shuffle: source and result element types differ")
        pattern = self.pattern_list
        if not pattern:
            raise VerifyException("vectorchain.shuffle: the pattern is empty")
        n = src.element_count()
        if any(not 0 <= p < n for p in pattern):
            raise VerifyException(f"vectorchain.shuffle: pattern indices must be in [0, {n})")


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """`%r = vectorchain.reduce "add" %a : vector<KxNxT> -> vector<Kx1xA>`: reduce the last
    dimension; the result's element type A is the accumulator type (exact sum, rounded once
    to A, as `emulator.numerics.reductions` defines). The K results may be laid out in any
    shape of K elements (row-major, e.g. `vector<KxA>`): a reshape costs no instruction,
    so a row sum reduces straight into its accumulator's shape."""

    name = "vectorchain.reduce"

    kind = prop_def(StringAttr)
    source = operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$kind $source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, kind: str, source, result_type: VectorType):
        super().__init__(
            operands=[source], properties={"kind": StringAttr(kind)}, result_types=[result_type]
        )

    def verify_(self) -> None:
        src = static_vector(self, self.source.type, "the source")
        res = static_vector(self, self.result.type, "the result")
        if self.kind.data not in REDUCTION_KINDS:
            raise VerifyException(
                f"vectorchain.reduce: unknown kind '{self.kind.data}' "
                f"(one of {', '.join(REDUCTION_KINDS)})"
            )
        kept = tuple(src.get_shape())[:-1]
        if math.prod(res.get_shape()) != math.prod(kept):
            raise VerifyException(
                f"vectorchain.reduce: reducing the last dim of {list(src.get_shape())} gives "
                f"{math.prod(kept)} element(s) ({[*kept, 1]}), not the "
                f"{math.prod(res.get_shape())} of {list(res.get_shape())}"
            )


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """`%r = vectorchain.matmul "f16" %a, %b, %acc : vector<RxKxT>, vector<KxCxT> ->
    vector<RxCxA>`: one matrix-unit instruction. Each product a[i, k] * b[k, j] is taken
    in the named product type (operands extended to it exactly, the product rounded to
    it), the K products of each output summed exactly and rounded once to the
    accumulator type A, and that sum added to acc[i, j] in A. The same numbers as the
    multiply, `reduce "add"` and add it replaces (`emulator.numerics`)."""

    name = "vectorchain.matmul"

    product = prop_def(StringAttr)
    lhs = operand_def(VectorType)
    rhs = operand_def(VectorType)
    acc = operand_def(VectorType)
    result = result_def(VectorType)

    traits = traits_def(NoMemoryEffect())
    assembly_format = ("$product $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) "
                       "`,` type($acc) `->` type($result)")

    def __init__(self, product: str, lhs, rhs, acc):
        super().__init__(operands=[lhs, rhs, acc], properties={"product": StringAttr(product)},
                         result_types=[acc.type])

    def verify_(self) -> None:
        a = static_vector(self, self.lhs.type, "the left operand").get_shape()
        b = static_vector(self, self.rhs.type, "the right operand").get_shape()
        c = static_vector(self, self.acc.type, "the accumulator").get_shape()
        r = static_vector(self, self.result.type, "the result").get_shape()
        if len(a) != 2 or len(b) != 2 or a[1] != b[0] or tuple(c) != (a[0], b[1]) \
                or tuple(r) != tuple(c):
            raise VerifyException(
                f"vectorchain.matmul: shapes {list(a)} x {list(b)} -> {list(c)} / {list(r)} "
                "are not R x K times K x C into R x C")
        if self.acc.type != self.result.type:
            raise VerifyException("vectorchain.matmul: the result has the accumulator's type")
        if self.product.data not in FLOAT_TYPES:
            raise VerifyException(f"vectorchain.matmul: product type {self.product.data} is "
                                  "not a float type")

    @property
    def macs(self) -> int:
        """Multiply-accumulates this instruction does."""
        a = self.lhs.type.get_shape()  # type: ignore[attr-defined]
        b = self.rhs.type.get_shape()  # type: ignore[attr-defined]
        return a[0] * a[1] * b[1]


VECTORCHAIN = Dialect(
    "vectorchain",
    [AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, ApplyOp, ConstantBitstreamOp, SplatBitsOp, ShuffleOp,
     ReduceOp, MatmulOp],
    [],
)

BINARY_OPS = (AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp)

__all__ = [
    "MatmulOp",
    "SplatBitsOp",
    "BinaryOp",
    "AddOp",
    "SubOp",
    "MulOp",
    "DivOp",
    "MaxOp",
    "MinOp",
    "ApplyOp",
    "ConstantBitstreamOp",
    "ShuffleOp",
    "ReduceOp",
    "VECTORCHAIN",
    "BINARY_OPS",
    "SCALAR_OPS",
]
