"""The `ktdf` dialect: ScheduleIR, the scheduler's output and the solver's input.

A schedule is built from three constructs: nested `scf.for` loops, `ktdf.pipeline`
(stages that overlap across iterations) and `ktdf.parallel` (identical hardware
instances that split an iteration space). The contract (what every op and attribute
means, the open and solved forms) is docs/scheduleir.md. Syntax:

    ktdf.pipeline [modulo(size: N | ?, decision = "p0.pipe.lx.modulo")] {
      %r:3 = ktdf.private -> (memref<?x64xf16, "LX">, !ktdf.fifo.slot<"load" -> "sfu", 64xf16>,
                              !ktdf.token) {
        %b = ktdf.buffer {role = "input", operand = "A", access_map = affine_map<...>,
                          tile_dims = ["p0.tile.lx.d0", 64]} : memref<?x64xf16, "LX">
        %f = ktdf.fifo : !ktdf.fifo.slot<"load" -> "sfu", 64xf16>
        %t = ktdf.token : !ktdf.token
        ktdf.private_yield %b, %f, %t : memref<?x64xf16, "LX">, !ktdf.fifo.slot<...>, !ktdf.token
      }
      ktdf.stage depends_in(none) depends_out(%r#2) { ... } {applicable_units = ["dma"]}
      ...
    }
    ktdf.data_transfer from %A[%i, %j] size [%n, 64] to %r#0[0, 0] size [%n, 64]
        {transfer_mode = "splat"} : memref<96x64xf16>, memref<?x64xf16, "LX">
    %v = ktdf.read_from_fifo %f : !ktdf.fifo.slot<..> -> tensor<1x64xf16>
    ktdf.write_to_fifo %v, %f : tensor<1x64xf16>, !ktdf.fifo.slot<..>
    ktdf.parallel (%i) = (%c0) to (%n) step (%c1) distribute(num_instances = ?)
        {decision = "p0.distribute.d0", max_instances = 2} { ... }
    %t = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d0", extent = 3, min_value = 1,
                                   divisibility = 1 [, within = "..."] [, value = 3]} : index
    %n = ktdf.tiling.derive_size %iv, %t, %ub : index          // min(%t, %ub - %iv)
    %g = ktdf.tiling.linearize_index %tile_iv, %point_iv : index  // %tile_iv + %point_iv
    %k = ktdf.buffer_phase : index                             // rotation index of the pipeline
    %m = ktdf.select_memref %k [%b0, %b1] : memref<...>        // one copy of a rotated buffer

Loops carry `loop_type = #ktdf.loop_type<parallel_loop | reduction_loop>`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import StrEnum

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils import parse_dynamic_index_list_without_types, print_dynamic_index_list
from xdsl.dialects.func import FuncOp
from xdsl.ir import (
    Attribute,
    Block,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, NoMemoryEffect, NoTerminator
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.syntax import parse_body
from spyre_sched.xdsl_compat import current_token

# ---------------------------------------------------------------------------------------
# Attributes and types
# ---------------------------------------------------------------------------------------


@irdl_attr_definition
class TokenType(ParametrizedAttribute, TypeAttribute):
    """A pure ordering value between stages; no run-time cost of its own."""

    name = "ktdf.token"


@irdl_attr_definition
class FifoSlotType(ParametrizedAttribute, TypeAttribute):
    """One slot of a hardware FIFO between two adjacent units (unit kinds, or memory kinds
    before path expansion), holding one vector: `!ktdf.fifo.slot<"load" -> "sfu", 64xf16>`."""

    name = "ktdf.fifo.slot"

    source: StringAttr
    dest: StringAttr
    shape: ArrayAttr[IntAttr]
    element_type: Attribute

    def __init__(self, source: str, dest: str, shape: Sequence[int], element_type: Attribute):
        super().__init__(StringAttr(source), StringAttr(dest),
                         ArrayAttr([IntAttr(s) for s in shape]), element_type)

    def get_shape(self) -> tuple[int, ...]:
        return tuple(s.data for s in self.shape.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            source = parser.parse_str_literal(" (the FIFO's source)")
            parser.parse_punctuation("->")
            dest = parser.parse_str_literal(" (the FIFO's destination)")
            parser.parse_punctuation(",")
            shape, element_type = parser.parse_ranked_shape()
        if any(s < 1 for s in shape):
            parser.raise_error("a FIFO slot has a static positive shape")
        return [StringAttr(source), StringAttr(dest),
                ArrayAttr([IntAttr(s) for s in shape]), element_type]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_string_literal(self.source.data)
        printer.print_string(" -> ")
        printer.print_string_literal(self.dest.data)
        printer.print_string(", ")
        for s in self.get_shape():
            printer.print_string(f"{s}x")
        printer.print_attribute(self.element_type)
        printer.print_string(">")


class LoopType(StrEnum):
    PARALLEL = "parallel_loop"
    REDUCTION = "reduction_loop"


@irdl_attr_definition
class LoopTypeAttr(ParametrizedAttribute):
    """`#ktdf.loop_type<parallel_loop>`: may the loop's iterations run in any order
    (parallel_loop) or do they carry a value (reduction_loop)?"""

    name = "ktdf.loop_type"

    kind: StringAttr

    def __init__(self, kind: LoopType | str):
        super().__init__(StringAttr(str(LoopType(kind))))

    @property
    def loop_type(self) -> LoopType:
        return LoopType(self.kind.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> list[Attribute]:
        with parser.in_angle_brackets():
            kind = parser.parse_str_enum(LoopType)
        return [StringAttr(str(kind))]

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.kind.data}>")

    def verify(self) -> None:
        if self.kind.data not in {t.value for t in LoopType}:
            raise VerifyException(f"#ktdf.loop_type: unknown kind '{self.kind.data}'")


#: the attribute a scheduler loop carries its `LoopTypeAttr` in
LOOP_TYPE_ATTR = "loop_type"


def is_reduction_loop(op: Operation) -> bool:
    """Is `op` a loop tagged `reduction_loop` (its iterations carry a value)?"""
    attr = op.attributes.get(LOOP_TYPE_ATTR)
    return isinstance(attr, LoopTypeAttr) and attr.loop_type is LoopType.REDUCTION


@irdl_attr_definition
class OpenAttr(ParametrizedAttribute):
    """`#ktdf.open`: a decision not taken yet (printed `?` in the ops that hold one)."""

    name = "ktdf.open"


BUFFER_ROLES = ("input", "output", "intermediate", "accumulator", "resident", "addresses")
"""`resident`: a kernel input kept whole in scratchpad for several computes of a program
(`ktdf.keep_resident`): loaded once, read by each of them."""
TRANSFER_MODES = ("copy", "splat")


# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------


def _single_block(region: Region) -> Block:
    return region.blocks[0]


def _decision_value(attr: Attribute | None) -> int | None:
    """The integer of a solved decision (None when open or absent)."""
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _parse_open_or_int(parser: Parser) -> Attribute:
    if parser.parse_optional_punctuation("?") is not None:
        return OpenAttr()
    return IntegerAttr(parser.parse_integer(allow_boolean=False, allow_negative=False), i64)


def _print_open_or_int(printer: Printer, attr: Attribute) -> None:
    printer.print_string("?" if isinstance(attr, OpenAttr) else str(_decision_value(attr)))


def _check_decision_name(op: Operation, name: StringAttr | None, what: str) -> None:
    if name is None or not name.data.strip():
        raise VerifyException(f"{op.name}: {what} needs a non-empty `decision` name")


# ---------------------------------------------------------------------------------------
# Pipelines, stages, private resources
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class PipelineOp(IRDLOperation):
    """A chain of stages that overlap across the iterations of the enclosing loop.
    `modulo(size: N)` rotates through N copies of its private resources (N-buffering);
    `?` leaves N to the solver under the name `decision`."""

    name = "ktdf.pipeline"

    modulo = opt_prop_def(IntegerAttr | OpenAttr)
    decision = opt_prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())

    def __init__(self, ops: Sequence[Operation] = (), modulo: Attribute | None = None,
                 decision: str | None = None):
        props: dict[str, Attribute] = {}
        if modulo is not None:
            props["modulo"] = modulo
        if decision is not None:
            props["decision"] = StringAttr(decision)
        super().__init__(properties=props, regions=[Region(Block(ops))])

    @property
    def is_open(self) -> bool:
        return isinstance(self.modulo, OpenAttr)

    @property
    def modulo_value(self) -> int:
        """Copies of each private resource (1 when there is no modulo clause)."""
        value = _decision_value(self.modulo)
        return 1 if value is None else value

    @property
    def private(self) -> PrivateOp | None:
        ops = list(_single_block(self.body).ops)
        return ops[0] if ops and isinstance(ops[0], PrivateOp) else None

    @property
    def stages(self) -> list[StageOp]:
        return [op for op in _single_block(self.body).ops if isinstance(op, StageOp)]

    @classmethod
    def parse(cls, parser: Parser) -> PipelineOp:
        props: dict[str, Attribute] = {}
        if parser.parse_optional_keyword("modulo") is not None:
            parser.parse_punctuation("(")
            parser.parse_keyword("size")
            parser.parse_punctuation(":")
            props["modulo"] = _parse_open_or_int(parser)
            if parser.parse_optional_punctuation(",") is not None:
                parser.parse_keyword("decision")
                parser.parse_punctuation("=")
                props["decision"] = StringAttr(parser.parse_str_literal())
            parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict_with_keyword()
        region = parse_body(parser)
        op = cls.build(properties=props, regions=[region])
        if attrs is not None:
            op.attributes.update(attrs.data)
        return op

    def print(self, printer: Printer) -> None:
        if self.modulo is not None:
            printer.print_string(" modulo(size: ")
            _print_open_or_int(printer, self.modulo)
            if self.decision is not None:
                printer.print_string(", decision = ")
                printer.print_string_literal(self.decision.data)
            printer.print_string(")")
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(dict(self.attributes))
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        ops = list(_single_block(self.body).ops)
        if not ops or not isinstance(ops[0], PrivateOp):
            raise VerifyException("ktdf.pipeline: its first child must be its ktdf.private")
        for op in ops[1:]:
            if not isinstance(op, StageOp):
                raise VerifyException(
                    f"ktdf.pipeline: a pipeline's only children are one ktdf.private and its "
                    f"stages, found {op.name}")
        if len(ops) < 2:
            raise VerifyException("ktdf.pipeline: a pipeline needs at least one stage")
        if self.modulo is not None:
            value = _decision_value(self.modulo)
            if value is not None and value < 1:
                raise VerifyException(f"ktdf.pipeline: modulo size must be >= 1, got {value}")
            if isinstance(self.modulo, OpenAttr):
                _check_decision_name(self, self.decision, "an open modulo(size: ?)")


@irdl_op_definition
class PrivateOp(IRDLOperation):
    """Resources private to one pipeline (scratchpad buffers, FIFO slots, tokens), made
    in its region and handed out by `ktdf.private_yield`."""

    name = "ktdf.private"

    res = var_result_def()
    body = region_def("single_block")
    traits = traits_def(HasParent(PipelineOp))

    assembly_format = "`->` `(` type($res) `)` $body attr-dict"

    def __init__(self, ops: Sequence[Operation], result_types: Sequence[Attribute]):
        super().__init__(result_types=[list(result_types)], regions=[Region(Block(ops))])

    def verify_(self) -> None:
        block = _single_block(self.body)
        last = block.last_op
        if not isinstance(last, PrivateYieldOp):
            raise VerifyException("ktdf.private: its region must end with ktdf.private_yield")
        yielded = [v.type for v in last.values]
        if yielded != [r.type for r in self.res]:
            raise VerifyException(
                "ktdf.private: the yielded types must be the result types "
                f"({len(yielded)} yielded, {len(self.res)} results)")
        for op in block.ops:
            if not isinstance(op, BufferOp | FifoOp | TokenOp | PrivateYieldOp):
                raise VerifyException(
                    f"ktdf.private: only ktdf.buffer, ktdf.fifo and ktdf.token make private "
                    f"resources, found {op.name}")


@irdl_op_definition
class PrivateYieldOp(IRDLOperation):
    name = "ktdf.private_yield"

    values = var_operand_def()
    traits = traits_def(IsTerminator(), HasParent(PrivateOp))

    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class BufferOp(IRDLOperation):
    """A scratchpad buffer holding one tile of one operand.

    `access_map` maps the pipeline's tile-local iteration dims to the buffer's dims;
    `tile_dims[k]` is the size of iteration dim k in one tile: a decision name (a
    `ktdf.tiling.reserve_size` of the same program) or a fixed integer. The footprint
    (elements) for given tile sizes is the number of distinct points of `access_map`
    over the box [0, tile_dims): docs/scheduleir.md. The memref's memory space names the
    memory kind; its element type is the operand's."""

    name = "ktdf.buffer"

    role = prop_def(StringAttr)
    operand = prop_def(StringAttr)
    access_map = prop_def(AffineMapAttr)
    tile_dims = prop_def(ArrayAttr)
    result = result_def(MemRefType)
    traits = traits_def(HasParent(PrivateOp))
    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, role: str, operand: str, access_map: AffineMapAttr,
                 tile_dims: Sequence[str | int], result_type: MemRefType):
        super().__init__(
            properties={
                "role": StringAttr(role), "operand": StringAttr(operand),
                "access_map": access_map,
                "tile_dims": ArrayAttr([StringAttr(d) if isinstance(d, str) else IntegerAttr(d, i64)
                                        for d in tile_dims]),
            },
            result_types=[result_type])

    @property
    def memory(self) -> str:
        space = self.result.type.memory_space
        return space.data if isinstance(space, StringAttr) else ""

    def tile_dim_values(self) -> list[str | int]:
        return [d.data if isinstance(d, StringAttr) else d.value.data for d in self.tile_dims.data]

    def verify_(self) -> None:
        if self.role.data not in BUFFER_ROLES:
            raise VerifyException(
                f"ktdf.buffer: role must be one of {', '.join(BUFFER_ROLES)}, got "
                f"'{self.role.data}'")
        mtype = self.result.type
        if not isinstance(mtype.memory_space, StringAttr) or not mtype.memory_space.data:
            raise VerifyException(
                "ktdf.buffer: its memref type must name the memory it lives in, e.g. "
                'memref<?x64xf16, "LX">')
        amap = self.access_map.data
        dims = self.tile_dim_values()
        if amap.num_dims != len(dims):
            raise VerifyException(
                f"ktdf.buffer: access_map has {amap.num_dims} dims but tile_dims has "
                f"{len(dims)} entries")
        if amap.num_symbols:
            raise VerifyException("ktdf.buffer: access_map takes no symbols")
        if len(amap.results) != mtype.get_num_dims():
            raise VerifyException(
                f"ktdf.buffer: access_map has {len(amap.results)} results but the buffer "
                f"has rank {mtype.get_num_dims()}")
        for d in dims:
            if isinstance(d, int) and d < 1:
                raise VerifyException(f"ktdf.buffer: a fixed tile dim must be >= 1, got {d}")
            if isinstance(d, str) and not d:
                raise VerifyException("ktdf.buffer: an empty decision name in tile_dims")
        for d in mtype.get_shape():
            if d != DYNAMIC_INDEX and d < 1:
                raise VerifyException("ktdf.buffer: static buffer dims must be >= 1")


