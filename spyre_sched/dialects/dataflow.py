"""The `dataflow` dialect: per-engine programs, FIFOs and sync tokens of DataflowIR.

A program's inner (argument-free) function holds, at its top level, the declarations the
units share (`dataflow.fifo`, `dataflow.sync`, symbols, per-unit maps, constants) and one
`dataflow.program_unit` per kind of engine. Each program unit lists the concrete unit
instances that run its body (`core3.corelet1.sfu`); every instance runs the body once per
launch, concurrently with the others. Exact semantics and timing: docs/dataflowir.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    VectorType,
)
from xdsl.ir import Attribute, Dialect, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect, NoTerminator
from xdsl.utils.exceptions import VerifyException

from spyre_sched.dialects.vector_types import static_vector

# The levels a unit instance name has: `core3.corelet1.sfu` is core 3, corelet 1.
INSTANCE_LEVELS = ("core", "corelet")


def instance_index(unit: str, level: str) -> int:
    """The index of `unit` at a group level: instance_index("core3.corelet1.sfu", "corelet") == 1.
    A unit not inside a group of that level has index 0 there."""
    for part in unit.split("."):
        if part.startswith(level) and part[len(level):].isdigit():
            return int(part[len(level):])
    return 0


def engine_of(unit: str) -> str:
    """The engine (the unit's local name in the device file): `core3.corelet1.sfu` -> `sfu`."""
    return unit.rsplit(".", 1)[-1]


def enclosing_program_unit(op: Operation) -> ProgramUnitOp | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ProgramUnitOp):
        parent = parent.parent_op()
    return parent


def _declarations_scope(op: Operation) -> Operation | None:
    """The op whose top-level block holds the FIFO and sync declarations: the function (or
    module) that contains the program unit."""
    unit = enclosing_program_unit(op)
    return None if unit is None else unit.parent_op()


def find_declaration(op: Operation, name: str, kind: type) -> Operation | None:
    scope = _declarations_scope(op)
    if scope is None:
        return None
    for region in scope.regions:
        for block in region.blocks:
            for decl in block.ops:
                if isinstance(decl, kind) and decl.sym_name.data == name:
                    return decl
    return None


# ---------------------------------------------------------------------------------------
# Declarations
# ---------------------------------------------------------------------------------------


#: on an `scf.for` of a program unit: each iteration adds to partial sums that the loop
#: does not carry but keeps in memory (a matmul's K chunks: the accumulator leaves the
#: unit after a chunk and returns before the next), so a term's path goes through the
#: summing ops inside once per iteration (the emulator's `summation_depth` counts it)
ACCUMULATION_ATTR = "dataflow.accumulation"


@irdl_op_definition
class FifoOp(IRDLOperation):
    """`dataflow.fifo @name "SRC" -> "DST" {depth = D : i64} : vector<Nxf16>`: a logical
    channel over the datapath between each SRC unit instance and the DST unit instance
    adjacent to it; D entries of one `vector<N x T>` each."""

    name = "dataflow.fifo"

    sym_name = prop_def(SymbolNameConstraint())
    source = prop_def(StringAttr)
    target = prop_def(StringAttr)
    depth = prop_def(IntegerAttr[I64])
    entry = prop_def(VectorType)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$sym_name $source `->` $target attr-dict `:` $entry"

    def __init__(self, name: str, source: str, target: str, depth: int, entry: VectorType):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "source": StringAttr(source),
                "target": StringAttr(target),
                "depth": IntegerAttr(depth, 64),
                "entry": entry,
            }
        )

    def verify_(self) -> None:
        if self.depth.value.data < 1:
            raise VerifyException(
                f"dataflow.fifo @{self.sym_name.data}: depth must be at least 1, "
                f"got {self.depth.value.data}"
            )
        entry = static_vector(self, self.entry, "the entry type")
        if len(entry.get_shape()) != 1:
            raise VerifyException(f"dataflow.fifo @{self.sym_name.data}: an entry is a 1-D vector")
        if self.source.data == self.target.data:
            raise VerifyException(f"dataflow.fifo @{self.sym_name.data}: source and target are the same engine")


