"""`ktdf_arch`: the architecture description of a dataflow accelerator.

A device file is a graph. Nodes are memories (`memory`) and execution units (`exec_unit`,
plus `switch` interconnects); edges are directed `datapath`s; `group`s scope resources
the way the hardware does (a group of kind "core" owns a scratchpad, its sub-groups are
the corelets) and may be replicated with `count`. Every timing figure the scheduler and
the emulator use lives here.

Concrete syntax (everything prints back in the same form). A complete small device, two
cores on a ring, each with two corelets (tests load this very text)::

    #L1 = {kind = "L1", size = 1048576}
    ktdf_arch.device @tiny attributes {
        clock = #ktdf_arch.clock<1 GHz>,
        mem_space_mapping = #ktdf_arch.map<global = "DDR", ct_local = "L1">} {
      %ddr = ktdf_arch.memory @ddr {kind = "DDR", size = 1073741824}
      %l1s = ktdf_arch.group @core {kind = "core", count = 2} share(%ddr) {
        %l1 = ktdf_arch.memory @l1 #L1
        %dma = ktdf_arch.exec_unit @dma_load {kind = "dma", features = [
                 #ktdf_arch.feature.load<word_size = 64, access_granularity = 64>]}
        ktdf_arch.datapath %ddr to %dma {transfer_granularity = 64, bandwidth = 256,
                                         latency = 100} : memory, exec_unit
        ktdf_arch.datapath %dma to %l1 {bandwidth = 256} : exec_unit, memory
        %sfus = ktdf_arch.group @corelet {kind = "corelet", count = 2} share(%l1) {
          %ld = ktdf_arch.exec_unit @l1_load {kind = "load", features = [
                  #ktdf_arch.feature.load<word_size = 128, access_granularity = 64>]}
          %sfu = ktdf_arch.exec_unit @sfu {kind = "sfu", features = [
                   #ktdf_arch.feature.compute<class = "vector", register_file = 2048>,
                   #ktdf_arch.feature.simd<lanes = {f16 = 64, f32 = 32}, splat, zero_pad>]}
          ktdf_arch.datapath %l1 to %ld {bandwidth = 128, latency = 4} : memory, exec_unit
          ktdf_arch.datapath %ld to %sfu {bandwidth = 128,
              queue = #ktdf_arch.feature.queue<depth = 16, ordered>} : exec_unit, exec_unit
          ktdf_arch.yield %sfu
        } -> exec_unit
        ktdf_arch.yield %l1
      } -> memory
      ktdf_arch.switch @ring ports(%l1s) {topology = "ring", bidirectional,
                                          bandwidth = 128, latency = 2}
      ktdf_arch.patterns ["pre_mapping"] {
        pdl.pattern @expand_silu : benefit(1) {
          %x = pdl.operand
          %t = pdl.type : f16
          %silu = pdl.operation "spyreop.silu" (%x : !pdl.value) -> (%t : !pdl.type)
          pdl.rewrite %silu {
            %sig = pdl.operation "spyreop.sigmoid" (%x : !pdl.value) -> (%t : !pdl.type)
            %s = pdl.result 0 of %sig
            %mul = pdl.operation "arith.mulf" (%x, %s : !pdl.value, !pdl.value)
                     -> (%t : !pdl.type)
            pdl.replace %silu with %mul
          }
        }
      }
    }

Instances are named by their group path: `ddr`, `core1.l1`, `core1.corelet0.sfu`,
`ring.stop1`. Another file may reuse a device, overriding its attributes::

    ktdf_arch.device @slow_tiny import("tiny.mlir") attributes {clock = #ktdf_arch.clock<500 MHz>}

The import path is relative to the importing file.

Ops
  `device @name [import("path")] [attributes {...}] [{ body }]`: one device; device-level
      attributes: `clock` (#ktdf_arch.clock<N MHz|GHz>), `mem_space_mapping`
      (#ktdf_arch.map from KTIR memory spaces to memory kinds), `description`.
  `%m = memory [@name] {kind, size, [bandwidth], [latency]}` (or `memory @name #ALIAS`):
      size in bytes; bandwidth is the memory's total bytes per cycle over all its ports
      (shared by every reader); latency is its read latency in cycles.
      A name is `@name`, or else the SSA name (`%l1`).
  `%u = exec_unit [@name] {kind, features = [...], [latency]}`.
  `datapath %a to %b {transfer_granularity, bandwidth, latency, queue} : T, T`: a
      directed edge; bandwidth in bytes per cycle, latency in cycles, queue a
      `#ktdf_arch.feature.queue<depth = N, ordered>` when the edge is a FIFO. The
      properties may come first instead, as an alias (`datapath #ALIAS %a to %b : T, T`,
      the published scheduler's spelling).
  `%r... = group [@name] {kind, [count]} share(%mem, ...) { ... yield %v... } -> T...`:
      `share` lists the outer memories the group's units reach; `count = N` makes N
      instances named name0..name{N-1}; a yielded value stands for all its instances.
  `switch [@name] ports(%v, ...) {topology = "ring"|"crossbar", [bidirectional],
      bandwidth, latency}`: an interconnect with one stop per port instance.
  `patterns ["checkpoint", ...] { pdl.pattern ... }`: device rewrite patterns.

Attributes: `#ktdf_arch.map<k = v, ...>`, `#ktdf_arch.clock<1.5 GHz>`,
`#ktdf_arch.feature.compute<...>`, `.load<word_size, access_granularity>`,
`.store<word_size, access_granularity>`, `.simd<lanes = {f16 = 64}, splat, zero_pad>`,
`.queue<depth = 16, ordered>`. Inside `<...>` a bare key is a flag (unit attribute).
Types `!ktdf_arch.memory` and `!ktdf_arch.exec_unit`, written `memory` / `exec_unit`
after the `:` or `->` of the ops above.

Semantic rules (sizes present, names unique, routes exist, ...) are checked by
`spyre_sched.device.load`, which knows source locations; the parser here only checks form.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
    operand_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, NoTerminator
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.syntax import parse_body
from spyre_sched.xdsl_compat import MLIRTokenKind, current_token

# ---- types ------------------------------------------------------------------------------


@irdl_attr_definition
class MemoryType(ParametrizedAttribute, TypeAttribute):
    """The value of a `memory` op: a named storage with a size."""

    name = "ktdf_arch.memory"


@irdl_attr_definition
class ExecUnitType(ParametrizedAttribute, TypeAttribute):
    """The value of an `exec_unit` op (or a switch stop): something that moves or computes."""

    name = "ktdf_arch.exec_unit"


_TYPE_WORDS: dict[str, type[ParametrizedAttribute]] = {
    "memory": MemoryType,
    "exec_unit": ExecUnitType,
}


def _parse_type_word(parser: Parser) -> Attribute:
    pos = parser.pos
    word = parser.parse_optional_identifier()
    if word not in _TYPE_WORDS:
        parser.raise_error("expected 'memory' or 'exec_unit'", pos, parser.pos)
    return _TYPE_WORDS[word]()


def _type_word(t: Attribute) -> str:
    return "memory" if isinstance(t, MemoryType) else "exec_unit"


# ---- attributes -------------------------------------------------------------------------

# What a feature's value may be, and how a message names it.
_INTEGER: tuple[type[Attribute], ...] = (IntegerAttr,)
_STRING: tuple[type[Attribute], ...] = (StringAttr,)
_FLAG: tuple[type[Attribute], ...] = (UnitAttr,)
_DICTIONARY: tuple[type[Attribute], ...] = (DictionaryAttr,)
_KIND_WORDS = {_INTEGER: "an integer", _STRING: "a string", _FLAG: "a flag (a bare key)",
               _DICTIONARY: "a dictionary {name = integer, ...}"}


class _KeyValueAttr(ParametrizedAttribute):
    """`<key = value, flag, ...>`: the common form of maps and features.

    A typed attribute: `KEYS` maps each allowed key to what its value must be (None: any
    key, any value) and `REQUIRED` lists the keys that must be present. The parser checks
    keys at their own position in the file; `verify` (run whenever the attribute is built,
    so also by `module.verify()` on IR a pass made) checks keys, value kinds and required
    keys, so a misspelt key or a string where a number belongs never reaches the loader.
    """

    KEYS: ClassVar[dict[str, tuple[type[Attribute], ...]] | None] = None
    REQUIRED: ClassVar[tuple[str, ...]] = ()
    #: keys may also be written as attributes (`#ktdp.memory_space<global> = "DDR"`)
    ATTRIBUTE_KEYS: ClassVar[bool] = False
    entries: DictionaryAttr

    @classmethod
    def allowed_keys(cls) -> tuple[str, ...] | None:
        return None if cls.KEYS is None else tuple(cls.KEYS)

    def __init__(self, entries: DictionaryAttr | dict[str, Attribute]):
        if not isinstance(entries, DictionaryAttr):
            entries = DictionaryAttr(entries)
        super().__init__(entries)

    def verify(self) -> None:
        if self.KEYS is None:
            return
        for key, value in self.entries.data.items():
            if key not in self.KEYS:
                raise VerifyException(
                    f"unknown key '{key}' in {self.name}; expected one of "
                    + ", ".join(self.KEYS))
            kinds = self.KEYS[key]
            if not isinstance(value, kinds):
                raise VerifyException(
                    f"{self.name}: '{key}' must be {_KIND_WORDS[kinds]}, got {value}")
            if isinstance(value, DictionaryAttr) and not all(
                    isinstance(v, IntegerAttr) for v in value.data.values()):
                raise VerifyException(
                    f"{self.name}: every entry of '{key}' must be an integer, got {value}")
        for key in self.REQUIRED:
            if key not in self.entries.data:
                raise VerifyException(f"{self.name} needs {key}")

    @property
    def values(self) -> dict[str, Attribute]:
        return dict(self.entries.data)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        entries: dict[str, Attribute] = {}

        def parse_entry() -> None:
            pos = parser.pos
            key = parser.parse_optional_identifier_or_str_literal()
            if key is None and cls.ATTRIBUTE_KEYS and current_token(parser).text.startswith("#"):
                key = _attribute_key(parser.parse_attribute())
            if key is None:
                parser.raise_error("expected a key", pos, parser.pos)
            allowed = cls.allowed_keys()
            if allowed is not None and key not in allowed:
                parser.raise_error(
                    f"unknown key '{key}' in {cls.name}; expected one of "
                    + ", ".join(allowed),
                    pos,
                    parser.pos,
                )
            if key in entries:
                parser.raise_error(f"duplicate key '{key}'", pos, parser.pos)
            if parser.parse_optional_punctuation("=") is None:
                entries[key] = UnitAttr()
            else:
                entries[key] = parser.parse_attribute()

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
        return (DictionaryAttr(entries),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():

            def print_entry(item: tuple[str, Attribute]) -> None:
                key, value = item
                printer.print_identifier_or_string_literal(key)
                if not isinstance(value, UnitAttr):
                    printer.print_string(" = ")
                    printer.print_attribute(value)

            printer.print_list(self.entries.data.items(), print_entry)


@irdl_attr_definition
class MapAttr(_KeyValueAttr):
    """`#ktdf_arch.map<global = "DDR", ct_local = "L1">`: a plain key -> value map."""

    name = "ktdf_arch.map"
    ATTRIBUTE_KEYS: ClassVar[bool] = True


def _attribute_key(attr: Attribute) -> str:
    """A map key written as a memory-space attribute names its space (`global`,
    `ct_local`), as the dataflow scheduler's device declarations write it."""
    space = getattr(attr, "space", None)
    return space if isinstance(space, str) else str(attr)