@irdl_op_definition
class FifoOp(IRDLOperation):
    """A FIFO slot between two adjacent units, private to a pipeline."""

    name = "ktdf.fifo"

    result = result_def(FifoSlotType)
    traits = traits_def(HasParent(PrivateOp))
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, slot: FifoSlotType):
        super().__init__(result_types=[slot])


@irdl_op_definition
class TokenOp(IRDLOperation):
    """An ordering token between two stages of a pipeline."""

    name = "ktdf.token"

    result = result_def(TokenType)
    traits = traits_def(HasParent(PrivateOp))
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self):
        super().__init__(result_types=[TokenType()])


def _parse_token_list(parser: Parser) -> list[SSAValue]:
    parser.parse_punctuation("(")
    if parser.parse_optional_keyword("none") is not None:
        parser.parse_punctuation(")")
        return []
    operands = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand)
    parser.parse_punctuation(")")
    return [parser.resolve_operand(o, TokenType()) for o in operands]


def _print_token_list(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_string("(")
    if not values:
        printer.print_string("none")
    else:
        printer.print_list(values, printer.print_ssa_value)
    printer.print_string(")")


@irdl_op_definition
class StageOp(IRDLOperation):
    """One step of a pipeline, run by one kind of unit (`applicable_units`, the device's
    unit `kind` strings). It starts an iteration after the stages producing its
    `depends_in` tokens finished that iteration, and signals `depends_out` when done."""

    name = "ktdf.stage"

    depends_in = var_operand_def(TokenType)
    depends_out = var_operand_def(TokenType)
    applicable_units = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")
    traits = traits_def(HasParent(PipelineOp), NoTerminator())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, depends_in: Sequence[SSAValue], depends_out: Sequence[SSAValue],
                 units: Sequence[str], ops: Sequence[Operation] = ()):
        super().__init__(
            operands=[list(depends_in), list(depends_out)],
            properties={"applicable_units": ArrayAttr([StringAttr(u) for u in units])},
            regions=[Region(Block(ops))])

    @property
    def units(self) -> list[str]:
        return [u.data for u in self.applicable_units.data]

    @classmethod
    def parse(cls, parser: Parser) -> StageOp:
        parser.parse_keyword("depends_in")
        ins = _parse_token_list(parser)
        parser.parse_keyword("depends_out")
        outs = _parse_token_list(parser)
        region = parse_body(parser)
        attrs = parser.parse_optional_attr_dict()
        units = attrs.pop("applicable_units", None)
        if units is None:
            parser.raise_error("ktdf.stage needs {applicable_units = [...]}")
        op = cls.build(operands=[ins, outs], properties={"applicable_units": units},
                       regions=[region])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" depends_in")
        _print_token_list(printer, self.depends_in)
        printer.print_string(" depends_out")
        _print_token_list(printer, self.depends_out)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_string(" ")
        printer.print_attr_dict({"applicable_units": self.applicable_units,
                                 **dict(self.attributes)})

    def verify_(self) -> None:
        # An empty list is a stage not mapped to units yet (before path expansion).
        if any(not u.data for u in self.applicable_units.data):
            raise VerifyException("ktdf.stage: an empty unit kind in applicable_units")


