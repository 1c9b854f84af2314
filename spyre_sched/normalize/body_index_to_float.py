"""Normal-form pass `body-index-to-float`: index arithmetic inside an elementwise body
becomes float arithmetic on positions.

Triton writes a causal mask as a `linalg.generic` whose body computes each element's row
and column from `linalg.index`, mixes in index values from outside the body (the tile's
first query position, a loop counter times the block size) with `arith.addi`, `muli`,
`divui`, and compares with `arith.cmpi` to choose between the score and -inf. The device's
vector unit computes on floats only (its lanes are f16 and f32), so the body is brought to
float arithmetic on whole-number values:

- index arithmetic on values from outside the body only (`j * 16`) moves out in front of
  the generic: it is scalar work the unit's address arithmetic does once, not per element;
- every index value left in the body starts at a *leaf*, a `linalg.index` or a value from
  outside, which becomes an f32 by `arith.index_cast` to i64 then `arith.uitofp` (the one
  spelling the later stages read: `naive-pipeline` adds the step's position to a
  `linalg.index`, the lowering makes the vector from the position's bits);
- `addi`, `subi`, `muli` become `addf`, `subf`, `mulf`; `divui`/`divsi`/`floordivsi`
  `math.floor` of the `divf`; `remui`/`remsi` `a - floor(a / b) * b`; `minui`/`minsi`,
  `maxui`/`maxsi` `minimumf`/`maximumf`; `index_cast` between integer types disappears;
  `cmpi` becomes the ordered `cmpf` of the same relation; a `select` of index values
  selects their floats; `sitofp`/`uitofp` of a converted value is that float (rounded to
  its type when narrower).

The result is exact while every value is a whole number below 2^24 in magnitude (an f32
holds those exactly, and a correctly rounded quotient of two of them never rounds up to
the next whole number) and the unsigned ops see no negative value, as positions, tile ids,
loop counters and lengths are. Integers computed from the body's data (a float's bits)
are not positions and are left alone. Generics with a reduction dim keep their `linalg.index`
(a reduction body runs literally, step by step: `docs/ktir-producers.md`). An index op
without a float form (shifts, `ceildivsi`, bit operations) is refused, located."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    f32,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.normalize.common import kernel_of, note_origin
from spyre_sched.schedule.common import fail

NAME = "body-index-to-float"

#: integer ops of index (or integer) values and their float spelling
_BINARY = {
    "arith.addi": arith.AddfOp, "arith.subi": arith.SubfOp, "arith.muli": arith.MulfOp,
    "arith.minui": arith.MinimumfOp, "arith.minsi": arith.MinimumfOp,
    "arith.maxui": arith.MaximumfOp, "arith.maxsi": arith.MaximumfOp,
}
_DIVIDES = ("arith.divui", "arith.divsi", "arith.floordivsi")
_REMAINDERS = ("arith.remui", "arith.remsi")
_CASTS = ("arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui", "arith.trunci")
#: `cmpi` predicate -> the ordered `cmpf` predicate of the same relation
_PREDICATES = {"eq": "oeq", "ne": "one", "slt": "olt", "sle": "ole", "sgt": "ogt", "sge": "oge",
               "ult": "olt", "ule": "ole", "ugt": "ogt", "uge": "oge"}
_CMPI_NAMES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
#: ops that move out of the body when every operand is from outside it
_SCALAR_INDEX_OPS = (*_BINARY, *_DIVIDES, *_REMAINDERS, *_CASTS, "arith.constant")


def _is_integer(value: SSAValue) -> bool:
    return isinstance(value.type, IndexType | IntegerType) and value.type != IntegerType(1)


def _outside(value: SSAValue, block: Block) -> bool:
    owner = value.owner
    where = owner if isinstance(owner, Block) else owner.parent_block()
    while where is not None:
        if where is block:
            return False
        parent = where.parent_op()
        where = parent.parent_block() if parent is not None else None
    return True


def _hoist_scalar_work(generic: linalg.GenericOp, block: Block) -> None:
    """Move index ops whose operands all come from outside the body in front of it."""
    moved = True
    while moved:
        moved = False
        for op in list(block.ops):
            if op.name in _SCALAR_INDEX_OPS and all(_is_integer(r) for r in op.results) \
                    and all(_outside(o, block) for o in op.operands):
                op.detach()
                Rewriter.insert_op(op, InsertPoint.before(generic))
                moved = True


class _Converter:
    def __init__(self, generic: linalg.GenericOp, block: Block):
        self.generic = generic
        self.block = block
        self.floats: dict[SSAValue, SSAValue] = {}
        #: the integer ops whose float form replaced them, erased once unused
        self.converted: list[Operation] = []

    def leaf(self, value: SSAValue) -> SSAValue:
        """An f32 holding index value `value` (a position or a value from outside)."""
        if value in self.floats:
            return self.floats[value]
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            new: list[Operation] = [arith.ConstantOp(FloatAttr(float(owner.value.value.data), f32))]
        else:
            if not isinstance(value.type, IndexType):
                cast = arith.IndexCastOp(value, IndexType())
                value_index = cast.result
                new = [cast]
            else:
                value_index, new = value, []
            wide = arith.IndexCastOp(value_index, i64)
            new += [wide, arith.UIToFPOp(wide.result, f32)]
        # a value of the body is converted where it is made; one from outside at the top
        # of the body, once
        if isinstance(owner, Operation) and owner.parent_block() is self.block:
            Rewriter.insert_op(new, InsertPoint.after(owner))
        else:
            first = self.block.first_op
            assert first is not None
            Rewriter.insert_op(new, InsertPoint.before(first))
        note_origin(new, self.generic)
        self.floats[value] = new[-1].results[0]
        return self.floats[value]

    def positional(self, value: SSAValue) -> bool:
        """Whether integer `value` is position arithmetic: a position, a value from
        outside, a constant, or made from those by an op already converted. (Integers
        computed from the body's data, a float's bits, are not, and are left alone.)"""
        owner = value.owner
        return value in self.floats or _outside(value, self.block) \
            or isinstance(owner, linalg.IndexOp | arith.ConstantOp)

    def float_of(self, value: SSAValue) -> SSAValue:
        return self.floats[value] if value in self.floats else self.leaf(value)

    def convert(self, op: Operation) -> None:
        name = op.name
        if isinstance(op, linalg.IndexOp | arith.ConstantOp):
            return  # converted where used, as a leaf
        integer_in = [o for o in op.operands if _is_integer(o)]
        if not integer_in or not all(self.positional(o) for o in integer_in):
            return
        self.converted.append(op)
        args = [self.float_of(o) if _is_integer(o) else o for o in op.operands]
        new: list[Operation]
        if name in _BINARY:
            new = [_BINARY[name](args[0], args[1])]
        elif name in _DIVIDES:
            quotient = arith.DivfOp(args[0], args[1])
            new = [quotient, math.FloorOp(quotient.result)]
        elif name in _REMAINDERS:
            quotient = arith.DivfOp(args[0], args[1])
            whole = math.FloorOp(quotient.result)
            back = arith.MulfOp(whole.result, args[1])
            new = [quotient, whole, back, arith.SubfOp(args[0], back.result)]
        elif name in _CASTS:
            self.floats[op.results[0]] = args[0]
            return
        elif name == "arith.cmpi":
            predicate = _CMPI_NAMES[op.properties["predicate"].value.data]  # type: ignore[attr-defined]
            new = [arith.CmpfOp(args[0], args[1], _PREDICATES[predicate])]
            note_origin(new, op)
            self.converted.remove(op)
            Rewriter.replace_op(op, new)
            return
        elif name == "arith.select":
            new = [arith.SelectOp(args[0], args[1], args[2])]
        elif name in ("arith.sitofp", "arith.uitofp"):
            target = op.results[0].type
            if target == f32:
                op.results[0].replace_all_uses_with(args[0])
                self.converted.remove(op)
                Rewriter.erase_op(op)
                return
            if not isinstance(target, Float16Type | Float32Type) and str(target) != "bf16":
                raise fail(op, NAME, f"not supported yet: a position converted to {target}")
            new = [arith.TruncFOp(args[0], target)]
            note_origin(new, op)
            self.converted.remove(op)
            Rewriter.replace_op(op, new)
            return
        else:
            raise fail(op, NAME, f"not supported yet: {name} on index values in a generic "
                       "body (no float form)")
        note_origin(new, op)
        Rewriter.insert_op(new, InsertPoint.before(op))
        self.floats[op.results[0]] = new[-1].results[0]

    def drop_integer_ops(self) -> None:
        """Erase the converted integer ops and the positions nothing reads any more."""
        for op in reversed(self.converted):
            if op.parent is not None and not any(r.uses for r in op.results):
                Rewriter.erase_op(op)
        for op in reversed(list(self.block.ops)):
            if isinstance(op, linalg.IndexOp | arith.ConstantOp) and _is_integer(op.results[0]) \
                    and not op.results[0].uses:
                Rewriter.erase_op(op)


def _needs_floats(block: Block) -> bool:
    return any(isinstance(op, linalg.IndexOp)
               or any(_is_integer(o) for o in op.operands)
               for op in block.ops if not isinstance(op, linalg.YieldOp))


def convert_body(generic: linalg.GenericOp) -> None:
    block = generic.body.block
    _hoist_scalar_work(generic, block)
    if not _needs_floats(block):
        return
    converter = _Converter(generic, block)
    for op in list(block.ops):
        if op.parent is None or isinstance(op, linalg.YieldOp):
            continue
        converter.convert(op)
    for op in block.ops:
        if isinstance(op, linalg.YieldOp) and any(_is_integer(o) for o in op.operands):
            raise fail(generic, NAME, "not supported yet: a generic yielding index values")
    converter.drop_integer_ops()


@dataclass(frozen=True)
class BodyIndexToFloat(ModulePass):
    """`linalg.index` and index arithmetic in elementwise bodies -> f32 arithmetic."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in kernel_of(op):
            for generic in list(fn.walk()):
                if isinstance(generic, linalg.GenericOp) and all(
                        str(t.data) == "parallel" for t in generic.iterator_types.data):
                    convert_body(generic)