@irdl_attr_definition
class ComputeFeature(_KeyValueAttr):
    """The unit computes. `class` = "vector" | "matrix"; `rows`/`cols` for a systolic array;
    `macs = {f16 = N, ...}` multiply-accumulates per cycle per operand element type and
    `accumulator` the widest element type it keeps partial sums in (a matrix unit);
    `register_file` in bytes; `latency` in cycles from operands to result."""

    name = "ktdf_arch.feature.compute"
    KEYS = {"class": _STRING, "rows": _INTEGER, "cols": _INTEGER, "macs": _DICTIONARY,
            "accumulator": _STRING, "register_file": _INTEGER, "latency": _INTEGER}


@irdl_attr_definition
class LoadFeature(_KeyValueAttr):
    """The unit reads memory: `word_size` bytes per access, addresses a multiple of
    `access_granularity` bytes."""

    name = "ktdf_arch.feature.load"
    KEYS = {"word_size": _INTEGER, "access_granularity": _INTEGER}
    REQUIRED = ("word_size", "access_granularity")


@irdl_attr_definition
class StoreFeature(_KeyValueAttr):
    """The unit writes memory; same figures as `load`."""

    name = "ktdf_arch.feature.store"
    KEYS = {"word_size": _INTEGER, "access_granularity": _INTEGER}
    REQUIRED = ("word_size", "access_granularity")