# ---------------------------------------------------------------------------------------
# Data movement
# ---------------------------------------------------------------------------------------


def _endpoint_rank(value: SSAValue) -> int | None:
    t = value.type
    if isinstance(t, MemRefType):
        return t.get_num_dims()
    return None


@irdl_op_definition
class DataTransferOp(IRDLOperation):
    """Move a box of elements: memory -> memory, memory -> FIFO or FIFO -> memory.

    A memory side is a memref (a KTIR view: subscripts are its global coordinates; a
    `ktdf.buffer`: subscripts are tile-local) with one subscript per dimension; a FIFO
    side has none. `size` gives the extent moved per dimension (same element count on
    both sides). `transfer_mode = "splat"` broadcasts a scalar source to the full vector."""

    name = "ktdf.data_transfer"

    source = operand_def()
    source_dyn_offsets = var_operand_def(IndexType)
    source_offsets = prop_def(DenseArrayBase)
    source_dyn_sizes = var_operand_def(IndexType)
    source_sizes = prop_def(DenseArrayBase)
    dest = operand_def()
    dest_dyn_offsets = var_operand_def(IndexType)
    dest_offsets = prop_def(DenseArrayBase)
    dest_dyn_sizes = var_operand_def(IndexType)
    dest_sizes = prop_def(DenseArrayBase)
    transfer_mode = opt_prop_def(StringAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> DataTransferOp:
        index = IndexType()

        def index_list(optional: bool):
            if optional and current_token(parser).text != "[":
                return [], DenseArrayBase.from_list(i64, [])
            dyn, static = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
            return ([parser.resolve_operand(d, index) for d in dyn],
                    DenseArrayBase.from_list(i64, list(static)))

        parser.parse_keyword("from")
        source = parser.parse_unresolved_operand()
        so = index_list(True)
        parser.parse_keyword("size")
        ss = index_list(False)
        parser.parse_keyword("to")
        dest = parser.parse_unresolved_operand()
        do = index_list(True)
        parser.parse_keyword("size")
        ds = index_list(False)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        stype = parser.parse_type()
        parser.parse_punctuation(",")
        dtype = parser.parse_type()
        props: dict[str, Attribute] = {"source_offsets": so[1], "source_sizes": ss[1],
                                       "dest_offsets": do[1], "dest_sizes": ds[1]}
        if "transfer_mode" in attrs:
            props["transfer_mode"] = attrs.pop("transfer_mode")
        op = cls.build(
            operands=[parser.resolve_operand(source, stype), so[0], ss[0],
                      parser.resolve_operand(dest, dtype), do[0], ds[0]],
            properties=props)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        def index_list(dyn, static, optional: bool):
            values = static.get_values()
            if optional and not values:
                return
            print_dynamic_index_list(printer, DYNAMIC_INDEX, dyn, values)

        printer.print_string(" from ")
        printer.print_ssa_value(self.source)
        index_list(self.source_dyn_offsets, self.source_offsets, True)
        printer.print_string(" size ")
        index_list(self.source_dyn_sizes, self.source_sizes, False)
        printer.print_string(" to ")
        printer.print_ssa_value(self.dest)
        index_list(self.dest_dyn_offsets, self.dest_offsets, True)
        printer.print_string(" size ")
        index_list(self.dest_dyn_sizes, self.dest_sizes, False)
        attrs = dict(self.attributes)
        if self.transfer_mode is not None:
            attrs = {"transfer_mode": self.transfer_mode, **attrs}
        if attrs:
            printer.print_string(" ")
            printer.print_attr_dict(attrs)
        printer.print_string(" : ")
        printer.print_attribute(self.source.type)
        printer.print_string(", ")
        printer.print_attribute(self.dest.type)

    def __init__(self, source: SSAValue, source_offsets: Sequence[SSAValue | int],
                 source_sizes: Sequence[SSAValue | int], dest: SSAValue,
                 dest_offsets: Sequence[SSAValue | int], dest_sizes: Sequence[SSAValue | int],
                 transfer_mode: str | None = None):
        def split(items):
            dyn = [x for x in items if isinstance(x, SSAValue)]
            static = [DYNAMIC_INDEX if isinstance(x, SSAValue) else x for x in items]
            return dyn, DenseArrayBase.from_list(i64, static)

        so_d, so_s = split(source_offsets)
        ss_d, ss_s = split(source_sizes)
        do_d, do_s = split(dest_offsets)
        ds_d, ds_s = split(dest_sizes)
        props = {"source_offsets": so_s, "source_sizes": ss_s, "dest_offsets": do_s,
                 "dest_sizes": ds_s}
        if transfer_mode is not None:
            props["transfer_mode"] = StringAttr(transfer_mode)
        super().__init__(operands=[source, so_d, ss_d, dest, do_d, ds_d], properties=props)

    @property
    def mode(self) -> str:
        return self.transfer_mode.data if self.transfer_mode is not None else "copy"

    @staticmethod
    def _mixed(dyn: Sequence[SSAValue], static: DenseArrayBase) -> list[SSAValue | int]:
        it = iter(dyn)
        return [next(it) if v == DYNAMIC_INDEX else v for v in static.get_values()]

    def mixed_source_offsets(self) -> list[SSAValue | int]:
        return self._mixed(self.source_dyn_offsets, self.source_offsets)

    def mixed_source_sizes(self) -> list[SSAValue | int]:
        return self._mixed(self.source_dyn_sizes, self.source_sizes)

    def mixed_dest_offsets(self) -> list[SSAValue | int]:
        return self._mixed(self.dest_dyn_offsets, self.dest_offsets)

    def mixed_dest_sizes(self) -> list[SSAValue | int]:
        return self._mixed(self.dest_dyn_sizes, self.dest_sizes)

    def verify_(self) -> None:
        for side, value, offsets, dyn_off, sizes, dyn_sizes in (
            ("source", self.source, self.source_offsets, self.source_dyn_offsets,
             self.source_sizes, self.source_dyn_sizes),
            ("destination", self.dest, self.dest_offsets, self.dest_dyn_offsets,
             self.dest_sizes, self.dest_dyn_sizes),
        ):
            if not isinstance(value.type, MemRefType | FifoSlotType):
                raise VerifyException(
                    f"ktdf.data_transfer: the {side} must be a memref or a !ktdf.fifo.slot, "
                    f"got {value.type}")
            offs = offsets.get_values()
            if sum(1 for v in offs if v == DYNAMIC_INDEX) != len(dyn_off):
                raise VerifyException(f"ktdf.data_transfer: {side} offsets do not match "
                                      "their SSA operands")
            if sum(1 for v in sizes.get_values() if v == DYNAMIC_INDEX) != len(dyn_sizes):
                raise VerifyException(f"ktdf.data_transfer: {side} sizes do not match "
                                      "their SSA operands")
            rank = _endpoint_rank(value)
            if rank is None:
                if offs:
                    raise VerifyException(f"ktdf.data_transfer: a FIFO {side} takes no "
                                          "subscripts")
            elif len(offs) != rank:
                raise VerifyException(
                    f"ktdf.data_transfer: the {side} has rank {rank} but {len(offs)} subscripts")
            if any(v != DYNAMIC_INDEX and v < 0 for v in sizes.get_values()):
                raise VerifyException(f"ktdf.data_transfer: negative {side} size")
        if isinstance(self.source.type, FifoSlotType) and isinstance(self.dest.type, FifoSlotType):
            raise VerifyException("ktdf.data_transfer: FIFO to FIFO is not a transfer (a "
                                  "unit reads one FIFO and writes the other)")
        if self.mode not in TRANSFER_MODES:
            raise VerifyException(f"ktdf.data_transfer: transfer_mode must be one of "
                                  f"{', '.join(TRANSFER_MODES)}, got '{self.mode}'")
        src_el = _element_type(self.source.type)
        dst_el = _element_type(self.dest.type)
        if src_el != dst_el:
            raise VerifyException(f"ktdf.data_transfer: element types differ ({src_el} -> "
                                  f"{dst_el})")
        for side, sizes in (("source", self.source_sizes), ("destination", self.dest_sizes)):
            static = sizes.get_values()
            if (side == "source" and self.mode == "copy") and DYNAMIC_INDEX not in static:
                other = self.dest_sizes.get_values()
                if DYNAMIC_INDEX not in other and math.prod(static) != math.prod(other):
                    raise VerifyException(
                        f"ktdf.data_transfer: source moves {math.prod(static)} elements but "
                        f"the destination takes {math.prod(other)}")


def _element_type(t: Attribute) -> Attribute:
    return t.element_type if isinstance(t, MemRefType | FifoSlotType) else t


@irdl_op_definition
class ReadFromFifoOp(IRDLOperation):
    """A compute stage takes one vector from a FIFO slot."""

    name = "ktdf.read_from_fifo"

    slot = operand_def(FifoSlotType)
    result = result_def(TensorType)
    assembly_format = "$slot attr-dict `:` type($slot) `->` type($result)"

    def verify_(self) -> None:
        _verify_fifo_tensor(self, self.slot.type, self.result.type)


@irdl_op_definition
class WriteToFifoOp(IRDLOperation):
    """A compute stage pushes one vector into a FIFO slot."""

    name = "ktdf.write_to_fifo"

    value = operand_def(TensorType)
    slot = operand_def(FifoSlotType)
    assembly_format = "$value `,` $slot attr-dict `:` type($value) `,` type($slot)"

    def verify_(self) -> None:
        _verify_fifo_tensor(self, self.slot.type, self.value.type)


def _verify_fifo_tensor(op: Operation, slot: FifoSlotType, tensor: TensorType) -> None:
    if slot.element_type != tensor.element_type:
        raise VerifyException(f"{op.name}: the tensor's element type {tensor.element_type} "
                              f"is not the FIFO's {slot.element_type}")
    if math.prod(tensor.get_shape()) != math.prod(slot.get_shape()):
        raise VerifyException(f"{op.name}: the tensor holds {math.prod(tensor.get_shape())} "
                              f"elements but a FIFO slot {math.prod(slot.get_shape())}")


# ---------------------------------------------------------------------------------------
# Parallel instances
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ParallelOp(IRDLOperation):
    """A loop nest whose iterations split into contiguous blocks over `num_instances`
    identical hardware instances (`?`: the solver picks 1..max_instances under the name
    `decision`; 1 runs the loop on one instance)."""

    name = "ktdf.parallel"

    lower_bounds = var_operand_def(IndexType)
    upper_bounds = var_operand_def(IndexType)
    steps = var_operand_def(IndexType)
    num_instances = prop_def(IntegerAttr | OpenAttr)
    max_instances = prop_def(IntegerAttr)
    instance_group = prop_def(StringAttr)
    decision = prop_def(StringAttr)
    body = region_def("single_block")
    traits = traits_def(NoTerminator())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, lower: Sequence[SSAValue], upper: Sequence[SSAValue],
                 steps: Sequence[SSAValue], body: Region, num_instances: Attribute,
                 max_instances: int, instance_group: str, decision: str):
        super().__init__(
            operands=[list(lower), list(upper), list(steps)],
            properties={"num_instances": num_instances,
                        "max_instances": IntegerAttr(max_instances, i64),
                        "instance_group": StringAttr(instance_group),
                        "decision": StringAttr(decision)},
            regions=[body])

    @property
    def is_open(self) -> bool:
        return isinstance(self.num_instances, OpenAttr)

    @property
    def induction_vars(self):
        return _single_block(self.body).args

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        ivs = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        index = IndexType()

        def operands():
            ops = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand)
            return [parser.resolve_operand(o, index) for o in ops]

        lower = operands()
        parser.parse_keyword("to")
        upper = operands()
        parser.parse_keyword("step")
        steps = operands()
        parser.parse_keyword("distribute")
        parser.parse_punctuation("(")
        parser.parse_keyword("num_instances")
        parser.parse_punctuation("=")
        num = _parse_open_or_int(parser)
        parser.parse_punctuation(")")
        attrs = parser.parse_optional_attr_dict()
        region = parse_body(parser, [iv.resolve(index) for iv in ivs])
        props = {"num_instances": num}
        for key in ("max_instances", "instance_group", "decision"):
            if key not in attrs:
                parser.raise_error(f"ktdf.parallel needs `{key}` in its attribute dictionary")
            props[key] = attrs.pop(key)
        op = cls.build(operands=[lower, upper, steps], properties=props, regions=[region])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.induction_vars, printer.print_ssa_value)
        printer.print_string(") = (")
        printer.print_list(self.lower_bounds, printer.print_ssa_value)
        printer.print_string(") to (")
        printer.print_list(self.upper_bounds, printer.print_ssa_value)
        printer.print_string(") step (")
        printer.print_list(self.steps, printer.print_ssa_value)
        printer.print_string(") distribute(num_instances = ")
        _print_open_or_int(printer, self.num_instances)
        printer.print_string(") ")
        printer.print_attr_dict({"decision": self.decision, "instance_group": self.instance_group,
                                 "max_instances": self.max_instances, **dict(self.attributes)})
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        n = len(self.lower_bounds)
        if n == 0 or len(self.upper_bounds) != n or len(self.steps) != n:
            raise VerifyException("ktdf.parallel: needs as many lower bounds, upper bounds "
                                  "and steps as induction variables (at least one)")
        block = _single_block(self.body)
        if len(block.args) != n or any(not isinstance(a.type, IndexType) for a in block.args):
            raise VerifyException(f"ktdf.parallel: the body takes {n} index arguments")
        _check_decision_name(self, self.decision, "ktdf.parallel")
        top = self.max_instances.value.data
        if top < 1:
            raise VerifyException("ktdf.parallel: max_instances must be >= 1")
        value = _decision_value(self.num_instances)
        if value is not None and not 1 <= value <= top:
            raise VerifyException(
                f"ktdf.parallel: num_instances = {value} is outside its legal range "
                f"1..{top} (max_instances)")


