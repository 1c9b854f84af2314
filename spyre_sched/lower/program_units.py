"""Per-engine program units: one program's ScheduleIR projected onto each engine.

For every engine the program uses, walk the program's loops, pipelines, stages and
parallel loops, and keep only what that engine does: its transfers (as `agen` address
generation plus `dataflow.send`/`receive`), its compute (as `vectorchain`), the loops
around them, the sync tokens that order its stages against other engines' stages, and the
rotating slot index of every N-buffered pipeline it takes part in. Index arithmetic is
kept as affine forms (`values.py`) and only materialised where a unit needs a value:
launch-time parts become symbols (per core when they differ), run-time parts `arith` ops.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AffineSetAttr,
    AnyFloat,
    Float32Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
    UnitAttr,
    VectorType,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstraintExpr, AffineConstraintKind, AffineExpr, AffineMap, AffineSet

from spyre_sched.dialects import dataflow as df
from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.dialects import uniform, vectorchain
from spyre_sched.lower.indirect import lower_indirect
from spyre_sched.dialects.agen import AccessAttr, CompositeLoadAndStoreOp, VectorLoadOp, VectorStoreOp
from spyre_sched.dialects.linalg_matmul import matmul_dims
from spyre_sched.dialects.symbol import CreateSymbolOp
from spyre_sched.errors import UnsupportedError, VerifyError, fold_hint
from spyre_sched.lower import lifetimes, parallel_loops, runtime_shapes
from spyre_sched.lower import partial_vectors as partial
from spyre_sched.lower import symbols as sx
from spyre_sched.lower.analysis import INDEX_OPS, ProgramAnalysis, SyncChannel, where
from spyre_sched.lower.reduction_vectors import ReductionShape, reduction_shape
from spyre_sched.lower.tile_ids import tile_id_forms
from spyre_sched.lower.units import EngineInfo
from spyre_sched.lower.values import Form

INDEX = IndexType()


# ---------------------------------------------------------------------------------------
# Index values as forms
# ---------------------------------------------------------------------------------------


def form_range(form: Form, ranges: dict[SSAValue, tuple[int, int]]) -> tuple[int, int] | None:
    """Smallest and largest value of `form` over its atoms' ranges (None: unknown)."""
    consts = [form.const] if isinstance(form.const, int) else list(form.const)
    lo, hi = min(consts), max(consts)
    for atom, coeff in form.terms:
        r = ranges.get(atom) if not isinstance(atom, str) else None
        if r is None:
            return None
        a, b = coeff * r[0], coeff * r[1]
        lo, hi = lo + min(a, b), hi + max(a, b)
    return lo, hi


def _fold(op: Operation, x: int, y: int) -> int | None:
    """`op` on two integers (None: not a folding op, or a division by zero)."""
    folded = {
        arith.DivUIOp: lambda: x // y, arith.DivSIOp: lambda: int(x / y),
        arith.FloorDivSIOp: lambda: x // y, arith.RemUIOp: lambda: x % y,
        arith.RemSIOp: lambda: int(math.fmod(x, y)), arith.MinUIOp: lambda: min(x, y),
        arith.MinSIOp: lambda: min(x, y), arith.MaxUIOp: lambda: max(x, y),
        arith.MaxSIOp: lambda: max(x, y), arith.CeilDivUIOp: lambda: -(-x // y),
        arith.CeilDivSIOp: lambda: -(-x // y),
    }
    if type(op) in folded and (y != 0 or type(op) in (arith.MinUIOp, arith.MinSIOp,
                                                       arith.MaxUIOp, arith.MaxSIOp)):
        return folded[type(op)]()
    return None


#: arith.cmpi predicate number -> its test on two integers (eq ne slt sle sgt sge, then
#: the unsigned ones, asked only of values that are not negative)
_CMPI = (operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge) * 2


def _per_core_choice(op: Operation, env: dict[SSAValue, Form], num_tiles: int) -> Form | None:
    """A comparison of index values, or a choice between them, that are constants on each
    core (the tile id and what is computed from it: `select(t == 1, 2, t)`), folded core by
    core; None (not index arithmetic the lowering folds) otherwise."""
    if not all(o in env for o in op.operands):
        return None
    forms = [env[o] for o in op.operands]
    if len(op.results) != 1 or isinstance(op.results[0].type, ShapedType) \
            or any(f.terms for f in forms):
        return None
    cores = range(1 if all(f.is_constant for f in forms) else num_tiles)
    if op.name == "arith.cmpi":
        predicate = op.properties["predicate"].value.data  # type: ignore[attr-defined]
        test = _CMPI[predicate]
        if predicate >= 6 and any(f.const_at(c) < 0 for f in forms for c in cores):
            return None  # an unsigned comparison of a negative value
        per_core = [int(test(forms[0].const_at(c), forms[1].const_at(c))) for c in cores]
    else:
        cond, a, b = forms
        per_core = [a.const_at(c) if cond.const_at(c) else b.const_at(c) for c in cores]
    return Form.constant(per_core[0] if len(per_core) == 1 else tuple(per_core))


def _index_like(type_: Attribute) -> bool:
    """`index`, or an integer of 32 bits or more: a scalar counted in i32 (Triton's tile
    ids, loop counters and offsets) is the same number, read exactly (docs/ktir-producers.md)."""
    return isinstance(type_, IndexType) or (isinstance(type_, IntegerType)
                                           and type_.width.data >= 32)


def index_form(op: Operation, env: dict[SSAValue, Form], num_tiles: int,
               emit: Callable[[Operation, list[Form]], Form] | None = None,
               ranges: dict[SSAValue, tuple[int, int]] | None = None) -> Form | None:
    """The form of an index-valued op's result, or None if `op` is not index arithmetic.
    `emit` materialises a non-affine op (it gets the op and its operand forms)."""
    if isinstance(op, arith.ConstantOp):
        if not isinstance(op.result.type, IndexType) and not (
                isinstance(op.value, IntegerAttr) and op.value.type.__class__.__name__ == "IntegerType"):
            return None
        if not isinstance(op.value, IntegerAttr):
            return None
        return Form.constant(op.value.value.data)
    if isinstance(op, arith.IndexCastOp) and _index_like(op.result.type):
        # an integer scalar (a size argument, often i32) used as an index, or an index
        # counted on in i32 (Triton's loop counters): the same value
        return env[op.input]
    if isinstance(op, ktdp.GetComputeTileIdOp):
        # one result per grid dimension: the callers record results[0], the rest go here
        forms = tile_id_forms(op, num_tiles, where(op))
        env.update(zip(op.results[1:], forms[1:]))
        return forms[0]
    if isinstance(op, ktdp.RuntimeArgExtractOp):
        return runtime_shapes.extract_form(op, env, where(op))
    if isinstance(op, ktdf.ReserveSizeOp):
        if op.value is None:
            raise UnsupportedError(f"lowering: decision {op.decision.data} is open", where(op))
        return Form.constant(op.value.value.data)
    if isinstance(op, ktdf.LinearizeIndexOp):
        return env[op.tile_index] + env[op.point_index]
    if isinstance(op, ktdf.DeriveSizeOp):
        off, size, ub = env[op.offset], env[op.size], env[op.upper_bound]
        if off.is_constant and size.is_constant and ub.is_constant:
            return Form.constant(max(0, min(size.value, ub.value - off.value)))
        span = form_range(off, ranges or {})
        if span is not None and size.is_constant and ub.is_constant and span[1] + size.value <= ub.value:
            return Form.constant(size.value)  # every tile this op sees is a full one
        raise UnsupportedError("lowering: a tile extent that varies at run time is not supported", where(op))
    if op.name in ("arith.cmpi", "arith.select"):  # xDSL's or KTIR's (shaped) classes
        return _per_core_choice(op, env, num_tiles)
    if not isinstance(op, INDEX_OPS) or not op.results or not _index_like(op.results[0].type):
        return None
    a, b = env[op.operands[0]], env[op.operands[1]]
    if isinstance(op, arith.AddiOp):
        return a + b
    if isinstance(op, arith.SubiOp):
        return a - b
    if isinstance(op, arith.MuliOp):
        product = a.times(b)
        if product is not None:
            return product
    if not a.terms and not b.terms:
        # compile-time integers, or constants that differ from core to core (grid
        # coordinates computed from the tile id by division and remainder): folded core
        # by core
        cores = range(1 if a.is_constant and b.is_constant else num_tiles)
        per_core = [_fold(op, a.const_at(c), b.const_at(c)) for c in cores]
        if all(v is not None for v in per_core):
            return Form.constant(per_core[0] if len(per_core) == 1  # type: ignore[arg-type]
                                 else tuple(per_core))
    if emit is None:
        raise UnsupportedError("lowering: index arithmetic that is not affine in the "
                               "kernel's arguments and the loop counters", where(op))
    return emit(op, [a, b])


def base_forms(fn: func.FuncOp, num_tiles: int) -> dict[SSAValue, Form]:
    """Forms of the program's arguments and of the index values computed before any loop."""
    env: dict[SSAValue, Form] = {}
    for arg in fn.body.block.args:
        env[arg] = Form.atom(arg.name_hint or f"arg{arg.index}")
    for op in fn.body.block.ops:
        if op.regions:
            continue
        try:
            form = index_form(op, env, num_tiles)
        except (UnsupportedError, KeyError):
            continue
        if form is not None:
            env[op.results[0]] = form
    return env


# ---------------------------------------------------------------------------------------
# Program-level declarations shared by the engines
# ---------------------------------------------------------------------------------------


@dataclass
class SymbolEntry:
    id: int
    expr: object
    kind: str
    argument: str | None
    memory: str | None
    core: int | None


@dataclass
class ProgramTables:
    """The top level of a program's inner function: constants, symbols, maps, FIFOs, syncs."""

    pa: ProgramAnalysis
    next_symbol: Callable[[], int]
    symbols: list[SymbolEntry] = field(default_factory=list)
    symbol_values: dict[str, SSAValue] = field(default_factory=dict)
    top_ops: list[Operation] = field(default_factory=list)
    map_ops: list[Operation] = field(default_factory=list)
    consts: dict[int, SSAValue] = field(default_factory=dict)
    maps: dict[tuple, SSAValue] = field(default_factory=dict)

    def constant(self, value: int) -> SSAValue:
        if value not in self.consts:
            op = arith.ConstantOp(IntegerAttr(value, INDEX))
            op.result.name_hint = f"k{value}" if value >= 0 else f"km{-value}"
            self.top_ops.append(op)
            self.consts[value] = op.result
        return self.consts[value]

    def symbol(self, expr, *, kind: str, argument: str | None, memory: str | None,
               core: int | None) -> SSAValue:
        key = json.dumps(expr)
        kind = runtime_shapes.symbol_kind(kind, expr, runtime_shapes.runtime_arguments(self.pa.func))
        if key not in self.symbol_values:
            sid = self.next_symbol()
            self.symbols.append(SymbolEntry(sid, expr, kind, argument, memory, core))
            op = CreateSymbolOp(sid)
            op.result.name_hint = f"sym{sid}"
            self.top_ops.append(op)
            self.symbol_values[key] = op.result
        return self.symbol_values[key]

    def per_core_map(self, values: Sequence[SSAValue], hint: str) -> SSAValue:
        key = tuple(id(v) for v in values)
        if key not in self.maps:
            op = uniform.DefImmutableMappingOp(list(range(len(values))), list(values))
            op.result.name_hint = hint
            self.map_ops.append(op)
            self.maps[key] = op.result
        return self.maps[key]


def symbol_expr(form: Form, core: int) -> object:
    """Σ coeff·arg + constant at `core`, as "argument + share" when it is one argument
    scaled by the element size: `(A + 192) * 2`."""
    terms = form.arg_terms()
    const = form.const_at(core)
    if len(terms) == 1:
        name, coeff = terms[0]
        if coeff > 0 and const % coeff == 0:
            return sx.mul(sx.add(sx.arg(name), const // coeff), coeff)
    expr: object = const
    for name, coeff in terms:
        expr = sx.add(sx.mul(sx.arg(name), coeff), expr) if expr != 0 else sx.mul(sx.arg(name), coeff)
    return expr


# ---------------------------------------------------------------------------------------
# The per-engine emitter
# ---------------------------------------------------------------------------------------


def _vector(shape: Sequence[int], element: Attribute) -> VectorType:
    return VectorType(element, list(shape))


def _shape_of(value: SSAValue) -> tuple[int, ...]:
    vtype = value.type
    assert isinstance(vtype, VectorType)
    return tuple(vtype.get_shape())


def _box(sizes: Sequence[int]) -> AffineSet:
    """{0 <= d_i <= sizes_i - 1}."""
    constraints = []
    for i, s in enumerate(sizes):
        d = AffineExpr.dimension(i)
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, d, AffineExpr.constant(0)))
        constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, AffineExpr.constant(s - 1) - d,
                                                AffineExpr.constant(0)))
    return AffineSet(len(sizes), 0, tuple(constraints))


