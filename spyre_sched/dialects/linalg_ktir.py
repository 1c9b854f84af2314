"""The `linalg` dialect as KTIR uses it: xDSL 0.75's, plus what KTIR producers print
that xDSL 0.75 lacks.

- `linalg.div` (elementwise division; MLIR has it, xDSL 0.75 does not).
- `linalg.batch_matmul` (a matmul per index of a leading batch dim; MLIR has it, xDSL
  0.75 does not).
- `linalg.matmul` whose operands are narrower than its accumulator (f16 x f16 into f32):
  xDSL 0.75 builds its body without converting them and rejects it.
- `linalg.reduce { arith.addf } ins(...) outs(...) dimensions = [...]`: the short form
  MLIR prints when the combiner is a single op on (input, accumulator). xDSL 0.75 reads
  only the long form with an explicit block; we read both and print the long form.
- `linalg.map` (an elementwise op whose body gets one element of each input; xDSL 0.75
  has none): both MLIR spellings, `linalg.map ins(...) outs(...) (%a: T, ...) { ... }`
  and the short form `linalg.map { arith.addf } ins(...) outs(...)`; printed in the long
  form. The normal form turns it into a `linalg.generic` (`linalg-named-to-generic`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    AnyTensorType,
    ArrayAttr,
    DenseArrayBase,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir.affine import AffineMap
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class DivOp(ElementwiseOperation):
    """Divides two tensors elementwise (`arith.divf` on floats, `arith.divsi` on integers)."""

    name = "linalg.div"

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res if res is not None else tuple(o.type for o in outputs),
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        arg_types = cls.body_arg_types((*inputs, *outputs))
        div = arith.DivfOp if isinstance(arg_types[-1], AnyFloat) else arith.DivSIOp

        @Builder.implicit_region(arg_types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            linalg_ops.YieldOp(div(args[0], args[1]))

        return hidden_region


#: (b, m, n, k): A[b, m, k], B[b, k, n] -> C[b, m, n]
_BATCH_MAPS = (
    AffineMap.from_callable(lambda b, m, n, k: (b, m, k)),
    AffineMap.from_callable(lambda b, m, n, k: (b, k, n)),
    AffineMap.from_callable(lambda b, m, n, k: (b, m, n)),
)


@irdl_op_definition
class BatchMatmulOp(NamedOperation):
    """C[b] += A[b] @ B[b] for every b of the leading dim: iteration dims (b, m, n, k),
    the last one reduced; each side multiplied in the accumulator's type after the
    operands are converted to it (linalg's body: extend, multiply, add)."""

    name = "linalg.batch_matmul"

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr],
        default_value=ArrayAttr([AffineMapAttr(m) for m in _BATCH_MAPS]),
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res if res is not None else tuple(
                o.type for o in outputs if isinstance(o.type, TensorType)),
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return _multiply_accumulate_region(cls.body_arg_types((*inputs, *outputs)))

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return _BATCH_MAPS

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * 3 + [IteratorTypeAttr.reduction()])


def _multiply_accumulate_region(arg_types: Sequence[Attribute]) -> Region:
    """A matmul's body as linalg defines it: each operand converted to the accumulator's
    type, multiplied, added to the accumulator (so f16 x f16 into f32 multiplies in f32)."""
    acc_type = arg_types[-1]
    floats = isinstance(acc_type, AnyFloat)

    @Builder.implicit_region(arg_types)
    def hidden_region(args: tuple[BlockArgument, ...]) -> None:
        sides = []
        for arg in args[:2]:
            if floats and arg.type != acc_type:
                arg = arith.ExtFOp(arg, acc_type).result
            sides.append(arg)
        mul, add = (arith.MulfOp, arith.AddfOp) if floats else (arith.MuliOp, arith.AddiOp)
        product = mul(sides[0], sides[1])
        linalg_ops.YieldOp(add(args[2], product))

    return hidden_region