# ---------------------------------------------------------------------------------------
# Tiling placeholders
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ReserveSizeOp(IRDLOperation):
    """A tile extent left to the solver: `decision` names it; the legal values v satisfy
    min_value <= v <= extent and (v % divisibility == 0 or v == extent), and v <= the value
    of `within` (the enclosing memory level's tile of the same dim) when given. `value` is set
    in the solved form."""

    name = "ktdf.tiling.reserve_size"

    decision = prop_def(StringAttr)
    extent = prop_def(IntegerAttr)
    min_value = prop_def(IntegerAttr)
    divisibility = prop_def(IntegerAttr)
    within = opt_prop_def(StringAttr)
    value = opt_prop_def(IntegerAttr)
    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, decision: str, extent: int, min_value: int, divisibility: int,
                 within: str | None = None, value: int | None = None):
        props: dict[str, Attribute] = {
            "decision": StringAttr(decision), "extent": IntegerAttr(extent, i64),
            "min_value": IntegerAttr(min_value, i64),
            "divisibility": IntegerAttr(divisibility, i64)}
        if within is not None:
            props["within"] = StringAttr(within)
        if value is not None:
            props["value"] = IntegerAttr(value, i64)
        super().__init__(properties=props, result_types=[IndexType()])

    @property
    def is_open(self) -> bool:
        return self.value is None

    def legal(self, v: int) -> bool:
        extent, low, div = (self.extent.value.data, self.min_value.value.data,
                            self.divisibility.value.data)
        return low <= v <= extent and (v % div == 0 or v == extent)

    def legal_values(self) -> list[int]:
        """Every legal value, ascending: the multiples of divisibility from min_value up,
        and the extent (counted, not tested one by one: a chunked reduction's extent is
        millions)."""
        extent, low, div = (self.extent.value.data, self.min_value.value.data,
                            self.divisibility.value.data)
        if low > extent:
            return []
        values = list(range(-(-low // div) * div, extent + 1, div))
        if not values or values[-1] != extent:
            values.append(extent)
        return values

    def verify_(self) -> None:
        _check_decision_name(self, self.decision, "ktdf.tiling.reserve_size")
        extent, low, div = (self.extent.value.data, self.min_value.value.data,
                            self.divisibility.value.data)
        if extent < 1 or low < 1 or div < 1:
            raise VerifyException("ktdf.tiling.reserve_size: extent, min_value and "
                                  "divisibility must be >= 1")
        if low > extent:
            raise VerifyException(f"ktdf.tiling.reserve_size: min_value {low} exceeds the "
                                  f"extent {extent}")
        if self.value is not None and not self.legal(self.value.value.data):
            raise VerifyException(
                f"ktdf.tiling.reserve_size: value {self.value.value.data} of "
                f"'{self.decision.data}' is not legal (needs {low} <= v <= {extent} and a "
                f"multiple of {div} or the whole extent)")


@irdl_op_definition
class KeepResidentOp(IRDLOperation):
    """A choice left to the solver: keep an input the program reads in several computes
    resident in scratchpad (1: the first compute's loads fill a `resident` buffer that
    every later compute reads; 0: each compute re-reads it from device memory into its
    own staging buffers). The buffer, the staging buffers and the transfers it affects
    carry `ktdf.keep = "<decision>"`; `value` is set in the solved form, and the
    `apply-keep` step rewrites the IR to the chosen form (docs/scheduleir.md).

    With `last_program = N` the choice spans programs: the program holding the op fills
    a scratchpad region that outlives it, and programs up to N read it instead of device
    memory (`keep-across-programs`; every program of the span names the region in its
    `ktdf.resident_regions`)."""

    name = "ktdf.keep_resident"

    decision = prop_def(StringAttr)
    operand = prop_def(StringAttr)
    value = opt_prop_def(IntegerAttr)
    last_program = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, decision: str, operand: str, value: int | None = None,
                 last_program: int | None = None):
        props: dict[str, Attribute] = {"decision": StringAttr(decision),
                                       "operand": StringAttr(operand)}
        if value is not None:
            props["value"] = IntegerAttr(value, i64)
        if last_program is not None:
            props["last_program"] = IntegerAttr(last_program, i64)
        super().__init__(properties=props)

    def verify_(self) -> None:
        _check_decision_name(self, self.decision, "ktdf.keep_resident")
        if self.value is not None and self.value.value.data not in (0, 1):
            raise VerifyException(f"ktdf.keep_resident: value of '{self.decision.data}' must "
                                  f"be 0 (re-read) or 1 (keep), got {self.value.value.data}")


@irdl_op_definition
class ShareFetchOp(IRDLOperation):
    """A choice left to the solver: an input every tile reads whole (the same box of
    device memory on every core) is fetched once and shared (1) or read by every core
    from device memory (0). Shared: program `fetch_program`, called just before this
    one, has each of `parts` cores load one slice of the box into a scratchpad region,
    and this program's cores read the slices from those scratchpads over the
    interconnect. The transfers it affects carry `ktdf.share = "<decision>"`; `value`
    is set in the solved form, and the `apply-share` step keeps the chosen form
    (docs/scheduleir.md, "Fetching an input once for all cores")."""

    name = "ktdf.share_fetch"

    decision = prop_def(StringAttr)
    operand = prop_def(StringAttr)
    parts = prop_def(IntegerAttr)
    fetch_program = prop_def(IntegerAttr)
    value = opt_prop_def(IntegerAttr)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, decision: str, operand: str, parts: int, fetch_program: int,
                 value: int | None = None):
        props: dict[str, Attribute] = {"decision": StringAttr(decision),
                                       "operand": StringAttr(operand),
                                       "parts": IntegerAttr(parts, i64),
                                       "fetch_program": IntegerAttr(fetch_program, i64)}
        if value is not None:
            props["value"] = IntegerAttr(value, i64)
        super().__init__(properties=props)

    def verify_(self) -> None:
        _check_decision_name(self, self.decision, "ktdf.share_fetch")
        if self.parts.value.data < 1:
            raise VerifyException(f"ktdf.share_fetch: '{self.decision.data}' needs at least "
                                  f"one part, got {self.parts.value.data}")
        if self.value is not None and self.value.value.data not in (0, 1):
            raise VerifyException(f"ktdf.share_fetch: value of '{self.decision.data}' must "
                                  f"be 0 (every core reads device memory) or 1 (fetch once "
                                  f"and share), got {self.value.value.data}")


@irdl_op_definition
class DeriveSizeOp(IRDLOperation):
    """The extent of the current tile: min(size, upper_bound - offset). Smaller than
    `size` only for the last, partial tile."""

    name = "ktdf.tiling.derive_size"

    offset = operand_def(IndexType)
    size = operand_def(IndexType)
    upper_bound = operand_def(IndexType)
    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$offset `,` $size `,` $upper_bound attr-dict `:` type($result)"

    def __init__(self, offset: SSAValue, size: SSAValue, upper_bound: SSAValue):
        super().__init__(operands=[offset, size, upper_bound], result_types=[IndexType()])


@irdl_op_definition
class LinearizeIndexOp(IRDLOperation):
    """The original loop index of a point: tile index + point index."""

    name = "ktdf.tiling.linearize_index"

    tile_index = operand_def(IndexType)
    point_index = operand_def(IndexType)
    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "$tile_index `,` $point_index attr-dict `:` type($result)"

    def __init__(self, tile_index: SSAValue, point_index: SSAValue):
        super().__init__(operands=[tile_index, point_index], result_types=[IndexType()])


# ---------------------------------------------------------------------------------------
# Rotating buffers (materialised modulo buffering)
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class BufferPhaseOp(IRDLOperation):
    """Which copy (0..N-1) of the enclosing modulo(size: N) pipeline's resources the
    current iteration uses."""

    name = "ktdf.buffer_phase"

    result = result_def(IndexType)
    traits = traits_def(NoMemoryEffect())
    assembly_format = "attr-dict `:` type($result)"

    def verify_(self) -> None:
        parent = self.parent_op()
        while parent is not None and not isinstance(parent, PipelineOp):
            parent = parent.parent_op()
        if parent is None:
            raise VerifyException("ktdf.buffer_phase: only inside a ktdf.pipeline")


@irdl_op_definition
class SelectMemrefOp(IRDLOperation):
    """One of N same-typed buffers, chosen by a phase index (0-based)."""

    name = "ktdf.select_memref"

    phase = operand_def(IndexType)
    choices = var_operand_def(MemRefType)
    result = result_def(MemRefType)
    traits = traits_def(NoMemoryEffect())

    def verify_(self) -> None:
        if not self.choices:
            raise VerifyException("ktdf.select_memref: needs at least one buffer")
        for c in self.choices:
            if c.type != self.result.type:
                raise VerifyException("ktdf.select_memref: every choice must have the "
                                      "result's type")

    @classmethod
    def parse(cls, parser: Parser) -> SelectMemrefOp:
        phase = parser.parse_unresolved_operand()
        choices = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        rtype = parser.parse_type()
        op = cls.build(operands=[parser.resolve_operand(phase, IndexType()),
                                 [parser.resolve_operand(c, rtype) for c in choices]],
                       result_types=[rtype])
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.phase)
        printer.print_string(" [")
        printer.print_list(self.choices, printer.print_ssa_value)
        printer.print_string("]")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(dict(self.attributes))
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)