@irdl_attr_definition
class SimdFeature(_KeyValueAttr):
    """`lanes = {f16 = 64, f32 = 32, df16 = 64}` elements per vector instruction;
    `splat` (broadcast a scalar) and `zero_pad` (pad a partial vector) are flags."""

    name = "ktdf_arch.feature.simd"
    KEYS = {"lanes": _DICTIONARY, "splat": _FLAG, "zero_pad": _FLAG}
    REQUIRED = ("lanes",)


@irdl_attr_definition
class QueueFeature(_KeyValueAttr):
    """A FIFO: `depth` entries; `ordered` if entries leave in arrival order."""

    name = "ktdf_arch.feature.queue"
    KEYS = {"depth": _INTEGER, "ordered": _FLAG}
    REQUIRED = ("depth",)


_CLOCK_UNITS = {"Hz": 1, "kHz": 10**3, "MHz": 10**6, "GHz": 10**9}


@irdl_attr_definition
class ClockAttr(ParametrizedAttribute):
    """`#ktdf_arch.clock<1.2 GHz>`: the device clock. Stored in Hz; prints in its unit."""

    name = "ktdf_arch.clock"
    hz: IntAttr
    unit: StringAttr

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        value = parser.parse_number(context_msg=" for the clock frequency")
        pos = parser.pos
        unit = parser.parse_optional_identifier()
        if unit not in _CLOCK_UNITS:
            parser.raise_error("expected a clock unit: Hz, kHz, MHz or GHz", pos, parser.pos)
        if value <= 0:
            parser.raise_error("the clock frequency must be positive", pos, parser.pos)
        parser.parse_punctuation(">")
        return (IntAttr(round(value * _CLOCK_UNITS[unit])), StringAttr(unit))

    def print_parameters(self, printer: Printer) -> None:
        scale = _CLOCK_UNITS[self.unit.data]
        value = self.hz.data / scale
        text = str(int(value)) if value == int(value) else repr(value)
        printer.print_string(f"<{text} {self.unit.data}>")


