"""One DataflowIR program made runnable: every unit instance of every program unit becomes
a process of the simulator running the unit's body.

`ProgramImage.of(func)` checks and compiles the program's argument-free inner function
once (prepare): the FIFO and sync declarations, the shared top-level values (constants,
symbols, per-unit maps) and one list of steps per program unit. `ProgramImage.spawn`
(every launch) binds FIFOs, tokens, memories and symbol values to one launch.

Semantics and timing follow docs/dataflowir.md; in short:
- `agen.vector_load` occupies its load unit for bytes / bandwidth of the hop to the unit
  its value is sent to; the value is ready a hop latency later (a `dataflow.send` of it
  makes the FIFO entries visible then).
- `agen.vector_store` and `agen.composite_load_and_store` are transfers: the unit is
  busy for bytes / bandwidth (waiting first for shared device-memory bandwidth), the data
  lands a latency later, and the unit goes on meanwhile.
- `vectorchain` ops take ceil(elements / lanes) cycles once their inputs are ready; their
  result is ready the unit's compute latency later.
- `dataflow.sync_send` is delivered when every earlier transfer of the unit has landed.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import numpy as np
from xdsl.dialects import affine, arith, func, scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, VectorType
from xdsl.ir import Block, Operation, SSAValue

from spyre_sched.dialects import agen, dataflow, symbol, uniform, vectorchain
from spyre_sched.errors import ExecutionError, SourceLocation, UnsupportedError
from spyre_sched.polyhedral.views import element_name

from emulator.device import sim
from emulator.device.access import Access
from emulator.device.machine import EmulatedDevice, Launch
from emulator.device.timing import compute_cycles
from emulator.numerics import apply_op, element_type, from_bits, from_memory, reduce, to_memory

Env = dict


def _loc(op: Operation, locations: dict) -> str:
    where = locations.get(op)
    if isinstance(where, SourceLocation):
        return f"{op.name} at {where.file}:{where.line}:{where.col}"
    return op.name


def _vector_etype(type_) -> str:
    return element_name(type_.element_type)


def _numel(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


# ---- scalar arithmetic on index / integer values -----------------------------------------

def _cdiv(a: int, b: int) -> int:
    return -((-a) // b)


def _div_trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _rem_trunc(a: int, b: int) -> int:
    return a - b * _div_trunc(a, b)


_INT_BINARY: dict[str, Callable[[int, int], int]] = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.divsi": _div_trunc,
    "arith.divui": lambda a, b: a // b,
    "arith.remsi": _rem_trunc,
    "arith.remui": lambda a, b: a % b,
    "arith.floordivsi": lambda a, b: a // b,
    "arith.ceildivsi": _cdiv,
    "arith.ceildivui": _cdiv,
    "arith.maxsi": max, "arith.maxui": max,
    "arith.minsi": min, "arith.minui": min,
    "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b,
    "arith.shli": lambda a, b: a << b,
    "arith.shrsi": lambda a, b: a >> b,
    "arith.shrui": lambda a, b: a >> b,
}
_DIVIDES = {"arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.floordivsi",
            "arith.ceildivsi", "arith.ceildivui"}
_CMPI = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b,
         3: lambda a, b: a <= b, 4: lambda a, b: a > b, 5: lambda a, b: a >= b,
         6: lambda a, b: a < b, 7: lambda a, b: a <= b, 8: lambda a, b: a > b,
         9: lambda a, b: a >= b}
_PASS_THROUGH = {"arith.index_cast", "arith.index_castui", "arith.extsi", "arith.extui",
                 "arith.trunci"}


# ---- the compiled form --------------------------------------------------------------------


@dataclass
class Step:
    op: Operation
    run: Callable  # run(unit_run, op, env) -> None, or a generator when `blocking`
    blocking: bool
    label: str


@dataclass
class UnitProgram:
    tag: str
    engine: str
    units: tuple[str, ...]
    steps: list[Step]


@dataclass
class ProgramImage:
    name: str
    fifos: dict[str, dataflow.FifoOp]
    syncs: dict[str, dataflow.SyncOp]
    shared_steps: list[Step]
    units: list[UnitProgram]
    symbol_ids: set[int]
    locations: dict = field(default_factory=dict)
    access_cache: dict = field(default_factory=dict)
    block_steps: dict = field(default_factory=dict)
    constants: dict = field(default_factory=dict)

    @staticmethod
    def of(name: str, inner: func.FuncOp, locations: dict | None = None) -> ProgramImage:
        locations = locations or {}
        fifos: dict[str, dataflow.FifoOp] = {}
        syncs: dict[str, dataflow.SyncOp] = {}
        shared: list[Step] = []
        units: list[UnitProgram] = []
        symbol_ids: set[int] = set()
        image = ProgramImage(name, fifos, syncs, shared, units, symbol_ids, locations)
        for op in inner.body.block.ops:
            if isinstance(op, dataflow.FifoOp):
                fifos[op.sym_name.data] = op
            elif isinstance(op, dataflow.SyncOp):
                syncs[op.sym_name.data] = op
            elif isinstance(op, dataflow.ProgramUnitOp):
                units.append(UnitProgram(op.sym_name.data, op.engine.data, op.unit_names,
                                         image._compile_block(op.body.block)))
            elif isinstance(op, func.ReturnOp):
                continue
            else:
                shared.extend(image._compile_ops([op]))
        for op in inner.walk():
            if isinstance(op, symbol.CreateSymbolOp):
                symbol_ids.add(op.id)
        if not units:
            raise ExecutionError(f"program {name} has no dataflow.program_unit")
        return image

    # ---- compile ------------------------------------------------------------------------

    def _compile_block(self, block: Block) -> list[Step]:
        return self._compile_ops(list(block.ops))

    def _compile_ops(self, ops: list[Operation]) -> list[Step]:
        steps = []
        for op in ops:
            handler = _HANDLERS.get(type(op))
            if handler is None:
                handler = _GENERIC.get(op.name)
            if handler is None:
                if isinstance(op, vectorchain.BinaryOp):
                    handler = (_vector_binary, True)
                else:
                    raise UnsupportedError(f"the emulator does not execute {op.name}",
                                           _loc(op, self.locations))
            run, blocking = handler
            steps.append(Step(op, run, blocking, _loc(op, self.locations)))
            for region in op.regions:
                for block in region.blocks:
                    if block not in self.block_steps:
                        self.block_steps[block] = self._compile_block(block)
        return steps

    def access(self, attr: agen.AccessAttr, element_bytes: int) -> Access:
        key = (attr, element_bytes)
        found = self.access_cache.get(key)
        if found is None:
            found = Access.of(attr, element_bytes)
            self.access_cache[key] = found
        return found

    # ---- binding to a device (prepare) ---------------------------------------------------

    def bind(self, device) -> None:
        """Resolve every FIFO instance and check the program's units against `device`."""
        self.device = device
        running: dict[str, str] = {}
        self.by_core_engine: dict[tuple[int, str], list[str]] = {}
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
                key = (dataflow.instance_index(unit, "core"), dataflow.engine_of(unit))
                self.by_core_engine.setdefault(key, []).append(unit)
        self.fifo_instances: dict[tuple[str, str], tuple[str, str, int]] = {}
        per_datapath: dict[tuple[str, str], list[tuple[str, int]]] = {}
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
            if total > capacity:
                listed = ", ".join(f"@{n} ({d})" for n, d in fifos)
                raise ExecutionError(
                    f"program {self.name}: FIFOs {listed} on datapath {u} -> {v} need {total} "
                    f"entries but it holds {capacity}")

    # ---- launch -------------------------------------------------------------------------

    def spawn(self, launch: Launch, symbols: dict[int, int]) -> list[UnitRun]:
        """Start every unit instance of every program unit on `launch`."""
        runs = []
        for unit_program in self.units:
            for unit in unit_program.units:
                run = UnitRun(self, unit_program, unit, launch, symbols)
                run.proc = launch.sim.spawn(unit, run.main())
                runs.append(run)
        return runs