@irdl_op_definition
class GatherViewOp(IRDLOperation):
    """The tensor an indirect access tile reads or writes, seen as a view of its own.

    `%G = ktdf.gather_view` of `source` has one dimension per intermediate variable of
    the tile (extents `extents`, first coordinate `lows`): `G[v] = source[c(v)]`, where
    view dim k's coordinate c_k(v) is `index_views[j][index_maps[j](v)]` when
    `ind_dims[k] = j >= 0`, else `dim_map`'s result k (affine in v and the `outer`
    values, the maps' symbols). Everything before the lowering treats G as a plain view
    (boxes of it are tiled, staged and moved); the lowering turns a move of a box of G
    into an index fetch and an indirect transfer."""

    name = "ktdf.gather_view"

    source = operand_def(MemRefType)
    index_views = var_operand_def(MemRefType)
    outer = var_operand_def(IndexType)
    ind_dims = prop_def(DenseArrayBase)
    dim_map = prop_def(AffineMapAttr)
    index_maps = prop_def(ArrayAttr[AffineMapAttr])
    lows = prop_def(DenseArrayBase)
    extents = prop_def(DenseArrayBase)
    result = result_def(MemRefType)

    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    traits = traits_def(NoMemoryEffect())
    assembly_format = ("$source `indices` `(` $index_views `)` `outer` `(` $outer `)` attr-dict "
                       "`:` type($source) `,` `(` type($index_views) `)` `->` type($result)")

    def verify_(self) -> None:
        rank = len(self.lows.get_values())
        if len(self.extents.get_values()) != rank:
            raise VerifyException("ktdf.gather_view: lows and extents differ in length")
        rtype = self.result.type
        assert isinstance(rtype, MemRefType)
        if list(rtype.get_shape()) != list(self.extents.get_values()):
            raise VerifyException(f"ktdf.gather_view: the result type's shape "
                                  f"{list(rtype.get_shape())} is not the extents "
                                  f"{list(self.extents.get_values())}")
        stype = self.source.type
        assert isinstance(stype, MemRefType)
        ind = self.ind_dims.get_values()
        if len(ind) != stype.get_num_dims():
            raise VerifyException("ktdf.gather_view: one ind_dims entry per source dim")
        if len(self.index_maps.data) != len(self.index_views):
            raise VerifyException("ktdf.gather_view: one index map per index view")