# ---- ops --------------------------------------------------------------------------------


def _parse_value_use(parser: Parser, what: str) -> SSAValue:
    """An already-defined SSA value, without a type: units and memories are always
    defined before use, so an unknown name is reported here, at its own position."""
    unresolved = parser.parse_unresolved_operand(f"expected {what}")
    values = parser.ssa_values.get(unresolved.operand_name)
    if values is None or unresolved.index >= len(values):
        parser.raise_error(
            f"{what} refers to unknown unit or memory %{unresolved.operand_name}",
            unresolved.span,
        )
    return values[unresolved.index]


def _parse_spec_dict(parser: Parser) -> dict[str, Attribute]:
    """`{...}` or an alias (`#L1`) of a dictionary attribute."""
    if current_token(parser).kind != MLIRTokenKind.HASH_IDENT:
        return parser.parse_optional_attr_dict()
    pos = parser.pos
    attr = parser.parse_optional_attribute()
    if attr is None:
        return {}
    if not isinstance(attr, DictionaryAttr):
        parser.raise_error("expected a dictionary {key = value, ...}", pos, parser.pos)
    return dict(attr.data)


def _print_name_and_spec(printer: Printer, op: IRDLOperation) -> None:
    name = op.properties.get("sym_name")
    if isinstance(name, StringAttr):
        printer.print_string(" ")
        printer.print_symbol_name(name.data)
    if op.attributes:
        printer.print_string(" ")
        printer.print_attr_dict(op.attributes)


@irdl_op_definition
class MemoryOp(IRDLOperation):
    name = "ktdf_arch.memory"
    sym_name = opt_prop_def(StringAttr)
    result = result_def(MemoryType)

    def __init__(self, name: str | None, spec: dict[str, Attribute]):
        super().__init__(
            result_types=[MemoryType()],
            properties={"sym_name": StringAttr(name)} if name else {},
            attributes=spec,
        )

    @classmethod
    def parse(cls, parser: Parser) -> MemoryOp:
        name = parser.parse_optional_symbol_name()
        return cls(name.data if name else None, _parse_spec_dict(parser))

    def print(self, printer: Printer) -> None:
        _print_name_and_spec(printer, self)


@irdl_op_definition
class ExecUnitOp(IRDLOperation):
    name = "ktdf_arch.exec_unit"
    sym_name = opt_prop_def(StringAttr)
    result = result_def(ExecUnitType)

    def __init__(self, name: str | None, spec: dict[str, Attribute]):
        super().__init__(
            result_types=[ExecUnitType()],
            properties={"sym_name": StringAttr(name)} if name else {},
            attributes=spec,
        )

    @classmethod
    def parse(cls, parser: Parser) -> ExecUnitOp:
        name = parser.parse_optional_symbol_name()
        return cls(name.data if name else None, _parse_spec_dict(parser))

    def print(self, printer: Printer) -> None:
        _print_name_and_spec(printer, self)