class UnitRun:
    """One unit instance running its program unit in one launch."""

    def __init__(self, image: ProgramImage, program: UnitProgram, unit: str, launch: Launch,
                 symbols: dict[int, int]):
        self.image = image
        self.program = program
        self.unit = unit
        self.launch = launch
        self.emu: EmulatedDevice = launch.device
        self.device = launch.device.device
        self.symbols = symbols
        self.core = dataflow.instance_index(unit, "core")
        self.corelet = dataflow.instance_index(unit, "corelet")
        self.ready: dict[SSAValue, int] = {}
        self.proc: sim.Process | None = None
        self._fifos: dict[str, sim.Fifo] = {}
        self._tokens: dict[tuple[str, int], sim.Token] = {}
        self._memories: dict[str, object] = {}

    def main(self) -> Generator:
        env: Env = {}
        for step in self.image.shared_steps:
            self.proc.instruction = step.label
            if step.blocking:
                raise self.fault(f"{step.op.name} may not stand at the top level of a program")
            step.run(self, step.op, env)
        yield from self.run_steps(self.program.steps, env)
        # The unit counts as finished when its last transfer lands (Process.finished_at).
        self.proc.instruction = "end of program unit"

    def run_steps(self, steps: list[Step], env: Env) -> Generator:
        proc = self.proc
        for step in steps:
            proc.instruction = step.label
            if step.blocking:
                yield from step.run(self, step.op, env)
            else:
                step.run(self, step.op, env)

    def run_region(self, block: Block, env: Env, args: list) -> Generator:
        """Run a nested block; returns the values its terminator yields."""
        for arg, value in zip(block.args, args):
            env[arg] = value
        yield from self.run_steps(self.image.block_steps[block], env)
        last = block.last_op
        if isinstance(last, scf.YieldOp):
            return [env[v] for v in last.operands]
        return []

    # ---- resolution ---------------------------------------------------------------------

    def fault(self, message: str) -> ExecutionError:
        return ExecutionError(message, f"unit {self.unit}, instruction '{self.proc.instruction}', "
                                       f"cycle {self.launch.sim.now}")

    def memory(self, name: str):
        found = self._memories.get(name)
        if found is not None:
            return found
        memories = self.emu.memories
        candidates = []
        parts = self.unit.split(".")[:-1]
        while parts:
            candidates.append(".".join(parts) + "." + name)
            parts.pop()
        candidates.append(name)
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

    def fifo(self, name: str, op: Operation) -> sim.Fifo:
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
        fifo = self.launch.fifo(producer, consumer, depth, name)
        self._fifos[name] = fifo
        return fifo

    def token(self, name: str, peer: int | None, sending: bool) -> sim.Token:
        key = (name, peer, sending)
        found = self._tokens.get(key)
        if found is not None:
            return found
        decl = self.image.syncs.get(name)
        if decl is None:
            raise self.fault(f"no dataflow.sync @{name} is declared")
        other_engine = decl.target.data if sending else decl.source.data
        candidates = list(self.image.by_core_engine.get((self.core, other_engine), []))
        if peer is not None:
            candidates = [u for u in candidates if dataflow.instance_index(u, "corelet") == peer]
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