KTDF = Dialect(
    "ktdf",
    [
        PipelineOp, PrivateOp, PrivateYieldOp, BufferOp, FifoOp, TokenOp, StageOp,
        DataTransferOp, ReadFromFifoOp, WriteToFifoOp, ParallelOp, ReserveSizeOp,
        DeriveSizeOp, LinearizeIndexOp, BufferPhaseOp, SelectMemrefOp, KeepResidentOp,
        ShareFetchOp,
        GatherViewOp,
    ],
    [TokenType, FifoSlotType, LoopTypeAttr, OpenAttr],
)


# ---------------------------------------------------------------------------------------
# Decisions: find, tell open from solved, fill in (used by solve and lower)
# ---------------------------------------------------------------------------------------

DecisionOp = ReserveSizeOp | PipelineOp | ParallelOp | KeepResidentOp | ShareFetchOp


def decision_ops(root: Operation) -> dict[str, DecisionOp]:
    """Every decision under `root` by name (reserve_size, modulo pipelines, parallel
    loops), in IR order. Two ops with one name are an error."""
    found: dict[str, DecisionOp] = {}
    for op in root.walk():
        if isinstance(op, PipelineOp) and op.modulo is None:
            continue
        if isinstance(op, ReserveSizeOp | PipelineOp | ParallelOp | KeepResidentOp
                      | ShareFetchOp) and \
                op.decision is not None:
            name = op.decision.data
            if name in found:
                raise VerifyException(f"decision '{name}' is named twice ({found[name].name} "
                                      f"and {op.name})")
            found[name] = op
    return found