@irdl_op_definition
class SyncOp(IRDLOperation):
    """`dataflow.sync @name "SRC" -> "DST" {initial = K : i64}`: a counting token channel
    from each SRC unit instance to each DST unit instance of the same core; it starts
    holding K tokens."""

    name = "dataflow.sync"

    sym_name = prop_def(SymbolNameConstraint())
    source = prop_def(StringAttr)
    target = prop_def(StringAttr)
    initial = prop_def(IntegerAttr[I64])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$sym_name $source `->` $target attr-dict"

    def __init__(self, name: str, source: str, target: str, initial: int = 0):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "source": StringAttr(source),
                "target": StringAttr(target),
                "initial": IntegerAttr(initial, 64),
            }
        )

    def verify_(self) -> None:
        if self.initial.value.data < 0:
            raise VerifyException(f"dataflow.sync @{self.sym_name.data}: initial tokens must be >= 0")


@irdl_op_definition
class ProgramUnitOp(IRDLOperation):
    """`dataflow.program_unit @tag {engine = "sfu", units = ["core0.corelet0.sfu", ...]} {...}`:
    the part of a program one kind of engine runs; every listed instance runs the body."""

    name = "dataflow.program_unit"

    sym_name = prop_def(SymbolNameConstraint())
    engine = prop_def(StringAttr)
    units = prop_def(ArrayAttr[StringAttr])
    body = region_def("single_block")

    traits = traits_def(NoTerminator())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$sym_name attr-dict-with-keyword $body"

    def __init__(self, name: str, engine: str, units: Sequence[str], body: Region):
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "engine": StringAttr(engine),
                "units": ArrayAttr([StringAttr(u) for u in units]),
            },
            regions=[body],
        )

    @property
    def unit_names(self) -> tuple[str, ...]:
        return tuple(u.data for u in self.units)

    def verify_(self) -> None:
        names = self.unit_names
        tag = f"dataflow.program_unit @{self.sym_name.data}"
        if not names:
            raise VerifyException(f"{tag}: lists no unit instances")
        if len(set(names)) != len(names):
            raise VerifyException(f"{tag}: a unit instance is listed twice")
        for unit in names:
            if engine_of(unit) != self.engine.data:
                raise VerifyException(
                    f"{tag}: unit {unit} is not a '{self.engine.data}' engine"
                )
        if self.body.block.args:
            raise VerifyException(f"{tag}: the body takes no arguments")
        if enclosing_program_unit(self) is not None:
            raise VerifyException(f"{tag}: program units do not nest")


# ---------------------------------------------------------------------------------------
# Inside program units
# ---------------------------------------------------------------------------------------


def _engine(op: Operation) -> str:
    unit = enclosing_program_unit(op)
    if unit is None:
        raise VerifyException(f"{op.name}: must be inside a dataflow.program_unit")
    # the ops inside are verified before the unit itself, which would say it lacks one
    engine = unit.properties.get("engine")
    if not isinstance(engine, StringAttr):
        raise VerifyException(f"{op.name}: its dataflow.program_unit names no engine")
    return engine.data


@irdl_op_definition
class InstanceIndexOp(IRDLOperation):
    """`%i = dataflow.instance_index "core" : index`: the executing unit instance's index at a
    group level ("core": 3 for core3.corelet1.sfu; "corelet": 1)."""

    name = "dataflow.instance_index"

    level = prop_def(StringAttr)
    result = result_def(IndexType)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "$level attr-dict `:` type($result)"

    def __init__(self, level: str):
        super().__init__(properties={"level": StringAttr(level)}, result_types=[IndexType()])

    def verify_(self) -> None:
        if self.level.data not in INSTANCE_LEVELS:
            raise VerifyException(
                f"dataflow.instance_index: level must be one of {', '.join(INSTANCE_LEVELS)}, "
                f"got '{self.level.data}'"
            )
        _engine(self)


def _channel_for(op: Operation, ref: SymbolRefAttr, role: str, kind: type, what: str):
    """The `kind` declaration (fifo or sync channel) `ref` names, checked to have `op`'s
    engine at its `role` end ("source" or "target")."""
    engine = _engine(op)
    name = ref.root_reference.data
    channel = find_declaration(op, name, kind)
    if channel is None:
        raise VerifyException(f"{op.name}: no {kind.name} @{name} is declared in this program")
    end = channel.source.data if role == "source" else channel.target.data
    if end != engine:
        raise VerifyException(
            f"{op.name} @{name} runs on '{engine}' but the {what}'s {role} is '{end}'"
        )
    return channel


def _fifo_for(op: Operation, ref: SymbolRefAttr, role: str) -> FifoOp:
    return _channel_for(op, ref, role, FifoOp, "fifo")