# ---- handlers -----------------------------------------------------------------------------


def _constant(run: UnitRun, op: arith.ConstantOp, env: Env) -> None:
    value = op.value
    if isinstance(value, IntegerAttr):
        env[op.result] = value.value.data
    elif isinstance(value, FloatAttr):
        env[op.result] = value.value.data
    else:
        raise run.fault(f"arith.constant of {value} is not a scalar")


def _int_binary(run: UnitRun, op: Operation, env: Env) -> None:
    a, b = env[op.operands[0]], env[op.operands[1]]
    if op.name in _DIVIDES and b == 0:
        raise run.fault(f"{op.name} divides by zero")
    env[op.results[0]] = _INT_BINARY[op.name](a, b)


def _cmpi(run: UnitRun, op: arith.CmpiOp, env: Env) -> None:
    pred = op.predicate.value.data
    env[op.result] = bool(_CMPI[pred](env[op.lhs], env[op.rhs]))


def _select(run: UnitRun, op: arith.SelectOp, env: Env) -> None:
    env[op.result] = env[op.lhs] if env[op.cond] else env[op.rhs]


def _pass(run: UnitRun, op: Operation, env: Env) -> None:
    env[op.results[0]] = env[op.operands[0]]


def _affine_apply(run: UnitRun, op: affine.ApplyOp, env: Env) -> None:
    amap = op.map.data
    values = [env[v] for v in op.mapOperands]
    dims, syms = values[:amap.num_dims], values[amap.num_dims:]
    env[op.result] = amap.eval(dims, syms)[0]


def _create_symbol(run: UnitRun, op: symbol.CreateSymbolOp, env: Env) -> None:
    value = run.symbols.get(op.id)
    if value is None:
        raise run.fault(f"symbol {op.id} is not set: the launch gave it no value")
    env[op.result] = value


def _def_mapping(run: UnitRun, op: uniform.DefImmutableMappingOp, env: Env) -> None:
    env[op.result] = dict(zip(op.key_list, (env[v] for v in op.entries)))