class MatmulOp(linalg_ops.MatmulOp):
    """`linalg.matmul` with operands of another type than the accumulator (f16 x f16 into
    f32, how a kernel asks for a wide accumulator).

    A plain subclass of xDSL's op (IRDL definitions cannot be re-declared), whose body
    converts the operands first, as MLIR's does; xDSL 0.75 builds the body without the
    conversion and then rejects it ("attribute f16 expected ..., but got f32")."""

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return _multiply_accumulate_region(cls.body_arg_types((*inputs, *outputs)))


class ReduceOp(linalg_ops.ReduceOp):
    """`linalg.reduce`, reading MLIR's short form `{ op-name [attr-dict] }` as well.

    A plain subclass (IRDL definitions cannot be re-declared): it keeps xDSL's
    definition, verifier and printer, so passes matching `linalg_ops.ReduceOp` see it.
    """

    @classmethod
    def parse(cls, parser: Parser) -> ReduceOp:
        if parser.parse_optional_punctuation("{") is None:
            return super().parse(parser)
        combiner_pos = parser.pos
        combiner_name = parser.parse_identifier(
            context_msg=" (the combiner op of a short-form linalg.reduce)"
        )
        combiner_attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation("}")
        parser.parse_characters("ins")
        parser.parse_punctuation("(")
        input_ = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        input_value = parser.resolve_operand(input_, parser.parse_type())
        parser.parse_punctuation(")")
        parser.parse_characters("outs")
        parser.parse_punctuation("(")
        init = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        init_value = parser.resolve_operand(init, parser.parse_type())
        parser.parse_punctuation(")")
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dimensions = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_integer
        )
        combiner_type = parser.ctx.get_optional_op(combiner_name)
        if combiner_type is None:
            parser.raise_error(
                f"unknown combiner operation '{combiner_name}'", combiner_pos, parser.pos
            )
        element_types = [
            getattr(v.type, "element_type", v.type) for v in (input_value, init_value)
        ]
        block = Block(arg_types=element_types)
        # Attributes the combiner declares as properties (e.g. fastmath) go there.
        prop_names = (
            set(combiner_type.get_irdl_definition().properties)
            if issubclass(combiner_type, IRDLOperation)
            else set()
        )
        combined = combiner_type.create(
            operands=list(block.args),
            result_types=[element_types[1]],
            properties={k: v for k, v in combiner_attrs.items() if k in prop_names},
            attributes={k: v for k, v in combiner_attrs.items() if k not in prop_names},
        )
        block.add_ops([combined, linalg_ops.YieldOp(combined.results[0])])
        return cls(input_value, init_value, DenseArrayBase.from_list(i64, dimensions), Region(block))


