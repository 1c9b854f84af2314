"""The `linalg` dialect as KTIR uses it: xDSL 0.75's, plus what KTIR producers print
that xDSL 0.75 lacks.

- `linalg.div` (elementwise division; MLIR has it, xDSL 0.75 does not).
- `linalg.batch_matmul` (a matmul per index of a leading batch dim; MLIR has it, xDSL
  0.75 does not).
- `linalg.reduce { arith.addf } ins(...) outs(...) dimensions = [...]`: the short form
  MLIR prints when the combiner is a single op on (input, accumulator). xDSL 0.75 reads
  only the long form with an explicit block; we read both and print the long form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir.affine import AffineMap
from xdsl.ir import Attribute, Block, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def
from xdsl.parser import Parser


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
        arg_types = cls.body_arg_types((*inputs, *outputs))
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

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return _BATCH_MAPS

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr([IteratorTypeAttr.parallel()] * 3 + [IteratorTypeAttr.reduction()])


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


def inside_linalg_body(op: Operation) -> bool:
    """True if `op` sits inside some linalg op's region (its payload, not kernel-level work)."""
    parent = op.parent_op()
    while parent is not None:
        if parent.name.startswith("linalg."):
            return True
        parent = parent.parent_op()
    return False


def _linalg_for_ktir() -> Dialect:
    replaced = {ReduceOp.name}
    ops = [op for op in Linalg.operations if op.name not in replaced]
    return Dialect("linalg", [*ops, ReduceOp, DivOp, BatchMatmulOp], list(Linalg.attributes))


LINALG_KTIR = _linalg_for_ktir()