def _lanes_mask(sizes: Sequence[int], valid: Sequence[int] | None) -> AffineSet | None:
    """{d_i <= valid_i - 1} for the dims where `valid` is smaller than the box (a partial
    last vector's lanes past the data), or None when nothing is masked."""
    constraints = []
    for i, (s, v) in enumerate(zip(sizes, valid or sizes)):
        if v < s:
            d = AffineExpr.dimension(i)
            constraints.append(AffineConstraintExpr(AffineConstraintKind.ge, AffineExpr.constant(v - 1) - d,
                                                    AffineExpr.constant(0)))
    return AffineSet(len(sizes), 0, tuple(constraints)) if constraints else None


def _access(sizes: Sequence[int], strides: Sequence[int], valid: Sequence[int] | None = None) -> AccessAttr:
    n = len(sizes)
    return AccessAttr.get(_box(sizes), AffineMap.identity(n), list(strides), _lanes_mask(sizes, valid))


REDUCTION_KINDS = {
    "arith.addf": "add", "arith.mulf": "mul", "arith.maximumf": "max", "arith.minimumf": "min",
    "arith.maxnumf": "maxnum", "arith.minnumf": "minnum", "arith.addi": "add", "arith.muli": "mul",
}

BINARY = {
    "arith.addf": vectorchain.AddOp, "arith.addi": vectorchain.AddOp,
    "arith.subf": vectorchain.SubOp, "arith.subi": vectorchain.SubOp,
    "arith.mulf": vectorchain.MulOp, "arith.muli": vectorchain.MulOp,
    "arith.divf": vectorchain.DivOp,
    "arith.maximumf": vectorchain.MaxOp, "arith.minimumf": vectorchain.MinOp,
}


def _position_arithmetic(op) -> bool:
    """An op of a body's whole-number position arithmetic (`body-index-to-float`'s
    leaves: `linalg.index`, the step's position added to it, casts to i64)."""
    if isinstance(op, linalg.IndexOp):
        return True
    if isinstance(op, arith.AddiOp):
        return isinstance(op.results[0].type, IndexType)
    return isinstance(op, arith.IndexCastOp) and isinstance(op.operands[0].type, IndexType)


def is_float_scalar(type_: Attribute) -> bool:
    return isinstance(type_, AnyFloat)


def is_scalar_compute(op: Operation) -> bool:
    """An `arith`/`math`/`spyreop` op on float scalars outside any body (not index
    arithmetic, not a constant): its value reaches compute only through generic bodies."""
    if isinstance(op, arith.ConstantOp) or len(op.results) != 1 or not op.operands:
        return False
    if op.dialect_name() not in ("arith", "math", "spyreop"):
        return False
    if isinstance(op.parent_op(), linalg.GenericOp):
        return False
    return all(is_float_scalar(v.type) for v in (*op.operands, *op.results))


def _element_size(element: Attribute) -> int:
    from spyre_sched.lower.analysis import element_bytes

    return element_bytes(element)


def bits_hex(value: float | int, element: Attribute) -> str:
    text = str(element)
    if text == "f16":
        return f"{int(np.array(value, dtype=np.float16).view(np.uint16)):04x}"
    if text == "f32":
        return f"{int(np.array(value, dtype=np.float32).view(np.uint32)):08x}"
    if text == "bf16":
        # the shared numerics' rounding, so the bundle's bits are the reference's
        from emulator.numerics.bfloat16 import bf16_from_float

        return f"{int(bf16_from_float(np.float64(value))):04x}"
    if text == "i32":
        return f"{int(value) & 0xFFFFFFFF:08x}"
    raise UnsupportedError(f"lowering: constants of type {element} are not supported yet")