def decision_value(op: DecisionOp) -> int | None:
    """The chosen value, or None while open."""
    if isinstance(op, ReserveSizeOp | KeepResidentOp | ShareFetchOp):
        return None if op.value is None else op.value.value.data
    if isinstance(op, PipelineOp):
        return _decision_value(op.modulo)
    return _decision_value(op.num_instances)


def open_decisions(root: Operation) -> list[str]:
    return [name for name, op in decision_ops(root).items() if decision_value(op) is None]


def set_decision(op: DecisionOp, value: int) -> None:
    """Fill in a decision (the solved form); the op's verifier checks the legal range."""
    attr = IntegerAttr(value, i64)
    if isinstance(op, ReserveSizeOp | KeepResidentOp | ShareFetchOp):
        op.value = attr
    elif isinstance(op, PipelineOp):
        op.modulo = attr
    else:
        op.num_instances = attr
    op.verify_()


def verify_solved(root: Operation) -> None:
    """Raise unless every decision has a value (what the lowering requires)."""
    missing = open_decisions(root)
    if missing:
        raise VerifyException("the ScheduleIR still has open decisions: " + ", ".join(missing))


# ---------------------------------------------------------------------------------------
# FIFO phases: which FIFOs may hold entries at the same time (used by solve and lower)
# ---------------------------------------------------------------------------------------