@irdl_op_definition
class DatapathOp(IRDLOperation):
    """`datapath %a to %b {props} : T, T`: data can move from %a to %b."""

    name = "ktdf_arch.datapath"
    source = operand_def()
    target = operand_def()

    def __init__(self, source: SSAValue, target: SSAValue, spec: dict[str, Attribute]):
        super().__init__(operands=[source, target], attributes=spec)

    @classmethod
    def parse(cls, parser: Parser) -> DatapathOp:
        # The published scheduler's spelling names the properties first, by an alias:
        # `datapath #DDR_L1 %a to %b : T, T`; they mean what a trailing `{...}` means.
        leading_pos = parser.pos
        leading = (_parse_spec_dict(parser)
                   if current_token(parser).kind == MLIRTokenKind.HASH_IDENT else {})
        leading_end = parser.pos
        source = _parse_value_use(parser, "datapath source")
        parser.parse_keyword("to")
        start = parser.pos
        target = _parse_value_use(parser, "datapath target")
        if target is source:
            parser.raise_error(
                "a datapath must join two different units or memories, not "
                f"%{source.name_hint or '?'} to itself", start, parser.pos)
        trailing = parser.parse_optional_attr_dict()
        both = sorted(set(leading) & set(trailing))
        if both:
            parser.raise_error(
                f"the datapath's {', '.join(both)} is given twice: in the leading "
                "properties and in the trailing {...}", leading_pos, leading_end)
        spec = {**leading, **trailing}
        parser.parse_punctuation(":")
        for value in (source, target):
            pos = parser.pos
            declared = _parse_type_word(parser)
            if declared != value.type:
                parser.raise_error(
                    f"declared '{_type_word(declared)}' but the value is a "
                    f"'{_type_word(value.type)}'",
                    pos,
                    parser.pos,
                )
            if value is source:
                parser.parse_punctuation(",")
        return cls(source, target, spec)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.source)
        printer.print_string(" to ")
        printer.print_operand(self.target)
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(
            f" : {_type_word(self.source.type)}, {_type_word(self.target.type)}"
        )


@irdl_op_definition
class GroupOp(IRDLOperation):
    """A scope of resources (a core, a corelet), optionally replicated `count` times."""

    name = "ktdf_arch.group"
    sym_name = opt_prop_def(StringAttr)
    shared = var_operand_def(MemoryType)
    outputs = var_result_def()
    body = region_def()
    traits = traits_def(NoTerminator())

    def __init__(
        self,
        name: str | None,
        spec: dict[str, Attribute],
        shared: Sequence[SSAValue],
        body,
        result_types: Sequence[Attribute],
    ):
        super().__init__(
            operands=[shared],
            result_types=[result_types],
            properties={"sym_name": StringAttr(name)} if name else {},
            attributes=spec,
            regions=[body],
        )

    @classmethod
    def parse(cls, parser: Parser) -> GroupOp:
        name = parser.parse_optional_symbol_name()
        spec = parser.parse_optional_attr_dict()
        shared: list[SSAValue] = []
        if parser.parse_optional_keyword("share") is not None:
            shared = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, lambda: _parse_value_use(parser, "share")
            )
            for value in shared:
                if not isinstance(value.type, MemoryType):
                    parser.raise_error("a group shares memories only, not units")
        body = parse_body(parser)
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, lambda: _parse_type_word(parser)
            )
        return cls(name.data if name else None, spec, shared, body, result_types)

    def print(self, printer: Printer) -> None:
        _print_name_and_spec(printer, self)
        if self.shared:
            printer.print_string(" share(")
            printer.print_list(self.shared, printer.print_operand)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        if self.outputs:
            printer.print_string(" -> ")
            printer.print_list(
                self.outputs, lambda r: printer.print_string(_type_word(r.type))
            )

    @property
    def yielded(self) -> Sequence[SSAValue]:
        block = self.body.block
        last = block.last_op
        return last.values if isinstance(last, YieldOp) else ()


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a group; its operands become the group's results."""

    name = "ktdf_arch.yield"
    values = var_operand_def()
    traits = traits_def(HasParent(GroupOp))

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        values: list[SSAValue] = []
        if current_token(parser).text.startswith("%"):
            values = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, lambda: _parse_value_use(parser, "yield")
            )
        return cls(values)

    def print(self, printer: Printer) -> None:
        if self.values:
            printer.print_string(" ")
            printer.print_list(self.values, printer.print_operand)


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """An interconnect: one stop per port instance, linked as its `topology` says."""

    name = "ktdf_arch.switch"
    sym_name = opt_prop_def(StringAttr)
    ports = var_operand_def()

    def __init__(self, name: str | None, ports: Sequence[SSAValue], spec):
        super().__init__(
            operands=[ports],
            properties={"sym_name": StringAttr(name)} if name else {},
            attributes=spec,
        )

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        name = parser.parse_optional_symbol_name()
        parser.parse_keyword("ports")
        ports = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: _parse_value_use(parser, "switch port")
        )
        spec = parser.parse_optional_attr_dict()
        return cls(name.data if name else None, ports, spec)

    def print(self, printer: Printer) -> None:
        name = self.sym_name
        if name is not None:
            printer.print_string(" ")
            printer.print_symbol_name(name.data)
        printer.print_string(" ports(")
        printer.print_list(self.ports, printer.print_operand)
        printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)