@irdl_op_definition
class MapOp(IRDLOperation):
    """`linalg.map`: out[i] = body(in_0[i], in_1[i], ...) over operands of one shape; the
    body's arguments are the inputs' elements only (the init is not read)."""

    name = "linalg.map"

    inputs = var_operand_def(base(MemRefType) | base(AnyTensorType))
    init = operand_def(base(MemRefType) | base(AnyTensorType))
    result = var_result_def(AnyTensorType)
    mapper: Region = region_def("single_block")

    def __init__(self, inputs: Sequence[SSAValue], init: SSAValue, mapper: Region,
                 attributes: dict[str, Attribute] | None = None):
        results = [init.type] if isinstance(init.type, TensorType) else []
        super().__init__(operands=[list(inputs), init], result_types=[results],
                         regions=[mapper], attributes=attributes)

    @classmethod
    def parse(cls, parser: Parser) -> MapOp:
        short = parser.parse_optional_punctuation("{") is not None
        if short:
            name_pos = parser.pos
            combiner_name = parser.parse_identifier(
                context_msg=" (the op of a short-form linalg.map)")
            combiner_attrs = parser.parse_optional_attr_dict()
            parser.parse_punctuation("}")
        parser.parse_characters("ins")
        parser.parse_punctuation("(")
        names = parser.parse_comma_separated_list(parser.Delimiter.NONE,
                                                  parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation(")")
        if len(names) != len(types):
            parser.raise_error(f"linalg.map: {len(names)} inputs but {len(types)} types")
        inputs = [parser.resolve_operand(n, t) for n, t in zip(names, types)]
        parser.parse_characters("outs")
        parser.parse_punctuation("(")
        init_name = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        init = parser.resolve_operand(init_name, parser.parse_type())
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        if short:
            op_type = parser.ctx.get_optional_op(combiner_name)
            if op_type is None:
                parser.raise_error(f"unknown operation '{combiner_name}' in linalg.map",
                                   name_pos, parser.pos)
            element_types = [getattr(v.type, "element_type", v.type) for v in inputs]
            block = Block(arg_types=element_types)
            prop_names = (set(op_type.get_irdl_definition().properties)
                          if issubclass(op_type, IRDLOperation) else set())
            mapped = op_type.create(
                operands=list(block.args),
                result_types=[getattr(init.type, "element_type", init.type)],
                properties={k: v for k, v in combiner_attrs.items() if k in prop_names},
                attributes={k: v for k, v in combiner_attrs.items() if k not in prop_names})
            block.add_ops([mapped, linalg_ops.YieldOp(mapped.results[0])])
            region = Region(block)
        else:
            args = parser.parse_comma_separated_list(parser.Delimiter.PAREN,
                                                     parser.parse_argument)
            region = parser.parse_region(args)
        return cls(inputs, init, region, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ins(")
        printer.print_list(self.inputs, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list([v.type for v in self.inputs], printer.print_attribute)
        printer.print_string(") outs(")
        printer.print_ssa_value(self.init)
        printer.print_string(" : ")
        printer.print_attribute(self.init.type)
        printer.print_string(")")
        if self.attributes:
            printer.print_op_attributes(self.attributes)
        printer.print_string("\n(")
        printer.print_list(self.mapper.block.args, printer.print_block_argument)
        printer.print_string(") ")
        printer.print_region(self.mapper, print_entry_block_args=False)

    def verify_(self) -> None:
        shape = list(self.init.type.get_shape())  # type: ignore[attr-defined]
        for k, value in enumerate(self.inputs):
            got = list(value.type.get_shape())  # type: ignore[attr-defined]
            if got != shape:
                raise VerifyException(f"linalg.map: input {k} has shape {got}, the init "
                                      f"{shape}")
        block = self.mapper.block
        if len(block.args) != len(self.inputs):
            raise VerifyException(f"linalg.map: the body takes {len(block.args)} arguments "
                                  f"for {len(self.inputs)} inputs")
        for k, (arg, value) in enumerate(zip(block.args, self.inputs)):
            if arg.type != value.type.element_type:  # type: ignore[attr-defined]
                raise VerifyException(f"linalg.map: body argument {k} is {arg.type}, input "
                                      f"{k}'s element type "
                                      f"{value.type.element_type}")  # type: ignore[attr-defined]
        last = block.last_op
        if not isinstance(last, linalg_ops.YieldOp) or len(last.operands) != 1:
            raise VerifyException("linalg.map: the body must end in linalg.yield of one value")


def inside_linalg_body(op: Operation) -> bool:
    """True if `op` sits inside some linalg op's region (its payload, not kernel-level work)."""
    parent = op.parent_op()
    while parent is not None:
        if parent.name.startswith("linalg."):
            return True
        parent = parent.parent_op()
    return False


def _linalg_for_ktir() -> Dialect:
    replaced = {ReduceOp.name, MapOp.name, MatmulOp.name}
    ops = [op for op in Linalg.operations if op.name not in replaced]
    return Dialect("linalg", [*ops, ReduceOp, DivOp, MapOp, BatchMatmulOp, MatmulOp],
                   list(Linalg.attributes))


LINALG_KTIR = _linalg_for_ktir()