def _query_map(run: UnitRun, op: uniform.QueryMapOp, env: Env) -> None:
    mapping, key = env[op.map], env[op.key]
    if key not in mapping:
        raise run.fault(f"uniform.query_map: the map has no entry for key {key} "
                        f"(keys: {', '.join(map(str, sorted(mapping)))})")
    env[op.result] = mapping[key]


def _instance_index(run: UnitRun, op: dataflow.InstanceIndexOp, env: Env) -> None:
    env[op.result] = run.core if op.level.data == "core" else run.corelet


def _for(run: UnitRun, op: scf.ForOp, env: Env) -> Generator:
    lb, ub, step = env[op.lb], env[op.ub], env[op.step]
    if step <= 0:
        raise run.fault(f"scf.for step {step} is not positive")
    values = [env[v] for v in op.iter_args]
    block = op.body.block
    for i in range(lb, ub, step):
        values = yield from run.run_region(block, env, [i, *values])
    for res, value in zip(op.results, values):
        env[res] = value


def _if(run: UnitRun, op: scf.IfOp, env: Env) -> Generator:
    region = op.true_region if env[op.cond] else op.false_region
    if not region.blocks:
        return
    values = yield from run.run_region(region.block, env, [])
    for res, value in zip(op.results, values):
        env[res] = value


def _nothing(run: UnitRun, op: Operation, env: Env) -> None:
    return None


def _yield_input_ready(run: UnitRun, values) -> Generator:
    latest = 0
    for v in values:
        t = run.ready.get(v, 0)
        if t > latest:
            latest = t
    if latest > run.launch.sim.now:
        yield sim.wait_until(latest, "for its operands to be ready")


def _vector_binary(run: UnitRun, op: vectorchain.BinaryOp, env: Env) -> Generator:
    yield from _yield_input_ready(run, op.operands)
    et = _vector_etype(op.result.type)
    env[op.result] = apply_op(op.scalar_op(), et, env[op.lhs], env[op.rhs])
    yield from _compute_time(run, op, et)


def _compute_time(run: UnitRun, op: Operation, et: str) -> Generator:
    unit = run.device.units[run.unit]
    if unit.compute is None:
        raise run.fault(f"{op.name} runs on {run.unit}, which does not compute")
    elements = max(_numel(v.type.get_shape()) for v in (*op.operands, *op.results)
                   if isinstance(v.type, VectorType))
    try:
        lanes = unit.lanes(et)
    except Exception as err:
        raise run.fault(getattr(err, "message", str(err))) from None
    yield sim.delay(compute_cycles(elements, lanes))
    run.ready[op.results[0]] = run.launch.sim.now + int(unit.compute.get("latency", 0))


def _vector_apply(run: UnitRun, op: vectorchain.ApplyOp, env: Env) -> Generator:
    yield from _yield_input_ready(run, op.inputs)
    et = _vector_etype(op.inputs[0].type)
    rt = _vector_etype(op.result.type)
    attrs = {k: (v.value.data if hasattr(v, "value") and hasattr(v.value, "data") else v)
             for k, v in op.attributes.items()}
    kwargs = {}
    if rt != et:
        kwargs["result_type"] = rt
    try:
        result = apply_op(op.fn.data, et, *(env[v] for v in op.inputs), **kwargs, **attrs)
    except TypeError as err:
        raise run.fault(f"vectorchain.apply {op.fn.data}: {err}") from None
    env[op.result] = np.asarray(result).reshape(op.result.type.get_shape())
    yield from _compute_time(run, op, et)


def _constant_bitstream_value(run: UnitRun, op: vectorchain.ConstantBitstreamOp, env: Env) -> None:
    cached = run.image.constants.get(op)
    if cached is None:
        type_ = op.result.type
        et = element_type(_vector_etype(type_))
        digits = et.width // 4 if et.width >= 8 else 2
        text = op.bits.data
        bits = np.array([int(text[i:i + digits], 16) for i in range(0, len(text), digits)],
                        dtype=np.uint64)
        cached = from_bits(et, bits).reshape(type_.get_shape())
        run.image.constants[op] = cached
    env[op.result] = cached


def _constant_bitstream(run: UnitRun, op: vectorchain.ConstantBitstreamOp, env: Env) -> Generator:
    _constant_bitstream_value(run, op, env)
    yield sim.delay(1)
    unit = run.device.units[run.unit]
    run.ready[op.result] = run.launch.sim.now + int((unit.compute or {}).get("latency", 0))