OWNER_BY_TILE_ATTR = "ktdf.owner_by_tile"
"""On a `ktdp.construct_memory_view` of another core's scratchpad (`ct_local, ct_id`): the
core whose scratchpad it names, per reading tile (tile t reads core `owners[t]`'s;
`ct_id` is tile 0's). The ring reads of a shared input (`share-fetch`) name their owners
so, each tile reading a different owner at each step."""
STORED_FROM_OTHER_CORES_ATTR = "ktdf.stored_from_other_cores"
"""On a `ktdp.construct_memory_view` of a named core's scratchpad: some tile of another
core stores through it (`mark-remote-stores`), so its stores cross the interconnect from
the storing core's own scratchpad."""
SCRATCHPAD_ARGUMENTS_ATTR = "ktdf.scratchpad_arguments"
"""On the kernel function: the pointer arguments it views only in scratchpads, each with
the element offset the compiler placed it at (the same in every scratchpad it uses), its
element type, shape and role (`place-scratchpad-arguments`); the job plan passes them on
and the runtime places the tensors there."""
WORKSPACES_ATTR = "ktdf.workspaces"
"""On the kernel function: the pointer arguments the compiler added as device memory for
intermediates it sends there (`intermediates-in-memory`); the job plan gives them role
`workspace` and the runtime allocates them."""


def workspaces(kernel: Operation) -> list[str]:
    """The names of the kernel's workspace arguments (`WORKSPACES_ATTR`)."""
    attr = kernel.attributes.get(WORKSPACES_ATTR)
    return [a.data for a in attr.data] if isinstance(attr, ArrayAttr) else []  # type: ignore[attr-defined]


FIFO_DEPTH_ATTR = "ktdf.depth"
"""On a `ktdf.fifo`: the entries of its datapath's queue the solver gave it (without it,
the lowering splits the queue evenly among the FIFOs of one phase)."""
CHUNK_ATTR = "ktdf.vectors_per_instruction"
"""On the `ktdf.parallel` vector loop of an elementwise FIFO pipeline: the most vectors
one instruction moves and computes (the lowering takes the largest divisor of each
instance's vectors up to it)."""
MASKED_VIEW_ATTR = "ktdf.masked"
"""On a `ktdp.construct_memory_view`: some access tile sticks out of its coordinate set
(for some tile, iteration or run-time size), so the positions outside it are masked
(`mark-masked-views`); the lowering clips the view's transfers to the set at run time."""
CHUNK_MODE_ATTR = "ktdf.chunk_mode"
"""Beside `ktdf.vectors_per_instruction`: `held` (every FIFO of the pipeline keeps a whole
chunk) or `streaming` (a chunk flows through FIFOs shallower than it); for the reader."""


def fifo_phase(op: Operation) -> tuple[int, int]:
    """The phase of a FIFO slot (its `ktdf.fifo` op, or any op inside the pipeline that
    owns it): the position of the top-level op of the function around it, and, when that
    op is a `ktdf.pipeline` (a program's run-once pipeline, one stage per compute), the
    index of the stage holding it (else -1).

    Every engine runs a run-once pipeline's stages one after the other in IR order, so the
    FIFOs of different stages carry the entries of different phases: a unit pushes and
    pops all of one phase's entries before any of the next one's. Such FIFOs can take the
    datapath's queue in turns (docs/dataflowir.md, `dataflow.fifo`); FIFOs of one phase
    need it at the same time. A top-level loop is one phase as a whole."""
    top, child = op, None
    while top.parent_op() is not None and not isinstance(top.parent_op(), FuncOp):
        child, top = top, top.parent_op()
    block = top.parent_block()
    position = list(block.ops).index(top) if block is not None else 0
    if isinstance(top, PipelineOp) and isinstance(child, StageOp):
        return position, top.stages.index(child)
    return position, -1