@irdl_op_definition
class PatternsOp(IRDLOperation):
    """`patterns ["checkpoint", ...] { pdl.pattern ... }`: device rewrite patterns."""

    name = "ktdf_arch.patterns"
    checkpoints = opt_prop_def(ArrayAttr)
    body = region_def()
    traits = traits_def(NoTerminator())

    def __init__(self, checkpoints: ArrayAttr, body):
        super().__init__(properties={"checkpoints": checkpoints}, regions=[body])

    @classmethod
    def parse(cls, parser: Parser) -> PatternsOp:
        pos = parser.pos
        checkpoints = parser.parse_attribute()
        if not isinstance(checkpoints, ArrayAttr) or not all(
            isinstance(c, StringAttr) for c in checkpoints.data
        ):
            parser.raise_error('expected a list of checkpoint names ["..."]', pos, parser.pos)
        return cls(checkpoints, parse_body(parser))

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_attribute(self.checkpoints)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    @property
    def checkpoint_names(self) -> list[str]:
        return [c.data for c in self.checkpoints.data] if self.checkpoints else []


@irdl_op_definition
class DeviceOp(IRDLOperation):
    """One device: a body, or `import("path")` of another file's device."""

    name = "ktdf_arch.device"
    sym_name = opt_prop_def(StringAttr)
    import_path = opt_prop_def(StringAttr)
    body = region_def()
    traits = traits_def(NoTerminator())

    def __init__(self, name: str, import_path: str | None, attributes, body):
        props: dict[str, Attribute] = {"sym_name": StringAttr(name)}
        if import_path is not None:
            props["import_path"] = StringAttr(import_path)
        super().__init__(properties=props, attributes=attributes, regions=[body])

    @classmethod
    def parse(cls, parser: Parser) -> DeviceOp:
        name = parser.parse_symbol_name()
        import_path = None
        # `import("path")` may come before or after `attributes {...}` (the dataflow
        # scheduler writes the attributes first).
        attributes = parser.parse_optional_attr_dict_with_keyword()
        if parser.parse_optional_keyword("import") is not None:
            parser.parse_punctuation("(")
            import_path = parser.parse_str_literal()
            parser.parse_punctuation(")")
        if attributes is None:
            attributes = parser.parse_optional_attr_dict_with_keyword()
        body = None
        if current_token(parser).text == "{":
            body = parse_body(parser)
        if body is None:
            if import_path is None:
                parser.raise_error("a device needs a body { ... } or import(\"path\")")
            body = Region()
        elif import_path is not None:
            parser.raise_error("an imported device has no body of its own")
        return cls(name.data, import_path, attributes.data if attributes else {}, body)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        if self.import_path is not None:
            printer.print_string(" import(")
            printer.print_string_literal(self.import_path.data)
            printer.print_string(")")
        if self.attributes:
            printer.print_string(" attributes ")
            printer.print_attr_dict(self.attributes)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)


KTDF_ARCH = Dialect(
    "ktdf_arch",
    [DeviceOp, MemoryOp, ExecUnitOp, DatapathOp, GroupOp, YieldOp, SwitchOp, PatternsOp],
    [
        MemoryType,
        ExecUnitType,
        MapAttr,
        ClockAttr,
        ComputeFeature,
        LoadFeature,
        StoreFeature,
        SimdFeature,
        QueueFeature,
    ],
)