def _shuffle(run: UnitRun, op: vectorchain.ShuffleOp, env: Env) -> Generator:
    yield from _yield_input_ready(run, [op.source])
    src = env[op.source].reshape(-1)
    pattern = np.asarray(op.pattern_list, dtype=np.int64)
    shape = op.result.type.get_shape()
    n = _numel(shape)
    idx = pattern[np.arange(n) % len(pattern)]
    env[op.result] = src[idx].reshape(shape)
    yield from _compute_time(run, op, _vector_etype(op.result.type))


def _reduce(run: UnitRun, op: vectorchain.ReduceOp, env: Env) -> Generator:
    yield from _yield_input_ready(run, [op.source])
    acc = _vector_etype(op.result.type)
    value = reduce(op.kind.data, env[op.source], -1, acc)
    env[op.result] = np.asarray(value).reshape(op.result.type.get_shape())
    yield from _compute_time(run, op, _vector_etype(op.source.type))


def _entries(fifo_decl: dataflow.FifoOp, type_: VectorType) -> int:
    return _numel(type_.get_shape()) // _numel(fifo_decl.entry.get_shape())


def _send(run: UnitRun, op: dataflow.SendOp, env: Env) -> Generator:
    yield from _yield_input_ready(run, [op.value])
    name = op.fifo.root_reference.data
    fifo = run.fifo(name, op)
    n = _entries(run.image.fifos[name], op.value.type)
    data = env[op.value].reshape(n, -1)
    dp = run.datapath(fifo.producer, fifo.consumer)
    nbytes = data.nbytes
    busy = dp.cycles(nbytes) - dp.latency
    run.launch.sim.datapath_bytes[fifo.path] = run.launch.sim.datapath_bytes.get(fifo.path, 0) + nbytes
    # Entries leave evenly over the busy time: the chunk is visible when its last entry
    # could have left, plus the datapath's latency.
    yield sim.send(fifo, data, n, busy + dp.latency)
    yield sim.delay(busy)


def _receive(run: UnitRun, op: dataflow.ReceiveOp, env: Env) -> Generator:
    name = op.fifo.root_reference.data
    fifo = run.fifo(name, op)
    n = _entries(run.image.fifos[name], op.result.type)
    got = yield sim.recv(fifo, n)
    env[op.result] = got.reshape(op.result.type.get_shape())


def _peer(run: UnitRun, op, env: Env) -> int | None:
    return env[op.peer] if op.peer is not None else None


def _sync_send(run: UnitRun, op: dataflow.SyncSendOp, env: Env) -> Generator:
    token = run.token(op.channel.root_reference.data, _peer(run, op, env), True)
    yield sim.sync_send(token)


def _sync_recv(run: UnitRun, op: dataflow.SyncRecvOp, env: Env) -> Generator:
    token = run.token(op.channel.root_reference.data, _peer(run, op, env), False)
    yield sim.sync_recv(token)


def _storage(et_name: str):
    et = element_type(et_name)
    return et, et.storage_dtype


def _read(run: UnitRun, memory, base: int, access: Access, et, dtype) -> np.ndarray:
    raw = memory.read(base + access.offset, access.shape, access.strides, dtype,
                      what=f"read of {memory.name} at byte {base}")
    values = from_memory(et, raw)
    if access.mask is not None:
        values = np.where(access.mask, values, np.zeros((), dtype=values.dtype))
    return values


def _write(memory, base: int, access: Access, et, values: np.ndarray) -> None:
    raw = to_memory(et, values)
    address = base + access.offset
    what = f"write of {memory.name} at byte {base}"
    if access.mask is None:
        memory.write(address, access.shape, access.strides, raw, what=what)
    else:
        view = memory.view(address, access.shape, access.strides, raw.dtype, what=what)
        view[access.mask] = raw.reshape(access.shape)[access.mask]
        memory.bytes_written += int(access.mask.sum()) * raw.dtype.itemsize


def _vector_load(run: UnitRun, op: agen.VectorLoadOp, env: Env) -> Generator:
    et, dtype = _storage(_vector_etype(op.result.type))
    access = run.image.access(op.access, et.size)
    memory = run.memory(op.memory.data)
    base = env[op.base]
    env[op.result] = _read(run, memory, base, access, et, dtype).reshape(op.result.type.get_shape())
    dp = run.datapath(memory.name, run.unit)
    nbytes = access.box_bytes
    busy = dp.cycles(nbytes) - dp.latency
    yield sim.transfer(busy, dp.latency, run.launch.resources_of(memory.name), nbytes, None,
                       (f"{memory.name}->{run.unit}",))
    run.ready[op.result] = run.launch.sim.now + dp.latency