class EngineEmitter:
    def __init__(self, pa: ProgramAnalysis, tables: ProgramTables, engine: EngineInfo,
                 base_env: dict[SSAValue, Form]):
        self.pa = pa
        self.tables = tables
        self.engine = engine
        self.num_tiles = pa.units.num_tiles
        self.env: dict[SSAValue, Form] = dict(base_env)
        self.tensors: dict[SSAValue, SSAValue | None] = {}
        self.scalars: dict[SSAValue, Attribute] = {}
        self.slots: dict[ktdf.PipelineOp, Form] = {}
        self.ranges: dict[SSAValue, tuple[int, int]] = {}
        self.prologue: list[Operation] = []
        self.out: list[Operation] = []
        self._consts: dict[int, SSAValue] = {}
        self._index: dict[str, SSAValue] = {}
        self.corelets = pa.corelets.get(engine.name, 1)
        self.chunk: int | None = None
        self.fills = partial.fifo_fills(pa)
        self.valid: dict[SSAValue, tuple[int, ...] | str] = {}  # tensor -> lanes of data (partial)
        self.pointer: str | None = None  # the kernel argument the last endpoint addresses

    # ---- materialising values -------------------------------------------------------

    def emit(self, op: Operation) -> Operation:
        self.out.append(op)
        return op

    def const(self, value: int) -> SSAValue:
        if value not in self._consts:
            op = arith.ConstantOp(IntegerAttr(value, INDEX))
            op.result.name_hint = f"c{value}" if value >= 0 else f"cm{-value}"
            self.prologue.append(op)
            self._consts[value] = op.result
        return self._consts[value]

    def instance(self, level: str) -> SSAValue:
        if level not in self._index:
            op = df.InstanceIndexOp(level)
            op.result.name_hint = level
            self.prologue.append(op)
            self._index[level] = op.result
        return self._index[level]

    def value(self, form: Form, hint: str = "v", kind: str = "address",
              memory: str | None = None, argument: str | None = None) -> SSAValue:
        """An SSA value holding `form` on this unit (`argument`: the pointer it addresses)."""
        static, dynamic = form.split()
        parts: list[SSAValue] = []
        if static.arg_terms():
            args = [a for a, _ in static.arg_terms()]
            if argument is None or argument not in args:
                argument = args[0] if len(args) == 1 else None
            if isinstance(static.const, int):
                parts.append(self.tables.symbol(symbol_expr(static, 0), kind=kind, argument=argument,
                                                memory=memory, core=None))
            else:
                syms = [self.tables.symbol(symbol_expr(static, c), kind=kind, argument=argument,
                                           memory=memory, core=c) for c in range(self.num_tiles)]
                parts.append(self._query(self.tables.per_core_map(syms, f"map_{argument or 'sym'}")))
        elif not isinstance(static.const, int):
            consts = [self.tables.constant(static.const_at(c)) for c in range(self.num_tiles)]
            parts.append(self._query(self.tables.per_core_map(consts, "map_tile")))
        result: SSAValue | None = None
        constant = static.const if isinstance(static.const, int) and not static.arg_terms() else 0
        for atom, coeff in dynamic.terms:
            assert isinstance(atom, SSAValue)
            term = atom
            if coeff != 1:
                term = self.emit(arith.MuliOp(atom, self.const(coeff))).results[0]
            result = term if result is None else self.emit(arith.AddiOp(result, term)).results[0]
        for p in parts:
            result = p if result is None else self.emit(arith.AddiOp(result, p)).results[0]
        if result is None:
            return self.const(constant)
        if constant:
            result = self.emit(arith.AddiOp(result, self.const(constant))).results[0]
        if result.owner in self.out and not result.name_hint:
            result.name_hint = hint
        return result

    def _query(self, mapping: SSAValue) -> SSAValue:
        op = uniform.QueryMapOp(mapping, self.instance("core"))
        self.emit(op)
        return op.result

    def _emit_index_op(self, op: Operation, forms: list[Form]) -> Form:
        """A non-affine index op: compute it on the unit, a new run-time atom."""
        a, b = (self.value(f, "i", kind="index") for f in forms)
        clone = type(op)(a, b)  # type: ignore[call-arg]
        self.emit(clone)
        return Form.atom(clone.results[0])

    # ---- walking ScheduleIR ------------------------------------------------------------

    def run(self) -> list[Operation]:
        self.walk(self.pa.func.body.block.ops)
        return self.prologue + self.out

    def involved(self, op: Operation) -> bool:
        return self.engine.name in self.pa.engines_in.get(op, frozenset())

    def _argument_hint(self, op: Operation) -> str:
        """For a scalar op no unit computes: the plain kernel arguments its operands are
        computed from (which `--arg` folds at compile time, where the op then folds too),
        or "" when there are none."""
        names = sorted({name for v in op.operands if v in self.env
                        for name, _ in self.env[v].arg_terms()}
                       & runtime_shapes.plain_arguments(self.pa.func))
        if not names:
            return ""
        return (f" on a value computed from {', '.join(f'%{n}' for n in names)} at run time: "
                + fold_hint(names))

    def walk(self, ops) -> None:
        for op in ops:
            lifetimes.emit_tokens(self, op, before=True)
            self.visit(op)
            lifetimes.emit_tokens(self, op, before=False)

    def visit(self, op: Operation) -> None:
        form = index_form(op, self.env, self.num_tiles, self._emit_index_op, self.ranges)
        if form is not None:
            self.env[op.results[0]] = form
            return
        if isinstance(op, arith.ConstantOp):
            self.scalars[op.result] = op.value
            return
        if isinstance(op, ktdp.ConstructMemoryViewOp | func.ReturnOp | scf.YieldOp | ktdf.BufferPhaseOp
                      | ktdf.GatherViewOp):
            return
        if isinstance(op, scf.ForOp):
            if self.involved(op):
                self.visit_for(op)
            return
        if isinstance(op, ktdf.PipelineOp):
            if self.involved(op):
                self.visit_pipeline(op)
            return
        if isinstance(op, ktdf.ParallelOp):
            if self.involved(op):
                self.visit_parallel(op)
            return
        if is_scalar_compute(op):
            return  # computed where a generic body reads it (`outside_scalar`)
        engine = self.pa.engine_of.get(op)
        if engine is None:
            raise UnsupportedError(f"lowering: {op.name} is not supported yet"
                                   + self._argument_hint(op), where(op))
        if engine.name != self.engine.name:
            return
        if isinstance(op, ktdf.DataTransferOp):
            self.transfer(op)
        elif isinstance(op, ktdf.ReadFromFifoOp):
            fifo = self.pa.fifos[op.slot]
            recv = self.emit(df.ReceiveOp(fifo.name, _vector(self.widen(fifo.shape), fifo.element)))
            self.tensors[op.result] = recv.results[0]
            lanes = None
            if self.chunk is None:  # a partial vector: how many lanes are data
                lanes = partial.valid_extent(self.fills.get(op.slot, []), op, self.env,
                                             self.num_tiles, self.ranges, fifo.shape, index_form)
            self.set_valid(op.result, lanes)
        elif isinstance(op, ktdf.WriteToFifoOp):
            fifo = self.pa.fifos[op.slot]
            self.emit(df.SendOp(self.tensors[op.value], fifo.name))
        elif isinstance(op, tensor.EmptyOp):
            self.tensors[op.results[0]] = None
        elif isinstance(op, linalg.FillOp):
            out = op.outputs[0].type
            assert isinstance(out, TensorType)
            scalar = op.inputs[0]
            if scalar in self.scalars:
                self.tensors[op.results[0]] = self.splat_constant(self.scalars[scalar], out.get_shape())
            else:  # a float argument, or arithmetic on one
                self.tensors[op.results[0]] = self.outside_scalar(scalar, out.get_shape(), op)
        elif isinstance(op, linalg.GenericOp):
            self.generic(op)
        else:
            raise UnsupportedError(f"lowering: {op.name} in a compute stage is not supported yet", where(op))

    # ---- loops ---------------------------------------------------------------------------

    def rotating_inside(self, op: Operation) -> list[ktdf.PipelineOp]:
        # only engines that address the pipeline's buffers need its slot index
        return [p for p in self.pa.pipelines if p.modulo_value > 1
                and self.engine.name in self.pa.buffer_engines.get(p, ())
                and op.is_ancestor(p)]

    def visit_for(self, op: scf.ForOp) -> None:
        lb, ub, step = (self.env[v].value for v in (op.lb, op.ub, op.step))
        if op.iter_args:
            self.carrying_for(op, lb, ub, step)
            return
        # a reduction loop carrying nothing keeps its partial sums in memory: say so on
        # the unit's loop, for the depth of sums the emulator bounds (`dataflow.py`)
        accumulates = ktdf.is_reduction_loop(op)
        self.loop(op.body.block.args[0], lb, ub, step, op.body.block.ops, self.rotating_inside(op),
                  accumulates)

    def loop(self, iv: SSAValue, lb: int, ub: int, step: int, body, rotating,
             accumulates: bool = False) -> None:
        """Run `body` for iv in [lb, ub) step `step`: full tiles as an scf.for (a single one
        inline), the partial last one inline after it."""
        if step <= 0:
            raise UnsupportedError("lowering: loop steps must be positive")
        full, rem = divmod(max(ub - lb, 0), step)
        if full == 1:
            self.env[iv] = Form.constant(lb)
            self.walk(body)
        elif full > 1:
            self.for_op(iv, self.const(lb), self.const(lb + full * step), step, body, rotating,
                        Form.constant(0), (lb, lb + (full - 1) * step))
            if accumulates:
                self.out[-1].attributes[df.ACCUMULATION_ATTR] = UnitAttr()
        if rem:
            self.env[iv] = Form.constant(lb + full * step)
            self.walk(body)

    def for_op(self, iv: SSAValue, lb: SSAValue, ub: SSAValue, step: int, body, rotating,
               offset: Form, counter_range: tuple[int, int], scale: int = 1,
               counter_step: int | None = None) -> None:
        """An scf.for from `lb` to `ub` (SSA values) whose counter c (within `counter_range`)
        gives iv = c * scale + offset, carrying the rotating slots of `rotating`."""
        inits = [self.value(self.slots.get(p, Form.constant(0)), "slot") for p in rotating]
        block = Block(arg_types=[INDEX] * (1 + len(rotating)))
        block.args[0].name_hint = iv.name_hint or "i"
        for arg in block.args[1:]:
            arg.name_hint = "slot"
        saved = self.out
        self.out = []
        self.env[iv] = Form.atom(block.args[0]).scale(scale) + offset
        self.ranges[block.args[0]] = counter_range
        for p, arg in zip(rotating, block.args[1:]):
            self.slots[p] = Form.atom(arg)
        self.walk(body)
        yields = [self.value(self.slots[p], "slot") for p in rotating]
        self.out.append(scf.YieldOp(*yields))
        block.add_ops(self.out)
        self.out = saved
        if counter_step is None:
            counter_step = 1 if scale != 1 else step
        loop = self.emit(scf.ForOp(lb, ub, self.const(counter_step), inits, block))
        for p, result in zip(rotating, loop.results):
            result.name_hint = "slot"
            self.slots[p] = Form.atom(result)

    def carrying_for(self, op: scf.ForOp, lb: int, ub: int, step: int) -> None:
        """A compute loop carrying vectors (a reduction's accumulator): an scf.for with the
        vectors as iter_args (partial last iteration inline after it)."""
        if self.rotating_inside(op):
            raise UnsupportedError("lowering: N-buffered pipelines inside a loop carrying values", where(op))
        current = []
        for init in op.iter_args:
            if not isinstance(init.type, TensorType) or self.tensors.get(init) is None:
                raise UnsupportedError("lowering: a loop carrying something other than the "
                                       "compute unit's vectors", where(op))
            current.append(self.tensors[init])
        args = op.body.block.args
        yield_op = op.body.block.last_op
        assert isinstance(yield_op, scf.YieldOp)
        body = [o for o in op.body.block.ops if o is not yield_op]

        def inline(iv_value: int, values: list[SSAValue]) -> list[SSAValue]:
            self.env[args[0]] = Form.constant(iv_value)
            for a, v in zip(args[1:], values):
                self.tensors[a] = v
            self.walk(body)
            return [self.tensors[y] for y in yield_op.operands]

        full, rem = divmod(max(ub - lb, 0), step)
        if full == 1:
            current = inline(lb, current)
        elif full > 1:
            block = Block(arg_types=[INDEX] + [v.type for v in current])
            block.args[0].name_hint = args[0].name_hint or "i"
            saved = self.out
            self.out = []
            self.env[args[0]] = Form.atom(block.args[0])
            self.ranges[block.args[0]] = (lb, lb + (full - 1) * step)
            for a, v in zip(args[1:], block.args[1:]):
                self.tensors[a] = v
                v.name_hint = "acc"
            self.walk(body)
            self.out.append(scf.YieldOp(*[self.tensors[y] for y in yield_op.operands]))
            block.add_ops(self.out)
            self.out = saved
            loop = self.emit(scf.ForOp(self.const(lb), self.const(lb + full * step), self.const(step),
                                       current, block))
            current = list(loop.results)
        if rem:
            current = inline(lb + full * step, current)
        for result, value in zip(op.results, current):
            self.tensors[result] = value

    def visit_parallel(self, op: ktdf.ParallelOp) -> None:
        parallel_loops.check_distributed(self, op)
        rotating = self.rotating_inside(op)
        if len(op.induction_vars) != 1:
            parallel_loops.visit_multi_dim(self, op, rotating)
            return
        iv = op.induction_vars[0]
        lb, ub, step = (self.env[v].value for v in (op.lower_bounds[0], op.upper_bounds[0], op.steps[0]))
        n = op.num_instances.value.data if isinstance(op.num_instances, IntegerAttr) else 1
        body = op.body.block.ops
        k = self.chunk_factor(op, lb, ub, step, n) if self.chunk is None and not rotating else 1
        if k > 1:
            self.chunked_parallel(op, lb, ub, step, n, k)
            return
        if n == 1:
            self.loop(iv, lb, ub, step, body, rotating)
            return
        trips = -(-max(ub - lb, 0) // step)
        full = max(ub - lb, 0) // step
        chunk = -(-trips // n)
        k = self.parallel_index(op, n)
        lo0 = self.emit(arith.MuliOp(k, self.const(chunk))).results[0]
        lo = self.emit(arith.MinUIOp(lo0, self.const(trips))).results[0]
        hi0 = self.emit(arith.AddiOp(lo, self.const(chunk))).results[0]
        hi = self.emit(arith.MinUIOp(hi0, self.const(trips))).results[0]
        lo.name_hint, hi.name_hint = "first", "end"
        main_hi = hi if full == trips else self.emit(arith.MinUIOp(hi, self.const(full))).results[0]
        if full:
            self.for_op(iv, lo, main_hi, 1, body, rotating, Form.constant(lb), (0, full - 1), scale=step)
        if full < trips:
            cond = self.emit(arith.CmpiOp(hi, self.const(full), "ugt")).results[0]
            parallel_loops.last_iteration(self, cond, iv, lb + full * step, body, rotating)

    def parallel_index(self, op: ktdf.ParallelOp, n: int) -> SSAValue:
        """This instance's index among the `n` of `op` (nested parallels of one group split
        the corelet index: outer = corelet // inner-count)."""
        inner = self.pa.inner_instances.get(op, 1)
        k = self.instance("corelet")
        if inner > 1:
            k = self.emit(arith.DivUIOp(k, self.const(inner))).results[0]
        if n * inner < self.corelets:
            k = self.emit(arith.RemUIOp(k, self.const(n))).results[0]
        return k

    # ---- chunks: whole runs of vectors per instruction -----------------------------------

    def chunk_factor(self, op: ktdf.ParallelOp, lb: int, ub: int, step: int, n: int) -> int:
        """How many consecutive vectors of the innermost vector loop `op` one instruction
        may move (1: none). Allowed when every instance gets the same whole number of full
        vectors, the loop body is one FIFO pipeline of elementwise compute, every memory
        side walks the loop's dim contiguously, and the chunk fits the compute unit's
        registers and, unless the solver chose it (`ktdf.vectors_per_instruction`), the
        smallest FIFO."""
        total = max(ub - lb, 0)
        if total % step or (total // step) % n:
            return 1
        block = total // step // n
        body = [o for o in op.body.block.ops]
        pipes = [o for o in body if isinstance(o, ktdf.PipelineOp)]
        if len(pipes) != 1 or any(isinstance(o, ktdf.ParallelOp | scf.ForOp) for o in body):
            return 1
        pipe = pipes[0]
        fifos = [f for v, f in self.pa.fifos.items() if v.owner.parent_op() is pipe
                 or (pipe.private is not None and v in pipe.private.res)]
        if not fifos or any(not f.shape or f.shape[-1] != step for f in fifos):
            return 1
        for inner in pipe.walk():
            if isinstance(inner, scf.ForOp | ktdf.ParallelOp | ktdf.PipelineOp) and inner is not pipe:
                return 1
            if isinstance(inner, linalg.GenericOp) and any(
                    "reduction" in str(getattr(t, "data", t)) for t in inner.iterator_types):
                return 1
            if isinstance(inner, linalg.FillOp):
                return 1
        if not self.walks_contiguously(op, pipe, lb, ub, step):
            return 1
        slot_bytes = sum(math.prod(f.shape) * _element_size(f.element) for f in fifos)
        register_file = self.pa.units.register_file()
        chosen = op.attributes.get(ktdf.CHUNK_ATTR)
        if isinstance(chosen, IntegerAttr):
            # the solver's chunk: a chunk larger than a FIFO streams through it
            limit = max(1, min(register_file // max(slot_bytes, 1), chosen.value.data))
        else:
            limit = max(1, min(register_file // max(slot_bytes, 1), min(f.depth for f in fifos)))
        for k in range(min(limit, block), 0, -1):
            if block % k == 0:
                return k
        return 1

    def walks_contiguously(self, op: ktdf.ParallelOp, pipe: ktdf.PipelineOp, lb, ub, step) -> bool:
        """Every memory side of the pipeline's transfers moves along its last dim with the
        loop (offset = iv + constant there, nowhere else), with whole vectors."""
        probe = Block(arg_types=[INDEX]).args[0]
        env = dict(self.env)
        iv = op.induction_vars[0]
        env[iv] = Form.atom(probe)
        ranges = dict(self.ranges)
        ranges[probe] = (lb, lb + (max(ub - lb, 0) // step - 1) * step)
        for inner in op.body.block.walk():
            try:
                form = index_form(inner, env, self.num_tiles, None, ranges)
            except (UnsupportedError, KeyError):
                return False
            if form is not None:
                env[inner.results[0]] = form
                continue
            if not isinstance(inner, ktdf.DataTransferOp):
                continue
            if inner.mode == "splat":
                continue
            for value, offsets, sizes in ((inner.source, inner.mixed_source_offsets(), inner.mixed_source_sizes()),
                                          (inner.dest, inner.mixed_dest_offsets(), inner.mixed_dest_sizes())):
                if value in self.pa.fifos:
                    continue
                forms = [env[o] if isinstance(o, SSAValue) else Form.constant(int(o)) for o in offsets]
                coeffs = [dict(f.terms).get(probe, 0) for f in forms]
                if coeffs[-1] != 1 or any(coeffs[:-1]):
                    return False
                last = sizes[-1]
                size = env[last] if isinstance(last, SSAValue) else Form.constant(int(last))
                if not size.is_constant or size.value != step:
                    return False
        return True

    def chunked_parallel(self, op: ktdf.ParallelOp, lb: int, ub: int, step: int, n: int, k: int) -> None:
        """The vector loop moving `k` vectors per instruction: each instance walks its block
        of vectors `k` at a time; FIFO slots, transfers and compute widen by `k`."""
        iv = op.induction_vars[0]
        trips = (ub - lb) // step
        block = trips // n
        if n > 1:
            index = self.parallel_index(op, n)
            first = self.emit(arith.MuliOp(index, self.const(block))).results[0]
            end = self.emit(arith.AddiOp(first, self.const(block))).results[0]
            first.name_hint, end.name_hint = "first", "end"
        else:
            first, end = self.const(0), self.const(trips)
        self.chunk = k
        try:
            if block == k and n == 1:
                self.env[iv] = Form.constant(lb)
                self.walk(op.body.block.ops)
            else:
                self.for_op(iv, first, end, step, op.body.block.ops, [], Form.constant(lb),
                            (0, trips - k), scale=step, counter_step=k)
        finally:
            self.chunk = None

    def widen(self, shape: Sequence[int]) -> list[int]:
        """A vector shape widened by the current chunk (its last dim times k)."""
        out = list(shape)
        if self.chunk and out:
            out[-1] *= self.chunk
        return out

    # ---- pipelines and syncs ------------------------------------------------------------

    def visit_pipeline(self, p: ktdf.PipelineOp) -> None:
        index = self.pa.pipeline_index(p)
        channels = self.pa.channels.get(index, [])
        slot = self.slots.setdefault(p, Form.constant(0))
        for s, stage in enumerate(p.stages):
            mine = self.involved(stage)
            for ch in channels:
                if ch.reader == self.engine.name and ch.read_stage == s:
                    self.sync(ch, "full", recv=True)
                if ch.writer == self.engine.name and ch.write_stage == s:
                    self.sync(ch, "free", recv=True)
            if mine:
                self.walk(stage.body.block.ops)
            for ch in channels:
                if ch.writer == self.engine.name and ch.write_stage == s:
                    self.sync(ch, "full", recv=False)
                if ch.reader == self.engine.name and ch.read_stage == s:
                    self.sync(ch, "free", recv=False)
        modulo = p.modulo_value
        if modulo > 1 and self.engine.name in self.pa.buffer_engines.get(p, ()):
            if slot.is_constant:
                self.slots[p] = Form.constant((slot.value + 1) % modulo)
            else:
                cur = self.value(slot, "slot")
                nxt = self.emit(arith.AddiOp(cur, self.const(1))).results[0]
                wrapped = self.emit(arith.RemUIOp(nxt, self.const(modulo))).results[0]
                wrapped.name_hint = "next_slot"
                self.slots[p] = Form.atom(wrapped)

    def sync(self, ch: SyncChannel, which: str, recv: bool) -> None:
        """Tokens of channel `ch`: `full` flows writer -> reader, `free` reader -> writer."""
        sender = ch.writer if which == "full" else ch.reader
        receiver = ch.reader if which == "full" else ch.writer
        peer = receiver if not recv else sender
        peer_info = self.pa.engines[peer]
        name = f"{ch.name}_{which}"
        peers = parallel_loops.channel_peers(self, ch, peer)
        if peers is None:
            peers = [None] if peer_info.level == "core" else list(range(self.pa.corelets.get(peer, 1)))
        for k in peers:
            arg = k if k is None or isinstance(k, SSAValue) else self.const(k)
            self.emit(df.SyncRecvOp(name, arg) if recv else df.SyncSendOp(name, arg))

    # ---- transfers ------------------------------------------------------------------------

    def endpoint(self, value: SSAValue, offsets, sizes: Sequence[int]):
        """(memory, base address form in bytes, strides, element type) of a memory side."""
        offs = [self.env[o] if isinstance(o, SSAValue) else Form.constant(int(o)) for o in offsets]
        if value in self.pa.views:
            view = self.pa.views[value]
            address = view.offset
            for o, lo, st in zip(offs, view.minima, view.strides):
                address = address + (o - Form.constant(lo)).scale(st)
            self.pointer = next((a for a, _ in view.offset.arg_terms()), None)
            return view.memory, address.scale(view.element_bytes), view.strides, view.element
        self.pointer = None
        buf = self.pa.buffers[value]
        assert buf.alloc is not None
        strides = []
        acc = 1
        for d in reversed(buf.shape):
            strides.append(acc)
            acc *= d
        strides.reverse()
        address = Form.constant(buf.alloc.offset)
        slot = self.slots.get(buf.pipeline, Form.constant(0))
        if buf.slots > 1:
            address = address + slot.scale(buf.alloc.slot_bytes)
        address = address + parallel_loops.instance_offset(self, buf)
        element_offset = Form.constant(0)
        for o, st in zip(offs, strides):
            element_offset = element_offset + o.scale(st)
        return buf.memory, address + element_offset.scale(buf.element_bytes), tuple(strides), buf.element

    def transfer(self, op: ktdf.DataTransferOp) -> None:
        raw_src = [self.env[s].value if isinstance(s, SSAValue) else int(s) for s in op.mixed_source_sizes()]
        src_sizes = self.widen(raw_src)
        dst_sizes = self.widen([self.env[s].value if isinstance(s, SSAValue) else int(s)
                                for s in op.mixed_dest_sizes()])
        src_is_fifo = op.source in self.pa.fifos
        dst_is_fifo = op.dest in self.pa.fifos
        if op.source in self.pa.gathers or op.dest in self.pa.gathers:
            if src_is_fifo or dst_is_fifo:
                raise UnsupportedError("lowering: a gathered view moved through a FIFO", where(op))
            if math.prod(src_sizes) == 0:
                return
            lower_indirect(self, op, op.source in self.pa.gathers, src_sizes, dst_sizes, where(op),
                           _access)
            return
        if not src_is_fifo and not dst_is_fifo:
            smem, saddr, sstr, elem = self.endpoint(op.source, op.mixed_source_offsets(), src_sizes)
            spointer = self.pointer
            dmem, daddr, dstr, _ = self.endpoint(op.dest, op.mixed_dest_offsets(), dst_sizes)
            dpointer = self.pointer
            if math.prod(src_sizes) == 0:
                return
            self.check_inside(op.source, op.mixed_source_offsets(), src_sizes, op)
            self.check_inside(op.dest, op.mixed_dest_offsets(), dst_sizes, op)
            src_base = self.value(saddr, "src", memory=smem, argument=spointer)
            dst_base = self.value(daddr, "dst", memory=dmem, argument=dpointer)
            clips = [c for c in (self.clip(op.source, op.mixed_source_offsets(), src_sizes, "source", op),
                                 self.clip(op.dest, op.mixed_dest_offsets(), dst_sizes, "target", op))
                     if c is not None]
            if len(clips) > 1:
                raise UnsupportedError("lowering: not supported yet: a copy between two views "
                                       "that both mask positions", where(op))
            self.emit(CompositeLoadAndStoreOp(
                smem, src_base, _access(src_sizes, sstr), dmem, dst_base, _access(dst_sizes, dstr), elem,
                clips[0] if clips else None))
        elif dst_is_fifo:
            fifo = self.pa.fifos[op.dest]
            mem, addr, strides, elem = self.endpoint(op.source, op.mixed_source_offsets(), src_sizes)
            if op.mode == "splat":
                self.refuse_masked(op.source, op)
                if math.prod(raw_src) != 1:
                    raise UnsupportedError("lowering: a splat moves one element", where(op))
                # the address generator reads the one element for every lane: stride 0
                zeros = [0] * len(fifo.shape)
                wide = self.widen(fifo.shape)
                load = self.emit(VectorLoadOp(mem, self.value(addr, "at", memory=mem, argument=self.pointer),
                                              _access(wide, zeros), _vector(wide, elem)))
                self.emit(df.SendOp(load.results[0], fifo.name))
                return
            box, valid = self._fifo_box_static(src_sizes, self.widen(fifo.shape), op)
            self.refuse_masked(op.source, op)
            self.check_inside(op.source, op.mixed_source_offsets(), src_sizes, op)
            load = self.emit(VectorLoadOp(mem, self.value(addr, "at", memory=mem, argument=self.pointer), _access(box, strides, valid),
                                          _vector(box, elem)))
            self.emit(df.SendOp(load.results[0], fifo.name))
        else:
            fifo = self.pa.fifos[op.source]
            mem, addr, strides, elem = self.endpoint(op.dest, op.mixed_dest_offsets(), dst_sizes)
            box, valid = self._fifo_box_static(dst_sizes, self.widen(fifo.shape), op)
            self.refuse_masked(op.dest, op)
            self.check_inside(op.dest, op.mixed_dest_offsets(), dst_sizes, op)
            recv = self.emit(df.ReceiveOp(fifo.name, _vector(box, elem)))
            self.emit(VectorStoreOp(recv.results[0], mem, self.value(addr, "at", memory=mem, argument=self.pointer),
                                    _access(box, strides, valid)))

    def clip(self, value: SSAValue, offsets, sizes: Sequence[int], side: str, op: Operation):
        """The run-time mask of a transfer on a masked view (`ktdf.masked`): its coordinate
        set, over the box's dims, with the box's origin and the view's sizes as symbols, so
        that the positions outside the view are masked (loads give 0, stores skip them)
        wherever the tile, the loop iteration and the run-time sizes put the box."""
        view = self.pa.views.get(value)
        if view is None or not view.masked or view.op is None:
            return None
        cset = view.op.coordinate_set.data
        rank, nsym = cset.num_dims, cset.num_symbols
        if len(sizes) != rank or len(offsets) != rank:
            raise UnsupportedError(f"lowering: not supported yet: a masked transfer of rank "
                                   f"{len(sizes)} on a view of rank {rank}", where(op))
        forms = [self.env[o] if isinstance(o, SSAValue) else Form.constant(int(o)) for o in offsets]
        for size in list(view.op.sizes)[:nsym]:
            if size not in self.env:
                raise UnsupportedError("lowering: not supported yet: a masked view whose size "
                                       "the program does not know", where(op))
            forms.append(self.env[size])
        values = [self.value(f, "edge", kind="index") for f in forms]
        dims = [AffineExpr.dimension(i) + AffineExpr.symbol(i) for i in range(rank)]
        syms = [AffineExpr.symbol(rank + j) for j in range(nsym)]
        constraints = tuple(
            AffineConstraintExpr(c.kind, c.lhs.replace_dims_and_symbols(dims, syms),
                                 c.rhs.replace_dims_and_symbols(dims, syms))
            for c in cset.constraints)
        return side, AffineSet(rank, rank + nsym, constraints), values

    def refuse_masked(self, value: SSAValue, op: Operation) -> None:
        view = self.pa.views.get(value)
        if view is not None and view.masked:
            raise UnsupportedError("lowering: not supported yet: masked accesses moved between "
                                   "a view and a FIFO without a DMA transfer", where(op))

    def check_inside(self, value: SSAValue, offsets, sizes: Sequence[int], op: Operation) -> None:
        """A transfer must stay inside its buffer (every offset the loops can give)."""
        buf = self.pa.buffers.get(value)
        if buf is None:
            return
        for dim, (o, size, extent) in enumerate(zip(offsets, sizes, buf.shape)):
            form = self.env[o] if isinstance(o, SSAValue) else Form.constant(int(o))
            span = form_range(form, self.ranges)
            if span is not None and (span[0] < 0 or span[1] + size > extent):
                raise VerifyError(
                    f"the ScheduleIR moves [{span[0]}, {span[1] + size}) along dim {dim} of "
                    f"buffer {buf.op.operand.data} ({list(buf.shape)}): outside the buffer",
                    where(op))

    @staticmethod
    def _fifo_box_static(sizes: Sequence[int], slot: Sequence[int], op: Operation):
        """The box a FIFO-side transfer moves: the slot's shape, with the lanes past `sizes`
        masked (a partial last vector is zero-padded in the FIFO, never stored)."""
        if len(sizes) != len(slot) or any(s > t for s, t in zip(sizes, slot)):
            raise UnsupportedError(f"lowering: a transfer of {list(sizes)} does not fit a FIFO slot "
                                   f"of {list(slot)}", where(op))
        return list(slot), (list(sizes) if list(sizes) != list(slot) else None)

    # ---- compute ------------------------------------------------------------------------

    def generic(self, op: linalg.GenericOp) -> None:
        if len(op.outputs) != 1:
            raise UnsupportedError("lowering: a generic with several outputs is not supported yet", where(op))
        out_type = op.outputs[0].type
        assert isinstance(out_type, TensorType)
        maps = [m.data for m in op.indexing_maps]  # type: ignore[attr-defined]
        if self.pa.units.is_matrix_unit(self.engine) and matmul_dims(op) is not None:
            self.matmul(op)
            return
        # The iteration shape: the output's, plus the reduced dims (from inputs using them).
        layout = reduction_shape(op, self.widen(out_type.get_shape()))
        reduced, shape = layout.reduced, layout.shape
        block = op.body.block
        acc_arg = block.args[len(op.inputs)]
        values: dict[SSAValue, SSAValue] = {}
        for arg, operand, amap in zip(block.args, op.inputs, maps):
            values[arg] = self.operand_vector(operand, amap, shape, op)
        if not reduced and acc_arg.uses:
            values[acc_arg] = self.operand_vector(op.outputs[0], maps[-1], shape, op)
        for inner in block.ops:
            if isinstance(inner, linalg.YieldOp):
                yielded = inner.operands[0]
                if yielded not in values:
                    # a value from outside yielded as it is (a stored constant): spread it
                    values[yielded] = self.outside_scalar(yielded, shape, inner)
                result = values[yielded]
                self.tensors[op.results[0]] = result
                if not reduced:  # an elementwise result is as partial as its inputs
                    self.pass_on_lanes(op, maps)
                return
            if reduced and acc_arg in inner.operands:
                lanes = self.reduced_lanes(op, maps, len(shape)) if layout.reduces_lanes else None
                values[inner.results[0]] = self.combine(inner, acc_arg, values, op, layout, lanes)
                continue
            if isinstance(inner, arith.ConstantOp):
                values[inner.result] = self.splat_constant(inner.value, shape)
                continue
            if _position_arithmetic(inner):
                continue  # read by the conversion to float below
            if isinstance(inner, arith.UIToFPOp) and _position_arithmetic(inner.input.owner):
                values[inner.results[0]] = self.position_vector(inner.input, shape, inner)
                continue
            for o in inner.operands:
                if o not in values:
                    values[o] = self.outside_scalar(o, shape, inner)
            result_elem = inner.results[0].type
            vtype = _vector(shape, result_elem)
            args = [values[o] for o in inner.operands]
            if inner.name in BINARY and all(a.type == vtype for a in args):
                new = BINARY[inner.name](args[0], args[1])
            else:
                attrs = {k: v for k, v in {**inner.properties, **inner.attributes}.items()
                         if k not in ("fastmath", "overflowFlags")}
                new = vectorchain.ApplyOp(inner.name, args, vtype, attrs)
            self.emit(new)
            values[inner.results[0]] = new.results[0]

    def position_vector(self, value: SSAValue, shape, user: Operation) -> SSAValue:
        """The f32 vector of a whole-number index value of a body: a sum of positions in
        the step's vector (`linalg.index`, a constant iota) and values from outside (the
        step's loop counters, tile ids, arguments). The outside sum enters as bits: a
        float whose bits are 0x4B000000 + n is 2^23 + n for 0 <= n < 2^23, so
        `splat_bits` of that sum minus 2^23 is n exactly (the unit has no integer lanes
        to convert from)."""
        dims: list[int] = []
        outside = Form.constant(0)
        pending = [value]
        while pending:
            v = pending.pop()
            owner = v.owner
            if isinstance(owner, linalg.IndexOp):
                dims.append(owner.dim.value.data)
            elif isinstance(owner, arith.IndexCastOp | arith.AddiOp) \
                    and owner.parent_block() is user.parent_block():
                pending += list(owner.operands)
            elif v in self.scalars and isinstance(self.scalars[v], IntegerAttr):
                outside = outside + Form.constant(self.scalars[v].value.data)  # type: ignore[attr-defined]
            elif v in self.env:
                outside = outside + self.env[v]
            else:
                raise UnsupportedError("lowering: a position in a generic body made from a "
                                       "value the unit does not hold", where(user))
        static, _ = outside.split()
        if not static.arg_terms():
            for core in range(self.num_tiles):
                n = static.const_at(core)
                if not 0 <= n < 1 << 23:
                    raise UnsupportedError(f"lowering: a position value {n} in a generic body "
                                           "outside [0, 2^23), which f32 cannot convert exactly "
                                           "this way", where(user))
        f32 = Float32Type()
        one = _vector([1], f32)
        bits = self.value(outside + Form.constant(0x4B000000), "bits", kind="index")
        splat = self.emit(vectorchain.SplatBitsOp(bits, one)).results[0]
        magic = self.emit(vectorchain.ConstantBitstreamOp(bits_hex(float(1 << 23), f32), one)).results[0]
        number = self.emit(vectorchain.SubOp(splat, magic)).results[0]
        spread = self.emit(vectorchain.ShuffleOp(number, [0], _vector(shape, f32))).results[0]
        if not dims:
            return spread
        lanes = np.zeros(tuple(shape), dtype=np.float32)
        for d in dims:
            lanes += np.arange(shape[d], dtype=np.float32).reshape(
                [-1 if k == d else 1 for k in range(len(shape))])
        hexes = "".join(bits_hex(float(x), f32) for x in lanes.reshape(-1))
        iota = self.emit(vectorchain.ConstantBitstreamOp(hexes, _vector(shape, f32))).results[0]
        return self.emit(vectorchain.AddOp(spread, iota)).results[0]

    def matmul(self, op: linalg.GenericOp) -> None:
        """A matmul-shaped generic on the matrix unit: one `vectorchain.matmul` per step,
        A as R x K and B as K x C (an operand the FIFO delivers transposed is reordered
        first), accumulating into the carried R x C accumulator. The K slab of a step
        may be a partial vector: its padding lanes are dropped before the instruction."""
        m, n = matmul_dims(op)  # type: ignore[misc]
        maps = [mp.data for mp in op.indexing_maps]  # type: ignore[attr-defined]
        k = next(d for d in range(3) if d not in (m, n))
        out_shape = self.tensors_shape(op.outputs[0])
        block = op.body.block
        mul = next(o for o in block.ops if isinstance(o, arith.MulfOp))
        product = mul.result.type
        lanes = self.reduced_lanes(op, [AffineMap(3, 0, tuple(
            AffineExpr.dimension({m: 0, n: 1, k: 2}[r.position]) for r in mp.results))
            for mp in maps], 3)
        operands = []
        for pos, (operand, amap) in enumerate(zip(op.inputs, maps)):
            value = self.tensors.get(operand)
            if value is None:
                raise UnsupportedError("lowering: a generic operand that no FIFO delivers", where(op))
            dims = [r.position for r in amap.results]  # type: ignore[attr-defined]
            want = [m, k] if m in dims else [k, n]
            vtype = value.type
            assert isinstance(vtype, VectorType)
            shape = list(vtype.get_shape())
            if dims != want:  # stored transposed: reorder to the unit's layout
                t = [shape[1], shape[0]]
                pattern = [j * shape[1] + i for i in range(t[0]) for j in range(t[1])]
                value = self.emit(vectorchain.ShuffleOp(
                    value, pattern, _vector(t, vtype.element_type))).results[0]
                shape = t
            kpos = want.index(k)
            if lanes is not None and lanes < shape[kpos]:
                # a partial K slab: keep its data lanes only
                kept = [i * shape[1] + j for i in range(shape[0]) for j in range(shape[1])
                        if (j if kpos == 1 else i) < lanes]
                shape[kpos] = lanes
                value = self.emit(vectorchain.ShuffleOp(
                    value, kept, _vector(shape, vtype.element_type))).results[0]
            operands.append((m in dims, value))
        lhs = next(v for is_a, v in operands if is_a)
        rhs = next(v for is_a, v in operands if not is_a)
        acc_elem = op.outputs[0].type.element_type  # type: ignore[attr-defined]
        acc = self.tensors.get(op.outputs[0])
        if acc is None:
            acc = self.splat_constant(FloatAttr(0.0, acc_elem), out_shape)
        new = self.emit(vectorchain.MatmulOp(str(product), lhs, rhs, acc))
        self.tensors[op.results[0]] = new.results[0]

    def pass_on_lanes(self, op: linalg.GenericOp, maps: list[AffineMap]) -> None:
        """The lanes of data of an elementwise generic's result: those of its inputs read
        whole (identity map), so a later reduction over it also drops the padding."""
        found: tuple[int, ...] | str | None = None
        for operand, amap in zip(op.inputs, maps):
            lanes = self.valid.get(operand)
            if lanes is None or amap != AffineMap.identity(amap.num_dims):
                continue
            if lanes == partial.UNKNOWN or found == partial.UNKNOWN:
                found = partial.UNKNOWN
            else:
                found = lanes if found is None else tuple(min(a, b) for a, b in zip(found, lanes))
        self.set_valid(op.results[0], found)

    def set_valid(self, tensor_value: SSAValue, lanes: tuple[int, ...] | str | None) -> None:
        """Record how many lanes of `tensor_value` are data at the iteration being emitted
        (None: all). The same ScheduleIR op is emitted once per peeled copy of its loops (a
        partial column chunk, then a whole one in the remainder row), so an answer must
        replace the previous copy's, never linger from it."""
        if lanes is None:
            self.valid.pop(tensor_value, None)
        else:
            self.valid[tensor_value] = lanes

    def reduced_lanes(self, op: linalg.GenericOp, maps: list[AffineMap], n: int) -> int | None:
        """Lanes of data along the reduced dim when an input is a partial vector there."""
        found = None
        for operand, amap in zip(op.inputs, maps):
            lanes = self.valid.get(operand)
            if lanes is None:
                continue
            if lanes == partial.UNKNOWN:
                raise UnsupportedError(
                    "lowering: this reduction reads a FIFO whose entries may be partial "
                    "vectors, and the lowering cannot tell how many lanes are data here "
                    "(padding must not enter a reduction)", where(op))
            for pos, expr in enumerate(amap.results):
                if getattr(expr, "position", None) == n - 1:
                    found = lanes[pos] if found is None else min(found, lanes[pos])
        return found

    def combine(self, inner: Operation, acc_arg: SSAValue, values: dict[SSAValue, SSAValue],
                op: linalg.GenericOp, layout: ReductionShape,
                lanes: int | None = None) -> SSAValue:
        """`acc' = combiner(contribution, acc)`: reduce the contribution's innermost dim
        when it is reduced (exact, rounded once to the accumulator type), then combine with
        the carried accumulator: the hardware's chunk-by-chunk accumulation. A reduction
        over an outer dim combines the whole vector lane by lane (reduction_vectors.py)."""
        kind = REDUCTION_KINDS.get(inner.name)
        others = [o for o in inner.operands if o is not acc_arg]
        if kind is None or len(others) != 1 or others[0] not in values:
            raise UnsupportedError(f"lowering: {inner.name} is not a reduction combiner this "
                                   "version lowers", where(inner))
        contribution = values[others[0]]
        ctype = contribution.type
        assert isinstance(ctype, VectorType)
        lead = list(ctype.get_shape())[:-1]
        if lanes is not None and lanes < ctype.get_shape()[-1]:
            # a partial vector: its padding lanes must not enter the reduction
            kept = self.emit(vectorchain.ShuffleOp(
                contribution, partial.keep_lanes_pattern(ctype.get_shape(), lanes),
                _vector([*lead, lanes], ctype.element_type)))
            contribution = kept.results[0]
        acc_elem = inner.results[0].type
        out_shape = self.tensors_shape(op.outputs[0])
        if layout.reduces_lanes:
            # straight into the accumulator's shape: a reshape is no instruction, and a
            # shuffle here would wait a latency in every step of the chain
            contribution = self.emit(vectorchain.ReduceOp(
                kind, contribution, _vector(out_shape, acc_elem))).results[0]
        elif list(_shape_of(contribution)) != out_shape:
            contribution = self.emit(vectorchain.ShuffleOp(
                contribution, list(range(math.prod(out_shape))),
                _vector(out_shape, acc_elem))).results[0]
        acc = self.tensors.get(op.outputs[0])
        if acc is None:
            return contribution
        cls = BINARY.get(inner.name)
        new = cls(acc, contribution) if cls is not None else vectorchain.ApplyOp(
            inner.name, [acc, contribution], _vector(out_shape, acc_elem))
        self.emit(new)
        return new.results[0]

    def tensors_shape(self, value: SSAValue) -> list[int]:
        t = value.type
        assert isinstance(t, TensorType)
        return list(t.get_shape())

    def operand_vector(self, operand: SSAValue, amap: AffineMap, shape, op) -> SSAValue:
        if operand in self.scalars:
            return self.splat_constant(self.scalars[operand], shape)
        value = self.tensors.get(operand)
        if value is None:
            raise UnsupportedError("lowering: a generic operand that no FIFO delivers", where(op))
        vtype = value.type
        assert isinstance(vtype, VectorType)
        in_shape = tuple(vtype.get_shape())
        if amap == AffineMap.identity(len(shape)) and in_shape == tuple(shape):
            return value
        coords = np.indices(shape).reshape(len(shape), -1).T
        pattern = []
        for c in coords:
            res = amap.eval([int(x) for x in c], [])
            flat = 0
            for r, d in zip(res, in_shape):
                flat = flat * d + r
            pattern.append(flat)
        return self.emit(vectorchain.ShuffleOp(value, pattern, _vector(shape, vtype.element_type))).results[0]

    def outside_scalar(self, value: SSAValue, shape, user: Operation) -> SSAValue:
        """A scalar from outside a generic body spread over the iteration `shape`."""
        one = self._scalar_vector(value, user)
        elem = one.type.element_type  # type: ignore[attr-defined]
        return self.emit(vectorchain.ShuffleOp(one, [0], _vector(shape, elem))).results[0]

    def _scalar_vector(self, value: SSAValue, user: Operation) -> SSAValue:
        """`value` as a one-element vector: a constant as its bits; a float argument of the
        program as the launch-time symbol holding its bits (the runtime passes a float
        scalar as its bit pattern); an elementwise op of such values computed here, once
        per use, on one lane (scalar arithmetic outside the body costs a cycle, not a
        stage)."""
        if value in self.scalars:
            attr = self.scalars[value]
            if isinstance(attr, FloatAttr | IntegerAttr):
                elem = attr.type
                return self.emit(vectorchain.ConstantBitstreamOp(
                    bits_hex(attr.value.data, elem), _vector([1], elem))).results[0]
        if isinstance(value, BlockArgument) and is_float_scalar(value.type) \
                and value.owner is self.pa.func.body.block:
            name = value.name_hint or f"arg{value.index}"
            bits = self.tables.symbol(sx.arg(name), kind="bits", argument=name, memory=None,
                                      core=None)
            return self.emit(vectorchain.SplatBitsOp(bits, _vector([1], value.type))).results[0]
        owner = value.owner
        if isinstance(owner, Operation) and is_scalar_compute(owner):
            args = [self._scalar_vector(o, user) for o in owner.operands]
            vtype = _vector([1], owner.results[0].type)
            if owner.name in BINARY and all(a.type == vtype for a in args):
                new = BINARY[owner.name](args[0], args[1])
            else:
                attrs = {k: v for k, v in {**owner.properties, **owner.attributes}.items()
                         if k not in ("fastmath", "overflowFlags")}
                new = vectorchain.ApplyOp(owner.name, args, vtype, attrs)
            return self.emit(new).results[0]
        raise UnsupportedError("lowering: a generic body uses a value from outside that is not "
                               "a constant, a float argument or arithmetic on them",
                               where(user))

    def splat_constant(self, attr: Attribute, shape) -> SSAValue:
        if isinstance(attr, FloatAttr | IntegerAttr):
            elem = attr.type
            c = self.emit(vectorchain.ConstantBitstreamOp(bits_hex(attr.value.data, elem), _vector([1], elem)))
            return self.emit(vectorchain.ShuffleOp(c.results[0], [0], _vector(shape, elem))).results[0]
        raise UnsupportedError(f"lowering: constant {attr} is not supported yet")


__all__ = ["EngineEmitter", "ProgramTables", "base_forms", "index_form", "symbol_expr",
           "AffineMapAttr", "AffineSetAttr"]