def _check_payload(op: Operation, fifo: FifoOp, type_: Attribute) -> None:
    value = static_vector(op, type_, "the value")
    entry = fifo.entry
    assert isinstance(entry, VectorType)
    if value.element_type != entry.element_type:
        raise VerifyException(
            f"{op.name} @{fifo.sym_name.data}: element type {value.element_type} differs from "
            f"the fifo's {entry.element_type}"
        )
    if value.element_count() % entry.element_count():
        raise VerifyException(
            f"{op.name} @{fifo.sym_name.data}: {value.element_count()} elements are not a whole "
            f"number of {entry.element_count()}-element entries"
        )


@irdl_op_definition
class SendOp(IRDLOperation):
    """`dataflow.send %v to @fifo : vector<KxNxT>`: push %v's elements (row-major) as
    entries, one at a time; blocks while the fifo is full."""

    name = "dataflow.send"

    value = operand_def(VectorType)
    fifo = prop_def(SymbolRefAttr)

    assembly_format = "$value `to` $fifo attr-dict `:` type($value)"

    def __init__(self, value, fifo: str):
        super().__init__(operands=[value], properties={"fifo": SymbolRefAttr(fifo)})

    def verify_(self) -> None:
        _check_payload(self, _fifo_for(self, self.fifo, "source"), self.value.type)


@irdl_op_definition
class ReceiveOp(IRDLOperation):
    """`%v = dataflow.receive @fifo : vector<KxNxT>`: pop as many entries as %v holds, one at
    a time, into %v (row-major); blocks while the fifo is empty."""

    name = "dataflow.receive"

    fifo = prop_def(SymbolRefAttr)
    result = result_def(VectorType)

    assembly_format = "$fifo attr-dict `:` type($result)"

    def __init__(self, fifo: str, type_: VectorType):
        super().__init__(properties={"fifo": SymbolRefAttr(fifo)}, result_types=[type_])

    def verify_(self) -> None:
        _check_payload(self, _fifo_for(self, self.fifo, "target"), self.result.type)


def _sync_for(op: Operation, ref: SymbolRefAttr, role: str) -> SyncOp:
    return _channel_for(op, ref, role, SyncOp, "sync channel")


@irdl_op_definition
class SyncSendOp(IRDLOperation):
    """`dataflow.sync_send @s [peer %k]`: give one token to the peer instance (the target
    engine's instance with corelet index %k in this core; `peer` may be left out when the core
    has one). Never blocks; delivered once every earlier transfer of this unit has landed."""

    name = "dataflow.sync_send"

    channel = prop_def(SymbolRefAttr)
    peer = opt_operand_def(IndexType)

    assembly_format = "$channel (`peer` $peer^)? attr-dict"

    def __init__(self, channel: str, peer=None):
        super().__init__(
            operands=[[peer] if peer is not None else []],
            properties={"channel": SymbolRefAttr(channel)},
        )

    def verify_(self) -> None:
        _sync_for(self, self.channel, "source")


@irdl_op_definition
class SyncRecvOp(IRDLOperation):
    """`dataflow.sync_recv @s [peer %k]`: take one token from the peer instance's channel;
    blocks until one is there."""

    name = "dataflow.sync_recv"

    channel = prop_def(SymbolRefAttr)
    peer = opt_operand_def(IndexType)

    assembly_format = "$channel (`peer` $peer^)? attr-dict"

    def __init__(self, channel: str, peer=None):
        super().__init__(
            operands=[[peer] if peer is not None else []],
            properties={"channel": SymbolRefAttr(channel)},
        )

    def verify_(self) -> None:
        _sync_for(self, self.channel, "target")


DATAFLOW = Dialect(
    "dataflow",
    [
        FifoOp,
        SyncOp,
        ProgramUnitOp,
        InstanceIndexOp,
        SendOp,
        ReceiveOp,
        SyncSendOp,
        SyncRecvOp,
    ],
    [],
)

__all__ = [
    "FifoOp",
    "SyncOp",
    "ProgramUnitOp",
    "InstanceIndexOp",
    "SendOp",
    "ReceiveOp",
    "SyncSendOp",
    "SyncRecvOp",
    "DATAFLOW",
    "instance_index",
    "engine_of",
    "enclosing_program_unit",
    "INSTANCE_LEVELS",
]