def _vector_store(run: UnitRun, op: agen.VectorStoreOp, env: Env) -> Generator:
    yield from _yield_input_ready(run, [op.value])
    et, _ = _storage(_vector_etype(op.value.type))
    access = run.image.access(op.access, et.size)
    memory = run.memory(op.memory.data)
    base = env[op.base]
    values = env[op.value]
    # Check now (the fault belongs to this instruction), write when the data lands.
    memory.check(base + access.offset, access.shape, access.strides, et.size,
                 f"write of {memory.name} at byte {base}")
    dp = run.datapath(run.unit, memory.name)
    nbytes = access.box_bytes
    busy = dp.cycles(nbytes) - dp.latency
    yield sim.transfer(busy, dp.latency, run.launch.resources_of(memory.name), nbytes,
                       lambda: _write(memory, base, access, et, values),
                       (f"{run.unit}->{memory.name}",))


def _composite(run: UnitRun, op: agen.CompositeLoadAndStoreOp, env: Env) -> Generator:
    et, dtype = _storage(element_name(op.element))
    src_access = run.image.access(op.source_access, et.size)
    dst_access = run.image.access(op.target_access, et.size)
    src_mem = run.memory(op.source_memory.data)
    dst_mem = run.memory(op.target_memory.data)
    src_base, dst_base = env[op.source_base], env[op.target_base]
    values = _read(run, src_mem, src_base, src_access, et, dtype)
    if src_access.mask is not None or dst_access.mask is not None:
        src_points = values[src_access.mask] if src_access.mask is not None else values.reshape(-1)
        if dst_access.mask is not None:
            shaped = np.zeros(dst_access.shape, dtype=values.dtype)
            if src_points.size != int(dst_access.mask.sum()):
                raise run.fault(f"the source moves {src_points.size} points but the target "
                                f"takes {int(dst_access.mask.sum())}")
            shaped[dst_access.mask] = src_points
            values = shaped
        else:
            values = src_points.reshape(dst_access.shape)
    dst_mem.check(dst_base + dst_access.offset, dst_access.shape, dst_access.strides, et.size,
                  f"write of {dst_mem.name} at byte {dst_base}")
    path = run.emu.path(run.unit, src_mem.name, dst_mem.name)
    nbytes = src_access.box_bytes
    occupancy, latency = path.timing(nbytes)
    yield sim.transfer(occupancy, latency, run.launch.resources(path), nbytes,
                       lambda: _write(dst_mem, dst_base, dst_access, et, values), path.datapaths)


_HANDLERS: dict[type, tuple[Callable, bool]] = {
    arith.ConstantOp: (_constant, False),
    arith.CmpiOp: (_cmpi, False),
    arith.SelectOp: (_select, False),
    affine.ApplyOp: (_affine_apply, False),
    symbol.CreateSymbolOp: (_create_symbol, False),
    uniform.DefImmutableMappingOp: (_def_mapping, False),
    uniform.QueryMapOp: (_query_map, False),
    dataflow.InstanceIndexOp: (_instance_index, False),
    scf.ForOp: (_for, True),
    scf.IfOp: (_if, True),
    scf.YieldOp: (_nothing, False),
    vectorchain.ApplyOp: (_vector_apply, True),
    vectorchain.ConstantBitstreamOp: (_constant_bitstream, True),
    vectorchain.ShuffleOp: (_shuffle, True),
    vectorchain.ReduceOp: (_reduce, True),
    dataflow.SendOp: (_send, True),
    dataflow.ReceiveOp: (_receive, True),
    dataflow.SyncSendOp: (_sync_send, True),
    dataflow.SyncRecvOp: (_sync_recv, True),
    agen.VectorLoadOp: (_vector_load, True),
    agen.VectorStoreOp: (_vector_store, True),
    agen.CompositeLoadAndStoreOp: (_composite, True),
}
_GENERIC: dict[str, tuple[Callable, bool]] = {name: (_int_binary, False) for name in _INT_BINARY}
_GENERIC.update({name: (_pass, False) for name in _PASS_THROUGH})
_GENERIC["func.return"] = (_nothing, False)
