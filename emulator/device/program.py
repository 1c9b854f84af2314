"""One DataflowIR program made runnable: every unit instance of every program unit becomes
a process of the simulator running the unit's body.

`ProgramImage.of(name, func)` checks and compiles the program's argument-free inner
function once (prepare): the FIFO and sync declarations, the uniform top level
(constants, symbols, per-unit maps) and each program unit, translated to a Python
generator function by `emulator.device.codegen`. `bind(device)` resolves every FIFO
instance against the device. `spawn(launch, symbols)` (every launch) evaluates the top
level once and starts every unit instance.

Semantics and timing follow docs/dataflowir.md:
- `agen.vector_load`: busy ceil(bytes / bw) of the datapath MEM -> unit; ready its latency later.
- `agen.vector_store`: waits for its value; busy ceil(bytes / bw) of unit -> MEM; lands a latency later.
- `agen.composite_load_and_store`: the route SRC -> DST is one hop by the unit: busy
  ceil(bytes / hop bandwidth) after waiting for shared device-memory bandwidth; lands
  hop latency later. Source read at issue, target written at landing.
- `dataflow.send`: busy ceil(bytes / bw) of its datapath; entries visible latency later.
- `vectorchain.*`: busy ceil(elements / lanes), result ready the unit's compute latency later;
  `vectorchain.matmul` busy passes x ceil(K x array size / MACs per cycle) (`timing.matrix_cycles`).
- `dataflow.sync_send`: delivered when every earlier transfer of the unit has landed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import VectorType
from xdsl.ir import BlockArgument, Operation

from spyre_sched.dialects import agen, dataflow, symbol, vectorchain
from spyre_sched.device.routing import resolve_per_core
from spyre_sched.errors import DeviceError, ExecutionError
from spyre_sched.polyhedral.views import element_name

from emulator.device import bulk, sim
from emulator.device.access import Access, clipped
from emulator.device.codegen import compile_unit
from emulator.device.machine import EmulatedDevice, Launch
from emulator.device.timing import compute_cycles, matrix_cycles
from emulator.numerics import (
    apply_op,
    element_type,
    exact_f16_product_sums,
    from_bits,
    from_memory,
    op_spec,
    reduce,
    to_memory,
)
from emulator.numerics.arith_ops import native_cast, native_f16, native_loop
from emulator.numerics.reductions import few_f32_sums


def _loop_carried(value) -> bool:
    """`value` is an `scf.for` iteration argument (not its induction variable)."""
    return (isinstance(value, BlockArgument) and value.index > 0
            and isinstance(value.block.parent_op(), scf.ForOp))


def _constant_index(value) -> int | None:
    """The integer an `arith.constant` defines, else None."""
    owner = getattr(value, "owner", None)
    attr = getattr(owner, "value", None) if getattr(owner, "name", "") == "arith.constant" \
        else None
    data = getattr(attr, "value", None)
    return getattr(data, "data", None) if data is not None else None


def summation_depth(root: Operation) -> int | None:
    """An upper bound on how many accumulator roundings any term of a float sum in `root`
    (a program's function) goes through (docs/numerics.md, "The depth a bundle states"):
    every summing instruction counted once per execution a term's path can take through
    it. A summing `vectorchain.reduce` rounds once (the exact sum of its lanes rounded to
    its result type), a `vectorchain.matmul` twice (the dot product, then the add to its
    accumulator), a vector add or subtract once; each is multiplied by the trip counts of
    the loops around it whose carried vectors reach its operands (the partial sums the
    lowering keeps, `lower/reduction_vectors.py`: a carried partial goes through the op
    once per iteration; and a loop the lowering marks as accumulating in memory,
    `dataflow.accumulation`: a matmul's K chunks). Counting every such op, on one path or
    not, only makes the figure larger. None when such a loop's trip count is not a
    constant."""
    total = 0
    for op in root.walk():
        if isinstance(op, vectorchain.ReduceOp):
            if op.kind.data != "add":
                continue
            roundings = 1
        elif isinstance(op, vectorchain.MatmulOp):
            roundings = 2
        elif isinstance(op, (vectorchain.AddOp, vectorchain.SubOp)):
            roundings = 1
        elif isinstance(op, vectorchain.ApplyOp) and op.fn.data in ("arith.addf",
                                                                    "arith.subf"):
            roundings = 1
        else:
            continue
        times = _carried_trips(op)
        if times is None:
            return None
        total += roundings * times
    return total


def _carried_trips(op: Operation) -> int | None:
    """The product of the trip counts of the `scf.for` loops around `op` whose carried
    vectors reach its operands (each iteration takes the carried partial through `op`
    once more; 1 when no loop does); None when one of them has bounds that are not
    constants."""
    times = 1
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            carried = {arg for arg in parent.body.block.args[1:]
                       if isinstance(arg.type, VectorType)}
            # (a loop whose partial sums stay in memory between iterations, the lowering
            # says: dataflow.ACCUMULATION_ATTR; counted as a carry)
            if carried and _reaches(op, carried, parent) \
                    or dataflow.ACCUMULATION_ATTR in parent.attributes:
                lb, ub, step = (_constant_index(v) for v in (parent.lb, parent.ub, parent.step))
                if None in (lb, ub, step) or step <= 0:
                    return None
                times *= max(0, -(-(ub - lb) // step))
        parent = parent.parent_op()
    return times


def _reaches(op: Operation, carried: set, loop: scf.ForOp) -> bool:
    """Whether a value in `carried` (block arguments of `loop`) flows, through the SSA
    values defined inside `loop`, into an operand of `op`."""
    seen: set = set()
    work = list(op.operands)
    while work:
        value = work.pop()
        if value in seen:
            continue
        seen.add(value)
        if value in carried:
            return True
        if isinstance(value, BlockArgument):
            owner = value.block.parent_op()
            if isinstance(owner, scf.ForOp) and value.index > 0 and owner is not loop:
                work.append(owner.iter_args[value.index - 1])  # an inner loop's carry
            continue
        defining = value.owner
        if not loop.is_ancestor(defining):
            continue
        work.extend(defining.operands)
        if isinstance(defining, scf.ForOp):
            work.extend(defining.body.block.last_op.operands)  # what the inner loop yields
    return False


def _vector_etype(type_) -> str:
    return element_name(type_.element_type)


def _numel(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


# ---- what the generated code hands to the helpers: per-op plans made at prepare ----------


@dataclass(frozen=True)
class LoadPlan:
    memory: str
    access: Access
    et: object
    shape: tuple[int, ...]


@dataclass(frozen=True)
class StorePlan:
    memory: str
    access: Access
    et: object


@dataclass(frozen=True)
class CompositePlan:
    source: str
    target: str
    source_access: Access
    target_access: Access
    et: object
    clip: tuple | None = None
    """(side, AffineSet, source AccessAttr, target AccessAttr) of a transfer masked at
    run time (`agen.composite_load_and_store ... clip(...)`), else None."""
    positional: bool = False
    """Box point k of the source goes to box point k of the target, masked or not (a
    clipped transfer: a masked source point gives 0 there, a masked target point is
    skipped); otherwise the source's unmasked points fill the target's in order."""
    clipped: dict = field(default_factory=dict, compare=False, hash=False)
    """The plans of the clip values seen so far (each a plain plan: timing keyed by it)."""

    def at(self, values: tuple[int, ...]) -> CompositePlan:
        """The plain plan for one set of clip values."""
        found = self.clipped.get(values)
        if found is None:
            side, clip, sattr, tattr = self.clip  # type: ignore[misc]
            eb = self.source_access.element_bytes
            sa = Access.of(clipped(sattr, clip, values), eb) if side == "source" else self.source_access
            ta = Access.of(clipped(tattr, clip, values), eb) if side == "target" else self.target_access
            found = CompositePlan(self.source, self.target, sa, ta, self.et, positional=True)
            self.clipped[values] = found
        return found


@dataclass(frozen=True)
class IndirectPlan:
    """An agen.indirect_load_and_store: the composite's fields plus the index reads."""

    source: str
    target: str
    source_access: Access
    target_access: Access
    et: object
    gather: bool  # the indirect side is the source
    index_memory: str
    index_accesses: tuple
    index_ets: tuple
    view_strides: tuple[int, ...]
    bounds: tuple[tuple[int, int], ...]
    grid: np.ndarray  # element offsets of the indirect side's points from its base


class ComputePlan:
    """A vectorchain op: its numerics bound once, its size for the busy time."""

    def __init__(self, op: Operation):
        self.op_name = op.name
        self.elements = max(_numel(v.type.get_shape()) for v in (*op.operands, *op.results)
                            if isinstance(v.type, VectorType))
        first = op.operands[0].type if op.operands else op.results[0].type
        self.et = _vector_etype(first)
        self.shape = tuple(op.results[0].type.get_shape())
        self.arity = len(op.operands)
        #: (rows, depth, cols) of a matrix instruction, else None
        self.matmul: tuple[int, int, int] | None = None
        if isinstance(op, vectorchain.MatmulOp):
            rows, depth = op.lhs.type.get_shape()  # type: ignore[attr-defined]
            self.matmul = (rows, depth, op.rhs.type.get_shape()[1])  # type: ignore[attr-defined]
        self.run = self._bind(op)
        #: (kind, function, operand dtype) of the ops emulator.device.bulk runs over many
        #: loop iterations at once (set by `_shortcut`), else None
        self.batch_kind: tuple | None = None
        #: (function, operand dtypes) computing the op bit for bit as `run` does, without
        #: its checks, for operands of exactly those dtypes (the unit calls it once `run`
        #: has accepted the op); the function may return None: then `run` decides. None:
        #: no such shortcut.
        self.fast: tuple[Callable, tuple] | None = self._shortcut(op)

    def _shortcut(self, op: Operation) -> tuple[Callable, tuple] | None:
        shape = self.shape
        arity = len(op.operands)
        if isinstance(op, vectorchain.BinaryOp):
            et = _vector_etype(op.result.type)
            native = native_loop(op.scalar_op(), et) if et == self.et else None
            if native is not None:
                dtype = element_type(et).value_dtype
                self.batch_kind = ("native", native, dtype)
                return native, (dtype, dtype)
            direct = getattr(self.run, "direct", None)  # the op's own implementation
            if direct is None:
                return None
            self.batch_kind = ("elementwise", direct, self.run.value_dtype)
            return direct, (self.run.value_dtype,) * arity
        if isinstance(op, vectorchain.ApplyOp):
            convert = (native_cast(op.fn.data, self.et, _vector_etype(op.result.type))
                       if not op.attributes else None)
            if convert is not None:
                self.batch_kind = ("convert", convert, element_type(self.et).value_dtype)
                return (lambda a: convert(a).reshape(shape)), (element_type(self.et).value_dtype,)
            direct = getattr(self._bound, "direct", None)
            if direct is None:
                return None
            self.batch_kind = ("apply", direct, self._bound.value_dtype)
            return (lambda *a: direct(*a).reshape(shape)), (self._bound.value_dtype,) * arity
        if isinstance(op, vectorchain.ShuffleOp):
            self.batch_kind = ("shuffle", self._shuffle_index, element_type(self.et).value_dtype)
            return self.run, (element_type(self.et).value_dtype,)
        if isinstance(op, vectorchain.ReduceOp) and op.kind.data == "add" \
                and _vector_etype(op.result.type) == "f32" and self.et == "f32":

            def sums(src):
                value = few_f32_sums(src)
                return None if value is None else value.reshape(shape)

            self.batch_kind = ("f32_sums", None, np.dtype(np.float32))

            return sums, (np.dtype(np.float32),)
        if isinstance(op, vectorchain.MatmulOp):
            # No per-op shortcut (`run` each time), but a K loop's instructions have a
            # stacked form: their exact sums at once, the accumulator's adds in order.
            add = getattr(self.run, "f16_sums_add", None)
            if add is not None:
                self.batch_kind = ("matmul", add, np.dtype(np.float16))
            return None
        if isinstance(op, vectorchain.ReduceOp) and op.kind.data in ("max", "min", "maxnum", "minnum") \
                and element_type(self.et).is_float:
            # No shortcut (`run` each time), but each row reduced on its own: `run` over
            # many iterations' rows at once gives each row's result.
            kind, acc = op.kind.data, _vector_etype(op.result.type)
            self.batch_kind = ("reduce", lambda src: np.asarray(reduce(kind, src, -1, acc)),
                               element_type(self.et).value_dtype)
        return None

    def _bind(self, op: Operation) -> Callable:
        shape = self.shape
        if isinstance(op, vectorchain.BinaryOp):
            return _bound_op(op.scalar_op(), _vector_etype(op.result.type), None, {})
        if isinstance(op, vectorchain.ApplyOp):
            rt = _vector_etype(op.result.type)
            attrs = {}
            for k, v in op.attributes.items():
                value = getattr(v, "value", v)
                attrs[k] = getattr(value, "data", value)
            fn = _bound_op(op.fn.data, self.et, rt if rt != self.et else None, attrs)
            self._bound = fn
            return lambda *arrays: np.asarray(fn(*arrays)).reshape(shape)
        if isinstance(op, vectorchain.ShuffleOp):
            pattern = np.asarray(op.pattern_list, dtype=np.int64)
            idx = pattern[np.arange(_numel(shape)) % len(pattern)]
            self._shuffle_index = idx
            return lambda src: src.reshape(-1)[idx].reshape(shape)
        if isinstance(op, vectorchain.ReduceOp):
            kind, acc = op.kind.data, _vector_etype(op.result.type)
            return lambda src: np.asarray(reduce(kind, src, -1, acc)).reshape(shape)
        if isinstance(op, vectorchain.MatmulOp):
            return _matmul_fn(op)
        raise ExecutionError(f"no compute plan for {op.name}")

    def cycles_on(self, unit) -> int:
        """Cycles this op occupies `unit` (a device-model unit): a matrix instruction at
        the unit's MAC rate for its operand type, anything else one vector of the
        unit's lanes per cycle. Raises the device model's error for a type it lacks."""
        if self.matmul is not None:
            rows, depth, cols = self.matmul
            macs = unit.macs(self.et) if unit.compute_class == "matrix" else None
            if macs is None:
                raise ExecutionError(f"{self.op_name} on {self.et} runs on {unit.name}, which "
                                     f"is not a matrix unit with a MAC rate for {self.et}")
            return matrix_cycles(rows, cols, depth, unit.matrix_rows, unit.matrix_cols, macs)
        return compute_cycles(self.elements, unit.lanes(self.et))


def _matmul_fn(op: vectorchain.MatmulOp) -> Callable:
    """`vectorchain.matmul`: products in the product type, each output's K products summed
    exactly and rounded once to the accumulator type, added to the accumulator. Whole
    blocks at once: the R x C x K products as one array."""
    product = op.product.data
    sides = []
    for value in (op.lhs, op.rhs):
        et = _vector_etype(value.type)
        sides.append(None if et == product else _bound_op("arith.extf", et, product, {}))
    mul = _bound_op("arith.mulf", product, None, {})
    acc_et = _vector_etype(op.result.type)
    add = _bound_op("arith.addf", acc_et, None, {})
    # f16 operands, f32 products and sums: the exact sums are matrix products in float64
    # (`exact_f16_product_sums`), the same values without the R x C x K products
    f16_sums = (product == "f32" and acc_et == "f32"
                and all(_vector_etype(v.type) == "f16" for v in (op.lhs, op.rhs)))

    def run(lhs, rhs, acc):
        if f16_sums:
            sums = exact_f16_product_sums(np.asarray(lhs, dtype=np.float16),
                                          np.asarray(rhs, dtype=np.float16))
            if sums is not None:  # else a non-finite operand: the products' own way
                return np.asarray(add(acc, sums)).reshape(sums.shape)
        if sides[0] is not None:
            lhs = np.asarray(sides[0](lhs))
        if sides[1] is not None:
            rhs = np.asarray(sides[1](rhs))
        rows, depth = lhs.shape
        cols = rhs.shape[1]
        a = np.ascontiguousarray(np.broadcast_to(lhs[:, None, :], (rows, cols, depth)))
        b = np.ascontiguousarray(np.broadcast_to(rhs.T[None, :, :], (rows, cols, depth)))
        terms = np.asarray(mul(a, b))
        sums = np.asarray(reduce("add", terms, -1, acc_et)).reshape(rows, cols)
        return np.asarray(add(acc, sums)).reshape(rows, cols)

    # what emulator.device.bulk needs to run many of these at once (the sums' way only)
    run.f16_sums_add = add if f16_sums else None
    return run


def _bound_op(name: str, et_name: str, result_type: str | None, attrs: dict) -> Callable:
    """`apply_op(name, et, ...)` with its checks done on the first call; later calls whose
    operands already hold the type's values go straight to the op's numpy implementation
    (the same code, so the same rounding)."""
    spec = op_spec(name)
    et = element_type(et_name)
    rt = element_type(result_type) if result_type is not None and spec.needs_result_type else None
    kwargs = {"result_type": result_type} if result_type is not None else {}
    values = {k: v for k, v in attrs.items() if k in spec.attrs}
    for key, default in spec.attrs.items():
        values.setdefault(key, default)
    value_dtype = et.value_dtype
    checked = []
    native = native_f16(name) if et_name == "f16" and not values else None
    if native is not None:
        # An f16 +, -, *, / that numpy's own float16 loop computes bit for bit (what
        # spec.impl would call on these operands), without the layers in between.
        f16 = np.dtype(np.float16)

        def call_f16(*arrays):
            if checked and len(arrays) == 2 and arrays[0].dtype == f16 and arrays[1].dtype == f16 \
                    and arrays[0].ndim:
                return native(arrays[0], arrays[1])
            result = apply_op(name, et_name, *arrays, **kwargs, **attrs)
            checked.append(True)
            return result

        # For UnitRun.compute_fn: the same test and call without this frame.
        call_f16.native = native
        call_f16.checked = checked
        return call_f16

    def call(*arrays):
        if checked and not spec.condition_first and all(a.dtype == value_dtype for a in arrays):
            return np.asarray(spec.impl(et, rt, *arrays, **values))
        result = apply_op(name, et_name, *arrays, **kwargs, **attrs)
        checked.append(True)
        return result

    if not spec.condition_first:
        # For ComputePlan's shortcut: `call` once checked, on operands of the value dtype
        # (inside a launch, which ignores floating-point errors: an intrinsic's own
        # rounding without its error state, the same values).
        unchecked = getattr(spec.impl, "unchecked", None)
        lean = unchecked(et, values) if unchecked is not None else None
        if lean is not None:
            call.direct = lambda *arrays: np.asarray(lean(*arrays))
        else:
            call.direct = lambda *arrays: np.asarray(spec.impl(et, rt, *arrays, **values))
        call.value_dtype = value_dtype
    return call


# ---- the program ----------------------------------------------------------------------------


@dataclass
class UnitProgram:
    tag: str
    engine: str
    units: tuple[str, ...]
    main: Callable
    consts: list
    source: str


@dataclass
class ProgramImage:
    name: str
    inner: func.FuncOp
    fifos: dict[str, dataflow.FifoOp]
    syncs: dict[str, dataflow.SyncOp]
    units: list[UnitProgram]
    symbol_ids: set[int]
    locations: dict = field(default_factory=dict)
    access_cache: dict = field(default_factory=dict)
    top_level: Callable | None = None
    top_consts: list = field(default_factory=list)
    device_name: str | None = None

    @staticmethod
    def of(name: str, inner: func.FuncOp, locations: dict | None = None) -> ProgramImage:
        image = ProgramImage(name, inner, {}, {}, [], set(), locations or {})
        block = inner.body.block
        shared = []
        for op in block.ops:
            if isinstance(op, dataflow.FifoOp):
                image.fifos[op.sym_name.data] = op
            elif isinstance(op, dataflow.SyncOp):
                image.syncs[op.sym_name.data] = op
            elif not isinstance(op, (dataflow.ProgramUnitOp, func.ReturnOp)):
                shared.extend(op.results)
        image.top_level, image.top_consts, _ = compile_unit(image, "top", block, shared, top=True)
        for op in block.ops:
            if isinstance(op, dataflow.ProgramUnitOp):
                main, consts, source = compile_unit(image, op.sym_name.data, op.body.block, shared)
                image.units.append(UnitProgram(op.sym_name.data, op.engine.data, op.unit_names,
                                               main, consts, source))
        for op in inner.walk():
            if isinstance(op, symbol.CreateSymbolOp):
                image.symbol_ids.add(op.id)
        if not image.units:
            raise ExecutionError(f"program {name} has no dataflow.program_unit")
        return image

    # ---- per-op plans (called by the code generator) -----------------------------------

    def access(self, attr: agen.AccessAttr, element_bytes: int) -> Access:
        key = (attr, element_bytes)
        found = self.access_cache.get(key)
        if found is None:
            found = Access.of(attr, element_bytes)
            self.access_cache[key] = found
        return found

    def load_plan(self, op: agen.VectorLoadOp) -> LoadPlan:
        et = element_type(_vector_etype(op.result.type))
        return LoadPlan(op.memory.data, self.access(op.access, et.size), et,
                        tuple(op.result.type.get_shape()))

    def store_plan(self, op: agen.VectorStoreOp) -> StorePlan:
        et = element_type(_vector_etype(op.value.type))
        return StorePlan(op.memory.data, self.access(op.access, et.size), et)

    def composite_plan(self, op: agen.CompositeLoadAndStoreOp) -> CompositePlan:
        et = element_type(element_name(op.element))
        clip = None
        if op.clip is not None:
            clip = (op.clip_side.data, op.clip.data, op.source_access, op.target_access)
        key = ("composite", op.source_memory.data, op.target_memory.data, op.source_access,
               op.target_access, et.size, clip[:2] if clip else None)
        found = self.access_cache.get(key)
        if found is None:  # one plan per distinct transfer: its clipped plans are shared
            found = CompositePlan(op.source_memory.data, op.target_memory.data,
                                  self.access(op.source_access, et.size),
                                  self.access(op.target_access, et.size), et, clip)
            self.access_cache[key] = found
        return found

    def indirect_plan(self, op: agen.IndirectLoadAndStoreOp) -> IndirectPlan:
        et = element_type(element_name(op.element))
        sa = self.access(op.source_access, et.size)
        ta = self.access(op.target_access, et.size)
        side = sa if op.indirect.data == "source" else ta
        index_ets = tuple(element_type(element_name(t)) for t in op.index_elements.data)
        index_accesses = tuple(self.access(a, iet.size)
                               for a, iet in zip(op.index_accesses.data, index_ets))
        grid = np.zeros(side.shape, dtype=np.int64) + side.offset // et.size
        for axis, (n, stride) in enumerate(zip(side.shape, side.strides)):
            shape = [1] * len(side.shape)
            shape[axis] = n
            grid = grid + (np.arange(n, dtype=np.int64) * (stride // et.size)).reshape(shape)
        bounds = op.bounds.get_values()
        return IndirectPlan(op.source_memory.data, op.target_memory.data, sa, ta, et,
                            op.indirect.data == "source", op.index_memory.data, index_accesses,
                            index_ets, tuple(op.view_strides.get_values()),
                            tuple((bounds[2 * j], bounds[2 * j + 1]) for j in range(len(index_ets))),
                            grid)

    def bitstream_value(self, op: vectorchain.ConstantBitstreamOp) -> np.ndarray:
        type_ = op.result.type
        et = element_type(_vector_etype(type_))
        digits = et.width // 4 if et.width >= 8 else 2
        text = op.bits.data
        bits = np.array([int(text[i:i + digits], 16) for i in range(0, len(text), digits)],
                        dtype=np.uint64)
        return from_bits(et, bits).reshape(type_.get_shape())

    def splat_bits_fn(self, op: vectorchain.SplatBitsOp) -> Callable[[int], np.ndarray]:
        """The function filling `op`'s vector from the bit pattern in its index operand."""
        type_ = op.result.type
        et = element_type(_vector_etype(type_))
        shape = tuple(type_.get_shape())
        mask = (1 << et.width) - 1

        def splat(bits: int) -> np.ndarray:
            one = from_bits(et, np.array([int(bits) & mask], dtype=np.uint64))
            return np.broadcast_to(one, shape).copy()
        return splat

    def compute_plan(self, op: Operation) -> ComputePlan:
        return ComputePlan(op)

    def accumulators(self) -> list[str]:
        """The types the program sums in (max/min reductions are exact in any order): every
        summing vectorchain.reduce result's and matrix instruction's accumulator, and every vector add or multiply of a value a
        loop carries (a sum across iterations, e.g. a column sum row by row, rounds each
        partial to the vector's own element type)."""
        found = []
        for op in self.inner.walk():
            if isinstance(op, vectorchain.ReduceOp) and op.kind.data in ("add", "mul") \
                    or isinstance(op, vectorchain.MatmulOp):
                found.append(_vector_etype(op.result.type))
            elif isinstance(op, (vectorchain.AddOp, vectorchain.MulOp)) and any(
                    _loop_carried(operand) for operand in op.operands):
                found.append(_vector_etype(op.result.type))
        return found

    def summation_depth(self) -> int | None:
        """`summation_depth` of the program's function."""
        return summation_depth(self.inner)

    # ---- binding to a device (prepare) ---------------------------------------------------

    def bind(self, device) -> None:
        """Resolve every FIFO instance and check the program's units against `device`."""
        self.device = device
        running: dict[str, str] = {}
        self.by_core_engine: dict[tuple[int, str], list[str]] = {}
        #: unit -> (core index, corelet index), found once here rather than per launch
        self.unit_index: dict[str, tuple[int, int]] = {}
        for up in self.units:
            for unit in up.units:
                if unit not in device.units:
                    raise ExecutionError(
                        f"program {self.name}: program unit @{up.tag} names unit {unit}, which "
                        f"device {device.name} does not have")
                if unit in running:
                    raise ExecutionError(
                        f"program {self.name}: unit {unit} runs both @{running[unit]} and @{up.tag}")
                running[unit] = up.tag
                self.unit_index[unit] = (dataflow.instance_index(unit, "core"),
                                         dataflow.instance_index(unit, "corelet"))
                key = (self.unit_index[unit][0], dataflow.engine_of(unit))
                self.by_core_engine.setdefault(key, []).append(unit)
        self.fifo_instances: dict[tuple[str, str], tuple[str, str, int]] = {}
        per_datapath: dict[tuple[str, str], list[tuple[str, int]]] = {}
        self.shared_queues: dict[tuple[str, str], int] = {}
        for name, decl in self.fifos.items():
            source, target, depth = decl.source.data, decl.target.data, decl.depth.value.data
            for unit in running:
                if dataflow.engine_of(unit) != source:
                    continue
                peers = [dp.target for dp in device.outgoing(unit)
                         if dp.target in running and dataflow.engine_of(dp.target) == target]
                if len(peers) != 1:
                    raise ExecutionError(
                        f"program {self.name}: FIFO @{name} ({source} -> {target}): unit {unit} "
                        f"has {len(peers)} adjacent '{target}' units running this program "
                        f"({', '.join(peers) or 'none'}); a FIFO instance needs exactly one",
                        self.locations.get(decl))
                peer = peers[0]
                self.fifo_instances[(name, unit)] = (unit, peer, depth)
                self.fifo_instances[(name, peer)] = (unit, peer, depth)
                per_datapath.setdefault((unit, peer), []).append((name, depth))
        for (u, v), fifos in per_datapath.items():
            capacity = device.datapath(u, v).queue_depth
            total = sum(d for _, d in fifos)
            if capacity is None:
                raise ExecutionError(
                    f"program {self.name}: FIFO @{fifos[0][0]} runs over {u} -> {v}, which is "
                    f"not a FIFO datapath on device {device.name}")
            over = [(n, d) for n, d in fifos if d > capacity]
            if over:
                listed = ", ".join(f"@{n} ({d})" for n, d in over)
                raise ExecutionError(
                    f"program {self.name}: FIFO {listed} on datapath {u} -> {v} needs more "
                    f"entries than the datapath's queue holds ({capacity})")
            if total > capacity:
                # FIFOs whose depths add up to more than the queue take it in turns: all of
                # them together never hold more than `capacity` entries (sim.SharedQueue)
                self.shared_queues[(u, v)] = capacity

    def memories_used(self, emu) -> set[str]:
        """The memories of `emu` the program's loads, stores and composite transfers name,
        resolved for every unit instance running them (what a launch may touch)."""
        used: set[str] = set()
        for up in self.units:
            names = set()
            for plan in up.consts:
                if isinstance(plan, (LoadPlan, StorePlan)):
                    names.add(plan.memory)
                elif isinstance(plan, CompositePlan):
                    names.update((plan.source, plan.target))
                elif isinstance(plan, IndirectPlan):
                    names.update((plan.source, plan.target, plan.index_memory))
            for unit in up.units if names else ():
                for name in names:
                    found = [c for c in memory_candidates(unit, self._absolute(emu, unit, name))
                             if c in emu.memories]
                    if found:
                        used.add(found[0])
        return used

    def resolve_routes(self, emu) -> None:
        """Find, once at prepare, the route of every agen.composite_load_and_store for every
        unit running it (a route search per unit costs milliseconds; the emulated device
        keeps them for every launch). One that cannot be resolved is left to the launch,
        which reports it at its instruction."""
        for up in self.units:
            plans = [k for k in up.consts if isinstance(k, CompositePlan | IndirectPlan)]
            for unit in up.units if plans else ():
                for plan in plans:
                    ends = []
                    for name in (plan.source, plan.target):
                        found = [c for c in memory_candidates(unit, self._absolute(emu, unit, name))
                                 if c in emu.memories]
                        if found:
                            ends.append(found[0])
                    if len(ends) == 2:
                        try:
                            emu.path(unit, ends[0], ends[1])
                        except ExecutionError:
                            pass  # the launch reports it, at the instruction that uses it

    def _absolute(self, emu, unit: str, name: str) -> str:
        """`name` with a per-core memory name (`cores[...].lx`) resolved for `unit`'s
        core; a name that does not resolve is left to the launch to report."""
        try:
            return resolve_per_core(emu.device, name, self.unit_index[unit][0])
        except DeviceError:
            return name

    # ---- launch -------------------------------------------------------------------------

    def spawn(self, launch: Launch, symbols: dict[int, int],
              cores: frozenset[int] | None = None) -> list[UnitRun]:
        """Evaluate the top level once, then start every unit instance (only those of
        `cores` when given: a call under a per-core condition)."""
        top = _TopLevel(self, symbols, launch)
        shared = self.top_level(top, self.top_consts)
        runs = []
        for unit_program in self.units:
            for unit in unit_program.units:
                if cores is not None and self.unit_index[unit][0] not in cores:
                    continue
                run = UnitRun(self, unit_program, unit, launch, symbols)
                run.proc = launch.sim.spawn(unit, unit_program.main(run, shared, unit_program.consts))
                runs.append(run)
        return runs


def memory_candidates(unit: str, name: str) -> list[str]:
    """The memories a unit's `name` may mean, nearest first: its corelet's, its core's,
    then the device's."""
    candidates = []
    parts = unit.split(".")[:-1]
    while parts:
        candidates.append(".".join(parts) + "." + name)
        parts.pop()
    candidates.append(name)
    return candidates


class _TopLevel:
    """Where the uniform top-level values are evaluated (once per launch)."""

    def __init__(self, image: ProgramImage, symbols: dict[int, int], launch: Launch):
        self.image = image
        self.symbols = symbols
        self.launch = launch

    def fault(self, message: str, label: str) -> ExecutionError:
        return ExecutionError(message, f"program {self.image.name}, top level, instruction "
                                       f"'{label}', cycle {self.launch.sim.now}")

    def symbol(self, sid: int, label: str) -> int:
        value = self.symbols.get(sid)
        if value is None:
            raise self.fault(f"symbol {sid} is not set: the launch gave it no value", label)
        return value

    def query(self, mapping: dict, key: int, label: str) -> int:
        try:
            return mapping[key]
        except KeyError:
            raise self.fault(f"uniform.query_map: the map has no entry for key {key} "
                             f"(keys: {', '.join(map(str, sorted(mapping)))})", label) from None


class UnitRun(_TopLevel):
    """One unit instance running its program unit in one launch: the helpers its
    generated code calls."""

    def __init__(self, image: ProgramImage, program: UnitProgram, unit: str, launch: Launch,
                 symbols: dict[int, int]):
        super().__init__(image, symbols, launch)
        self.program = program
        self.unit = unit
        self.emu: EmulatedDevice = launch.device
        self.device = launch.device.device
        self.core, self.corelet = image.unit_index[unit]
        self.unit_model = self.device.units[unit]
        self.compute_latency = int((self.unit_model.compute or {}).get("latency", 0))
        self.proc: sim.Process | None = None
        self._fifos: dict[str, tuple] = {}
        self._tokens: dict[tuple, sim.Token] = {}
        self._memories: dict[str, object] = {}
        self._cycles: dict[int, int] = {}
        self._links: dict[int, tuple] = {}
        self._accepted: dict[int, int] = {}  # id(ComputePlan) -> its cycles, once run per-op

    def fault(self, message: str, label: str | None = None) -> ExecutionError:
        label = label or (self.proc.instruction if self.proc else "")
        cycle = max(self.launch.sim.now, self.proc.local if self.proc else 0)
        return ExecutionError(message, f"unit {self.unit}, instruction '{label}', cycle {cycle}")

    # ---- resolution ---------------------------------------------------------------------

    def memory(self, name: str):
        found = self._memories.get(name)
        if found is not None:
            return found
        try:
            candidates = memory_candidates(self.unit, resolve_per_core(self.device, name, self.core))
        except DeviceError as err:
            raise self.fault(err.message) from None
        memories = self.emu.memories
        for cand in candidates:
            if cand in memories:
                self._memories[name] = memories[cand]
                return memories[cand]
        raise self.fault(f"no memory '{name}' is visible from unit {self.unit} "
                         f"(tried {', '.join(candidates)})")

    def datapath(self, source: str, target: str):
        try:
            return self.device.datapath(source, target)
        except Exception as err:
            raise self.fault(getattr(err, "message", str(err))) from None

    def path(self, source: str, target: str):
        try:
            return self.emu.path(self.unit, source, target)
        except ExecutionError as err:
            raise self.fault(err.message) from None

    def fifo(self, name: str):
        """This unit's instance of FIFO `name`, and the datapath it runs over."""
        found = self._fifos.get(name)
        if found is not None:
            return found
        decl = self.image.fifos.get(name)
        if decl is None:
            raise self.fault(f"no dataflow.fifo @{name} is declared")
        instance = self.image.fifo_instances.get((name, self.unit))
        if instance is None:
            raise self.fault(f"FIFO @{name} runs {decl.source.data} -> {decl.target.data}; "
                             f"unit {self.unit} is neither end of one of its instances")
        producer, consumer, depth = instance
        fifo = self.launch.fifo(producer, consumer, depth, name,
                                queue=self.image.shared_queues.get((producer, consumer)))
        found = (fifo, self.device.datapath(producer, consumer))
        self._fifos[name] = found
        return found

    def token(self, name: str, peer: int | None, sending: bool) -> sim.Token:
        key = (name, peer, sending)
        found = self._tokens.get(key)
        if found is not None:
            return found
        decl = self.image.syncs[name]
        other_engine = decl.target.data if sending else decl.source.data
        candidates = list(self.image.by_core_engine.get((self.core, other_engine), []))
        if peer is not None:
            index = self.image.unit_index
            candidates = [u for u in candidates if index[u][1] == peer]
        if len(candidates) != 1:
            which = f" with corelet index {peer}" if peer is not None else ""
            hint = "; name the peer instance" if peer is None and candidates else ""
            raise self.fault(
                f"sync @{name}: {len(candidates)} '{other_engine}' units{which} run this "
                f"program in core {self.core} ({', '.join(candidates[:4]) or 'none'}){hint}")
        other = candidates[0]
        sender, receiver = (self.unit, other) if sending else (other, self.unit)
        full = f"{name}[{sender}->{receiver}]"
        existing = self.launch.tokens.get(full)
        token = self.launch.token(full, sender, receiver)
        if existing is None:
            token.count = decl.initial.value.data
        self._tokens[key] = token
        return token

    # ---- data work ----------------------------------------------------------------------

    def _link(self, plan, source: str | None, target: str | None):
        """(memory, busy, latency, shared resources, datapath name) of a load or store plan
        for this unit (cached: they do not change during a launch)."""
        key = id(plan)
        found = self._links.get(key)
        if found is None:
            memory = self.memory(plan.memory)
            src, dst = (memory.name, self.unit) if source is None else (self.unit, memory.name)
            dp = self.datapath(src, dst)
            nbytes = plan.access.box_bytes
            found = (memory, dp.occupancy(nbytes), dp.latency,
                     self.launch.resources_of(memory.name), (f"{src}->{dst}",))
            self._links[key] = found
        return found

    # The generated code calls these functions, one per op, made on the op's first use
    # (a fault while resolving belongs to that instruction). An op that cannot block runs
    # in place (emulator.device.sim `*_now`); one that crosses a shared resource returns
    # the command the unit must yield.

    def load_fn(self, plan: LoadPlan) -> Callable:
        """agen.vector_load: base -> (value, command to yield or None, cycles until ready)."""
        access, et, shape = plan.access, plan.et, plan.shape
        dtype = et.storage_dtype
        same = dtype == et.value_dtype
        mask, contiguous, count, eb = access.mask, access.contiguous, access.count, access.element_bytes
        nbytes = access.box_bytes
        offset, (span_lo, span_hi) = access.offset, access.span
        # The common case checked in a few comparisons, with the same outcome as
        # Memory.check_box: a contiguous run inside the buffer this op found last time, no
        # conversion, no mask. Each op remembers its own buffer (a unit reading A and B
        # alternately would defeat the memory's one-entry cache).
        simple = contiguous and same and mask is None and access.box_span == access.span
        transfer_now = self.launch.sim.transfer_now
        link = None
        window = (-1, 0, -1, -1)  # Memory.window of the last full check
        seen = (None, None, 0)  # (memory.data, its typed view, its length) then

        def load(base: int):
            nonlocal link, window, seen
            if link is None:
                link = self._link(plan, None, "unit")
            memory, busy, latency, shared, names = link
            start = base + offset
            lo, hi = start + span_lo, start + span_hi
            if memory.pending:
                memory.flush_due()
            if simple and window[1] <= lo < window[2] and hi <= window[3] and hi <= seen[2] \
                    and not start % eb and memory.data is seen[0] and window[0] == memory.layout:
                first = start // eb
                value = seen[1][first:first + count].copy().reshape(shape)
            else:
                try:
                    start = memory.check_box(base, access, ("read", memory.name, base))
                except ExecutionError as err:
                    raise self.fault(err.message) from None
                if contiguous:
                    first = start // eb
                    typed = memory.typed(dtype)
                    if simple:
                        window = memory.window(lo)
                        seen = (memory.data, typed, len(memory.data))
                    raw = typed[first:first + count]
                else:
                    raw = np.ndarray(access.shape, dtype=dtype, buffer=memory.data, offset=start,
                                     strides=access.strides)
                value = raw.copy() if same else from_memory(et, raw)
                if mask is not None:
                    value = np.where(mask, value, np.zeros((), dtype=value.dtype))
                value = value.reshape(shape)
            if shared:
                return value, (sim.TRANSFER, busy, 0, shared, nbytes, None, names), latency
            transfer_now(self.proc, busy, 0, nbytes, None, names)
            return value, None, latency

        return load

    def store_fn(self, plan: StorePlan) -> Callable:
        """agen.vector_store: (base, value) -> command to yield, or None when it ran in place."""
        access, et = plan.access, plan.et
        dtype = et.storage_dtype
        plain = access.mask is None and dtype == et.value_dtype
        contiguous, count, eb, box_shape = access.contiguous, access.count, access.element_bytes, access.shape
        nbytes = access.box_bytes
        offset, (span_lo, span_hi) = access.offset, access.span
        simple = plain and contiguous and access.box_span == access.span  # see load_fn
        transfer_now = self.launch.sim.transfer_now
        link = None
        window = (-1, 0, -1, -1)
        seen = (None, 0)

        def store(base: int, value: np.ndarray):
            nonlocal link, window, seen
            if link is None:
                link = self._link(plan, "unit", None)
            memory, busy, latency, shared, names = link
            # Checked now (the fault belongs to this instruction), written when it lands.
            start = base + offset
            lo, hi = start + span_lo, start + span_hi
            if memory.pending:
                memory.flush_due()
            if not (simple and window[1] <= lo < window[2] and hi <= window[3] and hi <= seen[1]
                    and not start % eb and memory.data is seen[0] and window[0] == memory.layout):
                try:
                    start = memory.check_box(base, access, ("write", memory.name, base))
                except ExecutionError as err:
                    raise self.fault(err.message) from None
                if simple:
                    window = memory.window(lo)
                    seen = (memory.data, len(memory.data))
            if plain and contiguous:
                first = start // eb
                land = (dtype, first, count, value)  # (see Memory.defer)
            elif plain:
                def land():
                    np.ndarray(box_shape, dtype=dtype, buffer=memory.data, offset=start,
                               strides=access.strides)[...] = value.reshape(box_shape)
            else:
                def land():
                    _write(memory, base, access, et, value)
            if shared:
                return (sim.TRANSFER, busy, latency, shared, nbytes, (memory, land), names)
            transfer_now(self.proc, busy, latency, nbytes, (memory, land), names)
            return None

        return store

    def compute_fn(self, plan: ComputePlan) -> Callable:
        """A vectorchain op: operands -> result, its busy time spent in place."""
        delay_now = self.launch.sim.delay_now
        cycles = None

        def compute(*args):
            nonlocal cycles
            if cycles is None:
                if self.unit_model.compute is None:
                    raise self.fault(f"{plan.op_name} runs on {self.unit}, which does not compute")
                try:
                    cycles = plan.cycles_on(self.unit_model)
                except Exception as err:
                    raise self.fault(getattr(err, "message", str(err))) from None
            try:
                value = plan.run(*args)
            except ExecutionError as err:
                raise self.fault(err.message) from None
            except TypeError as err:
                raise self.fault(f"{plan.op_name}: {err}") from None
            self._accepted[id(plan)] = cycles  # (the bulk path may run it from now on)
            delay_now(self.proc, cycles)
            return value

        if plan.fast is None or len(plan.fast[1]) not in (1, 2):
            return compute
        # The shortcut (after the first call: `run` has checked the op and its types): the
        # unit is busy `cycles` cycles, as `Simulator.delay_now` accounts it.
        fast, dtypes = plan.fast
        first, second = dtypes[0], dtypes[-1]
        proc = self.proc
        sim_ = self.launch.sim
        if sim_.trace is None and plan.arity == len(dtypes):
            # Untraced: Simulator.delay_now's accounting written out here (one call less
            # per op, no argument tuple); the same figures in the same order.
            stats = proc.stats
            if len(dtypes) == 1:
                def compute1_untraced(a):
                    if cycles is not None and a.dtype == first and a.ndim:
                        value = fast(a)
                        if value is not None:
                            if proc.local > sim_._limit:
                                sim_._check_limit(proc)
                            stats.instructions += 1
                            if cycles > 0:
                                stats.busy += cycles
                                proc.local += cycles
                            return value
                    return compute(a)

                return compute1_untraced

            def compute2_untraced(a, b):
                if cycles is not None and a.dtype == first and b.dtype == second and a.ndim:
                    value = fast(a, b)
                    if proc.local > sim_._limit:
                        sim_._check_limit(proc)
                    stats.instructions += 1
                    if cycles > 0:
                        stats.busy += cycles
                        proc.local += cycles
                    return value
                return compute(a, b)

            return compute2_untraced

        if len(dtypes) == 1:
            def compute1(*args):
                if cycles is not None and len(args) == 1:
                    a = args[0]
                    if a.dtype == first and a.ndim:
                        value = fast(a)
                        if value is not None:
                            delay_now(proc, cycles)
                            return value
                return compute(*args)

            return compute1

        def compute2(*args):
            if cycles is not None and len(args) == 2:
                a, b = args
                if a.dtype == first and b.dtype == second and a.ndim:
                    value = fast(a, b)
                    delay_now(proc, cycles)
                    return value
            return compute(*args)

        return compute2

    # Bulk advancement (emulator.device.bulk): an op runs over many iterations at once
    # only once its per-op function has run it (checked it and found its cycles).

    def bulk_op(self, plan: ComputePlan, operands_stacked: tuple) -> Callable | None:
        return bulk.batch_op(plan, operands_stacked)

    def bulk_carried(self, plan: ComputePlan, carried_first: bool) -> Callable | None:
        return bulk.carried_op(plan, carried_first)

    def bulk_fixed(self, plan: ComputePlan) -> Callable | None:
        return bulk.fixed_op(plan)

    def bulk_matmul(self, plan: ComputePlan) -> Callable | None:
        return bulk.matmul_op(plan)

    def deferred_matmul_fn(self, plan: ComputePlan) -> Callable:
        """The matrix instruction of a K loop whose accumulator nothing but the next
        instruction reads until the loop ends (emulator.device.codegen decides):
        `one(pending, lhs, rhs, acc)` spends the instruction's cycles as `compute_fn` does
        and leaves its operands in `pending`, `one.many(pending, k, lhs, rhs, acc)` does
        that for k stacked instructions (the bulk path's cycles are counted by it), and
        `one.settle(pending, acc)` computes the sums of every instruction left there at
        once, in order, as the per-op calls would (`bulk.matmul_op`). An instruction's
        sums never depend on its accumulator, only the rounding adds that follow do; each
        call settles first when it cannot leave its operands (the first call, which checks
        the op and finds its cycles; operands of another type), and a list that reaches
        `bulk.DEFERRED_LIMIT` instructions is settled, so its operands are held briefly."""
        compute = self.compute_fn(plan)
        batched = bulk.matmul_op(plan)
        _, _, dtype = plan.batch_kind
        accepted, proc = self._accepted, self.proc
        delay_now = self.launch.sim.delay_now
        key = id(plan)
        held = [0]  # instructions in the pending list

        def settle(pending: list, acc):
            if not pending:
                return acc
            lhs, rhs = (np.concatenate(side) for side in zip(*pending))
            pending.clear()
            held[0] = 0
            try:
                return batched(len(lhs), acc, lhs, rhs)
            except bulk.Unbatched:  # an exact zero sum or a non-finite operand: one by one
                for a, b in zip(lhs, rhs):
                    try:
                        acc = plan.run(a, b, acc)
                    except ExecutionError as err:
                        raise self.fault(err.message) from None
                return acc

        def one(pending: list, lhs, rhs, acc):
            cycles = accepted.get(key)
            if cycles is None or lhs.dtype != dtype or rhs.dtype != dtype \
                    or lhs.ndim != 2 or rhs.ndim != 2:
                return compute(lhs, rhs, settle(pending, acc))
            pending.append((lhs[None], rhs[None]))
            delay_now(proc, cycles)
            held[0] += 1
            return settle(pending, acc) if held[0] >= bulk.DEFERRED_LIMIT else acc

        def many(pending: list, k: int, lhs, rhs, acc):
            if lhs.dtype != dtype or rhs.dtype != dtype or lhs.ndim != 3 or rhs.ndim != 3:
                raise bulk.Unbatched
            pending.append((lhs, rhs))
            held[0] += k
            return settle(pending, acc) if held[0] >= bulk.DEFERRED_LIMIT else acc

        one.many, one.settle = many, settle
        return one

    def bulk_cycles(self, plans: tuple) -> tuple | None:
        """Each op's cycles once every one has run per-op, else None."""
        found = []
        for plan in plans:
            cycles = self._accepted.get(id(plan))
            if cycles is None:
                return None
            found.append(cycles)
        return tuple(found)

    def vector_load(self, plan: LoadPlan, base: int):
        memory, busy, latency, shared, names = self._link(plan, None, "unit")
        access, et = plan.access, plan.et
        try:
            raw = memory.box(base, access, et.storage_dtype, f"read of {memory.name} at byte {base}")
        except ExecutionError as err:
            raise self.fault(err.message) from None
        value = raw.copy() if et.storage_dtype == et.value_dtype else from_memory(et, raw)
        if access.mask is not None:
            value = np.where(access.mask, value, np.zeros((), dtype=value.dtype))
        cmd = (sim.TRANSFER, busy, 0, shared, access.box_bytes, None, names)
        return value.reshape(plan.shape), cmd, latency

    def vector_store(self, plan: StorePlan, base: int, value: np.ndarray):
        memory, busy, latency, shared, names = self._link(plan, "unit", None)
        access, et = plan.access, plan.et
        # Checked now (the fault belongs to this instruction), written when it lands.
        try:
            view = memory.box(base, access, et.storage_dtype, f"write of {memory.name} at byte {base}")
        except ExecutionError as err:
            raise self.fault(err.message) from None
        del view
        if access.mask is None and et.storage_dtype == et.value_dtype:
            what = f"write of {memory.name} at byte {base}"

            def land():
                memory.box(base, access, et.storage_dtype, what)[...] = value.reshape(access.shape)
        else:
            def land():
                _write(memory, base, access, et, value)
        return (sim.TRANSFER, busy, latency, shared, access.box_bytes, (memory, land), names)

    def composite_clipped(self, plan: CompositePlan, src_base: int, dst_base: int, values: tuple):
        """A composite whose mask depends on run-time values (a view's edge)."""
        return self.composite(plan.at(values), src_base, dst_base)

    def _composite_link(self, plan: CompositePlan) -> tuple:
        """(source memory, target memory, occupancy, latency, shared resources, datapaths)
        of a composite plan for this unit (cached: they do not change during a launch)."""
        key = id(plan)
        found = self._links.get(key)
        if found is None:
            src_mem, dst_mem = self.memory(plan.source), self.memory(plan.target)
            path = self.path(src_mem.name, dst_mem.name)
            occupancy, latency = path.timing(plan.source_access.box_bytes)
            found = (src_mem, dst_mem, occupancy, latency, self.launch.resources(path),
                     path.datapaths)
            self._links[key] = found
        return found

    def composite_fn(self, plan: CompositePlan) -> Callable:
        """agen.composite_load_and_store: (source base, target base) -> the command to yield.
        When both sides are contiguous runs of the same length with no mask, the checks are
        made as `load_fn` makes them (a few comparisons against the buffer each side found
        last time, with Memory.check_box's outcome) and the data lands as a run
        (Memory.defer) rather than through a closure that checks the box again; otherwise
        `composite`. The same bytes move, checked the same way, landing in the same order."""
        sa, da = plan.source_access, plan.target_access
        if not (sa.mask is None and da.mask is None and sa.count > 0
                and sa.box_span == sa.span and da.box_span == da.span and sa.count == da.count
                and sa.element_bytes == da.element_bytes):
            return lambda src_base, dst_base: self.composite(plan, src_base, dst_base)
        dtype = plan.et.storage_dtype
        eb, count, nbytes = sa.element_bytes, sa.count, sa.box_bytes
        # A strided side (a tile's rows apart in memory) is a strided view of the checked
        # box, as Memory.box takes it; its landing write is not checked again (the buffers
        # do not change during a launch, so the check at issue stands).
        s_flat, d_flat = sa.contiguous, da.contiguous
        s_shape, s_strides, d_shape, d_strides = sa.shape, sa.strides, da.shape, da.strides
        s_off, (s_lo_off, s_hi_off) = sa.offset, sa.span
        d_off, (d_lo_off, d_hi_off) = da.offset, da.span
        found = None
        s_win = d_win = (-1, 0, -1, -1)  # Memory.window of each side's last full check
        s_seen = d_seen = (None, 0)  # (memory.data, its length) then

        def composite(src_base: int, dst_base: int):
            nonlocal found, s_win, d_win, s_seen, d_seen
            if found is None:
                found = self._composite_link(plan)
            src_mem, dst_mem, occupancy, latency, shared, datapaths = found
            if src_mem.pending:
                src_mem.flush_due()
            start = src_base + s_off
            lo, hi = start + s_lo_off, start + s_hi_off
            if not (s_win[1] <= lo < s_win[2] and hi <= s_win[3] and hi <= s_seen[1]
                    and not start % eb and src_mem.data is s_seen[0] and s_win[0] == src_mem.layout):
                try:
                    start = src_mem.check_box(src_base, sa, ("read", src_mem.name, src_base))
                except ExecutionError as err:
                    raise self.fault(err.message) from None
                s_win = src_mem.window(lo)
                s_seen = (src_mem.data, len(src_mem.data))
            if s_flat:
                first = start // eb
                data = src_mem.typed(dtype)[first:first + count].copy()
            else:
                data = np.ndarray(s_shape, dtype=dtype, buffer=src_mem.data, offset=start,
                                  strides=s_strides).copy()
            if dst_mem.pending:
                dst_mem.flush_due()
            start = dst_base + d_off
            lo, hi = start + d_lo_off, start + d_hi_off
            if not (d_win[1] <= lo < d_win[2] and hi <= d_win[3] and hi <= d_seen[1]
                    and not start % eb and dst_mem.data is d_seen[0] and d_win[0] == dst_mem.layout):
                try:
                    start = dst_mem.check_box(dst_base, da, ("write", dst_mem.name, dst_base))
                except ExecutionError as err:
                    raise self.fault(err.message) from None
                d_win = dst_mem.window(lo)
                d_seen = (dst_mem.data, len(dst_mem.data))
            if d_flat:
                land = (dtype, start // eb, count, data)  # (see Memory.defer)
            else:
                land = _strided_landing(dst_mem, start, d_shape, d_strides, dtype, data)
            return (sim.TRANSFER, occupancy, latency, shared, nbytes, (dst_mem, land), datapaths)

        return composite

    def composite(self, plan: CompositePlan, src_base: int, dst_base: int):
        src_mem, dst_mem, occupancy, latency, shared, datapaths = self._composite_link(plan)
        sa, da, et = plan.source_access, plan.target_access, plan.et
        dtype = et.storage_dtype
        try:  # (a fault's text is spelled out only when there is one)
            raw = src_mem.box(src_base, sa, dtype, ("read", src_mem.name, src_base))
            dst_mem.check_box(dst_base, da, ("write", dst_mem.name, dst_base))
        except ExecutionError as err:
            raise self.fault(err.message) from None
        if sa.mask is None and da.mask is None:
            # Raw bytes move unchanged: no conversion, one copy now, one write at landing.
            data = raw.copy()
            what = ("write", dst_mem.name, dst_base)

            def land():
                dst_mem.box(dst_base, da, dtype, what)[...] = data.reshape(da.shape)
        else:
            # read at issue: `raw` is a view of the source memory, which may change before
            # the landing (a buffer the next iteration writes)
            values = from_memory(et, raw.copy())
            if sa.mask is not None:
                values = np.where(sa.mask, values, np.zeros((), dtype=values.dtype))
            if plan.positional:
                values = values.reshape(da.shape)
            else:
                try:
                    values = _remask(values, sa, da)
                except ExecutionError as err:
                    raise self.fault(err.message) from None

            def land():
                _write(dst_mem, dst_base, da, et, values)
        return (sim.TRANSFER, occupancy, latency, shared, sa.box_bytes, (dst_mem, land), datapaths)

    def indirect(self, plan: IndirectPlan, src_base: int, dst_base: int, index_bases: tuple):
        """An indirect transfer: index values -> addresses (checked against the view's
        bounds), one descriptor per run of consecutive addresses, moved with numpy fancy
        indexing. Source read at issue, target written at landing."""
        src_mem, dst_mem = self.memory(plan.source), self.memory(plan.target)
        idx_mem = self.memory(plan.index_memory)
        et, dtype = plan.et, plan.et.storage_dtype
        size = et.size
        gathered_base = src_base if plan.gather else dst_base
        if gathered_base % size:
            raise self.fault(f"the base byte {gathered_base} of the indirect side is not "
                             f"aligned to its {size}-byte elements")
        elements = plan.grid + gathered_base // size
        for j, (base, access, iet) in enumerate(zip(index_bases, plan.index_accesses, plan.index_ets)):
            try:
                raw = idx_mem.box(base, access, iet.storage_dtype, ("read", idx_mem.name, base))
            except ExecutionError as err:
                raise self.fault(err.message) from None
            values = np.asarray(raw, dtype=np.int64).reshape(elements.shape)
            lo, hi = plan.bounds[j]
            bad = (values < lo) | (values > hi)
            if bad.any():
                at = np.unravel_index(int(np.argmax(bad)), values.shape)
                raise self.fault(f"index {int(values[at])} at position {list(map(int, at))} of "
                                 f"index buffer #{j} (byte {base} of {idx_mem.name}) is outside "
                                 f"the view's coordinates [{lo}, {hi}] along the dim it indexes")
            elements = elements + values * plan.view_strides[j]
        flat = elements.reshape(-1)
        gathered_mem = src_mem if plan.gather else dst_mem
        if flat.size:
            first, last = int(flat.min()), int(flat.max())
            if first < 0 or (last + 1) * size > gathered_mem.size:
                raise self.fault(f"an indirect address, element {first if first < 0 else last}, "
                                 f"lies outside memory {gathered_mem.name} "
                                 f"(size {gathered_mem.size} bytes)")
        else:
            first = last = 0
        # descriptors: maximal runs of consecutive element addresses, in visiting order
        breaks = np.flatnonzero(np.diff(flat) != 1) + 1
        starts = np.concatenate(([0], breaks))
        lengths = np.diff(np.concatenate((starts, [flat.size])))
        key = id(plan)
        found = self._links.get(key)
        if found is None:
            path = self.path(src_mem.name, dst_mem.name)
            found = (path, self.launch.resources(path), path.datapaths)
            self._links[key] = found
        path, shared, datapaths = found
        occupancy, latency = 0, path.timing(size)[1]
        counts_lengths, counts = np.unique(lengths, return_counts=True)
        for n, c in zip(counts_lengths.tolist(), counts.tolist()):
            occupancy += c * path.timing(n * size)[0]
        nbytes = flat.size * size
        window = gathered_mem.view(first * size, (last - first + 1,), (size,), dtype,
                                   f"indirect access of {gathered_mem.name}")
        offsets = flat - first
        if plan.gather:
            data = window[offsets].copy()
            da = plan.target_access
            try:
                dst_mem.check_box(dst_base, da, ("write", dst_mem.name, dst_base))
            except ExecutionError as err:
                raise self.fault(err.message) from None
            what = ("write", dst_mem.name, dst_base)

            def land():
                dst_mem.box(dst_base, da, dtype, what)[...] = data.reshape(da.shape)
        else:
            if np.unique(offsets).size != offsets.size:
                order = np.argsort(offsets, kind="stable")
                dup = order[np.flatnonzero(np.diff(offsets[order]) == 0)[0] + 1]
                raise self.fault(f"the scatter writes element {int(flat[dup])} of "
                                 f"{gathered_mem.name} twice (point {int(dup)} repeats an "
                                 f"earlier index): a store through an indirect tile needs "
                                 f"distinct addresses")
            sa = plan.source_access
            try:
                data = src_mem.box(src_base, sa, dtype, ("read", src_mem.name, src_base)).reshape(-1).copy()
            except ExecutionError as err:
                raise self.fault(err.message) from None
            mem = gathered_mem

            def land():
                mem.view(first * size, (last - first + 1,), (size,), dtype,
                         f"indirect write of {mem.name}")[offsets] = data
        return (sim.TRANSFER, occupancy, latency, shared, nbytes, (dst_mem, land), datapaths)

    def compute(self, plan: ComputePlan, args: tuple):
        if self.unit_model.compute is None:
            raise self.fault(f"{plan.op_name} runs on {self.unit}, which does not compute")
        cycles = self._cycles.get(id(plan))
        if cycles is None:
            try:
                cycles = plan.cycles_on(self.unit_model)
            except Exception as err:
                raise self.fault(getattr(err, "message", str(err))) from None
            self._cycles[id(plan)] = cycles
        try:
            value = plan.run(*args)
        except ExecutionError as err:
            raise self.fault(err.message) from None
        except TypeError as err:
            raise self.fault(f"{plan.op_name}: {err}") from None
        return value, (sim.DELAY, cycles)


def _strided_landing(memory, start: int, shape, strides, dtype, data: np.ndarray):
    """A landing write into a strided box checked at issue (the memory's array is looked
    up when it lands, in case it grew in between)."""

    def land():
        np.ndarray(shape, dtype=dtype, buffer=memory.data, offset=start,
                   strides=strides)[...] = data.reshape(shape)

    return land


def _write(memory, base: int, access: Access, et, values: np.ndarray) -> None:
    raw = to_memory(et, values)
    address = base + access.offset
    what = f"write of {memory.name} at byte {base}"
    if access.mask is None:
        memory.write(address, access.shape, access.strides, raw, what=what)
    else:
        # checked over the unmasked points only: masked ones are never written
        view = memory.box(base, access, raw.dtype, what)
        view[access.mask] = raw.reshape(access.shape)[access.mask]
        memory.bytes_written += int(access.mask.sum()) * raw.dtype.itemsize


def _remask(values: np.ndarray, src: Access, dst: Access) -> np.ndarray:
    """The k-th point of the source order goes to the k-th point of the target order."""
    points = values[src.mask] if src.mask is not None else values.reshape(-1)
    if dst.mask is None:
        return points.reshape(dst.shape)
    if points.size != int(dst.mask.sum()):
        raise ExecutionError(f"the source moves {points.size} points but the target takes "
                             f"{int(dst.mask.sum())}")
    shaped = np.zeros(dst.shape, dtype=values.dtype)
    shaped[dst.mask] = points
    return shaped
