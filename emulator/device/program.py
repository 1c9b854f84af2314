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
            # Nested blocks first: a loop's closure captures its body's steps.
            for region in op.regions:
                for block in region.blocks:
                    if block not in self.block_steps:
                        self.block_steps[block] = self._compile_block(block)
            factory = _FACTORIES.get(type(op)) or _BY_NAME.get(op.name)
            if factory is None and isinstance(op, vectorchain.BinaryOp):
                factory = _c_vector_binary
            if factory is None:
                raise UnsupportedError(f"the emulator does not execute {op.name}",
                                       _loc(op, self.locations))
            run, blocking = factory(self, op)
            steps.append(Step(op, run, blocking, _loc(op, self.locations)))
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
        """Evaluate the top level once, then start every unit instance of every program
        unit on `launch`."""
        shared: Env = {}
        top = _TopLevel(self, symbols, launch)
        for step in self.shared_steps:
            top.instruction = step.label
            if step.blocking:
                raise top.fault(f"{step.op.name} may not stand at the top level of a program")
            step.run(top, shared)
        runs = []
        for unit_program in self.units:
            for unit in unit_program.units:
                run = UnitRun(self, unit_program, unit, launch, symbols)
                run.shared_env = shared
                run.proc = launch.sim.spawn(unit, run.main())
                runs.append(run)
        return runs


class _TopLevel:
    """Where the uniform top-level values are evaluated (once per launch)."""

    def __init__(self, image: ProgramImage, symbols: dict[int, int], launch: Launch):
        self.image = image
        self.symbols = symbols
        self.launch = launch
        self.instruction = ""

    def fault(self, message: str) -> ExecutionError:
        return ExecutionError(message, f"program {self.image.name}, top level, instruction "
                                       f"'{self.instruction}', cycle {self.launch.sim.now}")


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
        self.unit_model = self.device.units[unit]
        self.compute_latency = int((self.unit_model.compute or {}).get("latency", 0))
        self.lanes: dict[str, int] = {}
        self.shared_env: Env = {}
        self.proc: sim.Process | None = None
        self._fifos: dict[str, sim.Fifo] = {}
        self._tokens: dict[tuple[str, int], sim.Token] = {}
        self._memories: dict[str, object] = {}

    def main(self) -> Generator:
        env: Env = dict(self.shared_env)
        yield from self.run_steps(self.program.steps, env)
        # The unit counts as finished when its last transfer lands (Process.finished_at).
        self.proc.instruction = "end of program unit"

    def run_steps(self, steps: list[Step], env: Env) -> Generator:
        proc = self.proc
        for step in steps:
            proc.instruction = step.label
            if step.blocking:
                yield from step.run(self, env)
            else:
                step.run(self, env)

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
        fifo = self.launch.fifo(producer, consumer, depth, name)
        found = (fifo, self.device.datapath(producer, consumer))
        self._fifos[name] = found
        return found

    def path(self, source: str, target: str):
        try:
            return self.emu.path(self.unit, source, target)
        except ExecutionError as err:
            raise self.fault(err.message) from None

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


# ---- handlers: one factory per op, run once at prepare; the closures they return
# capture the op's operands and attributes, so a launch never goes back to the IR ------------


def _c_constant(image: ProgramImage, op: arith.ConstantOp):
    value = op.value
    if isinstance(value, (IntegerAttr, FloatAttr)):
        const = value.value.data
    else:
        raise UnsupportedError(f"arith.constant of {value} is not a scalar", _loc(op, image.locations))
    res = op.result

    def run(r, env):
        env[res] = const
    return run, False


def _c_int_binary(image: ProgramImage, op: Operation):
    fn = _INT_BINARY[op.name]
    a, b = op.operands[0], op.operands[1]
    res = op.results[0]
    name = op.name
    divides = name in _DIVIDES

    def run(r, env):
        y = env[b]
        if divides and y == 0:
            raise r.fault(f"{name} divides by zero")
        env[res] = fn(env[a], y)
    return run, False


def _c_cmpi(image: ProgramImage, op: arith.CmpiOp):
    fn = _CMPI[op.predicate.value.data]
    a, b, res = op.lhs, op.rhs, op.result

    def run(r, env):
        env[res] = bool(fn(env[a], env[b]))
    return run, False


def _c_select(image: ProgramImage, op: arith.SelectOp):
    c, a, b, res = op.cond, op.lhs, op.rhs, op.result

    def run(r, env):
        env[res] = env[a] if env[c] else env[b]
    return run, False


def _c_pass(image: ProgramImage, op: Operation):
    a, res = op.operands[0], op.results[0]

    def run(r, env):
        env[res] = env[a]
    return run, False


def _c_affine_apply(image: ProgramImage, op: affine.ApplyOp):
    amap = op.map.data
    operands = list(op.mapOperands)
    nd = amap.num_dims
    res = op.result

    def run(r, env):
        values = [env[v] for v in operands]
        env[res] = amap.eval(values[:nd], values[nd:])[0]
    return run, False


def _c_create_symbol(image: ProgramImage, op: symbol.CreateSymbolOp):
    sid, res = op.id, op.result

    def run(r, env):
        value = r.symbols.get(sid)
        if value is None:
            raise r.fault(f"symbol {sid} is not set: the launch gave it no value")
        env[res] = value
    return run, False


def _c_def_mapping(image: ProgramImage, op: uniform.DefImmutableMappingOp):
    keys, entries, res = op.key_list, list(op.entries), op.result

    def run(r, env):
        env[res] = dict(zip(keys, (env[v] for v in entries)))
    return run, False


def _c_query_map(image: ProgramImage, op: uniform.QueryMapOp):
    m, k, res = op.map, op.key, op.result

    def run(r, env):
        mapping, key = env[m], env[k]
        try:
            env[res] = mapping[key]
        except KeyError:
            raise r.fault(f"uniform.query_map: the map has no entry for key {key} "
                          f"(keys: {', '.join(map(str, sorted(mapping)))})") from None
    return run, False


def _c_instance_index(image: ProgramImage, op: dataflow.InstanceIndexOp):
    core = op.level.data == "core"
    res = op.result

    def run(r, env):
        env[res] = r.core if core else r.corelet
    return run, False


def _block_body(image: ProgramImage, block: Block):
    steps = image.block_steps[block]
    args = list(block.args)
    last = block.last_op
    yields = list(last.operands) if isinstance(last, scf.YieldOp) else []
    return steps, args, yields


def _c_for(image: ProgramImage, op: scf.ForOp):
    lb, ub, stp = op.lb, op.ub, op.step
    inits = list(op.iter_args)
    results = list(op.results)
    steps, args, yields = _block_body(image, op.body.block)
    iv, carried = args[0], args[1:]

    def run(r, env):
        step = env[stp]
        if step <= 0:
            raise r.fault(f"scf.for step {step} is not positive")
        values = [env[v] for v in inits]
        run_steps = r.run_steps
        for i in range(env[lb], env[ub], step):
            env[iv] = i
            for a, v in zip(carried, values):
                env[a] = v
            yield from run_steps(steps, env)
            values = [env[v] for v in yields]
        for res, v in zip(results, values):
            env[res] = v
    return run, True


def _c_if(image: ProgramImage, op: scf.IfOp):
    cond = op.cond
    results = list(op.results)
    then = _block_body(image, op.true_region.block)
    other = _block_body(image, op.false_region.block) if op.false_region.blocks else None

    def run(r, env):
        chosen = then if env[cond] else other
        if chosen is None:
            return
        steps, _, yields = chosen
        yield from r.run_steps(steps, env)
        for res, v in zip(results, yields):
            env[res] = env[v]
    return run, True


def _c_nothing(image: ProgramImage, op: Operation):
    def run(r, env):
        return None
    return run, False


def _ready_wait(r, values) -> tuple | None:
    """The command to wait until every value is ready, or None."""
    ready = r.ready
    latest = 0
    for v in values:
        t = ready.get(v, 0)
        if t > latest:
            latest = t
    if latest > r.launch.sim.now:
        return sim.wait_until(latest, "for its operands to be ready")
    return None


def _compute_figures(image: ProgramImage, op: Operation, et: str):
    """(elements, element type) for an op's busy time: its largest operand or result."""
    elements = max(_numel(v.type.get_shape()) for v in (*op.operands, *op.results)
                   if isinstance(v.type, VectorType))
    return elements, et


def _busy_and_ready(r, elements: int, et: str, res) -> Generator:
    unit = r.unit_model
    if unit.compute is None:
        raise r.fault(f"runs on {r.unit}, which does not compute")
    lanes = r.lanes.get(et)
    if lanes is None:
        try:
            lanes = unit.lanes(et)
        except Exception as err:
            raise r.fault(getattr(err, "message", str(err))) from None
        r.lanes[et] = lanes
    yield sim.delay(compute_cycles(elements, lanes))
    r.ready[res] = r.launch.sim.now + r.compute_latency


def _c_vector_binary(image: ProgramImage, op: vectorchain.BinaryOp):
    scalar = op.scalar_op()
    et = _vector_etype(op.result.type)
    a, b, res = op.lhs, op.rhs, op.result
    elements, _ = _compute_figures(image, op, et)

    def run(r, env):
        wait = _ready_wait(r, (a, b))
        if wait is not None:
            yield wait
        env[res] = apply_op(scalar, et, env[a], env[b])
        yield from _busy_and_ready(r, elements, et, res)
    return run, True


def _c_vector_apply(image: ProgramImage, op: vectorchain.ApplyOp):
    fn = op.fn.data
    inputs = list(op.inputs)
    et = _vector_etype(inputs[0].type)
    rt = _vector_etype(op.result.type)
    shape = tuple(op.result.type.get_shape())
    attrs = {}
    for k, v in op.attributes.items():
        attrs[k] = v.value.data if isinstance(v, (IntegerAttr, FloatAttr)) else getattr(v, "data", v)
    kwargs = {"result_type": rt} if rt != et else {}
    res = op.result
    elements, _ = _compute_figures(image, op, et)

    def run(r, env):
        wait = _ready_wait(r, inputs)
        if wait is not None:
            yield wait
        try:
            result = apply_op(fn, et, *(env[v] for v in inputs), **kwargs, **attrs)
        except TypeError as err:
            raise r.fault(f"vectorchain.apply {fn}: {err}") from None
        env[res] = np.asarray(result).reshape(shape)
        yield from _busy_and_ready(r, elements, et, res)
    return run, True


def _c_constant_bitstream(image: ProgramImage, op: vectorchain.ConstantBitstreamOp):
    type_ = op.result.type
    et = element_type(_vector_etype(type_))
    digits = et.width // 4 if et.width >= 8 else 2
    text = op.bits.data
    bits = np.array([int(text[i:i + digits], 16) for i in range(0, len(text), digits)],
                    dtype=np.uint64)
    value = from_bits(et, bits).reshape(type_.get_shape())
    res = op.result

    def run(r, env):
        env[res] = value
        yield sim.delay(1)
        r.ready[res] = r.launch.sim.now + r.compute_latency
    return run, True


def _c_shuffle(image: ProgramImage, op: vectorchain.ShuffleOp):
    src = op.source
    pattern = np.asarray(op.pattern_list, dtype=np.int64)
    shape = tuple(op.result.type.get_shape())
    idx = pattern[np.arange(_numel(shape)) % len(pattern)]
    et = _vector_etype(op.result.type)
    res = op.result
    elements, _ = _compute_figures(image, op, et)

    def run(r, env):
        wait = _ready_wait(r, (src,))
        if wait is not None:
            yield wait
        env[res] = env[src].reshape(-1)[idx].reshape(shape)
        yield from _busy_and_ready(r, elements, et, res)
    return run, True


def _c_reduce(image: ProgramImage, op: vectorchain.ReduceOp):
    kind, src, res = op.kind.data, op.source, op.result
    acc = _vector_etype(op.result.type)
    et = _vector_etype(op.source.type)
    shape = tuple(op.result.type.get_shape())
    elements, _ = _compute_figures(image, op, et)

    def run(r, env):
        wait = _ready_wait(r, (src,))
        if wait is not None:
            yield wait
        env[res] = np.asarray(reduce(kind, env[src], -1, acc)).reshape(shape)
        yield from _busy_and_ready(r, elements, et, res)
    return run, True


def _c_send(image: ProgramImage, op: dataflow.SendOp):
    name = op.fifo.root_reference.data
    decl = image.fifos[name]
    n = _numel(op.value.type.get_shape()) // _numel(decl.entry.get_shape())
    value = op.value

    def run(r, env):
        wait = _ready_wait(r, (value,))
        if wait is not None:
            yield wait
        fifo, dp = r.fifo(name)
        data = env[value].reshape(n, -1)
        nbytes = data.nbytes
        busy = dp.cycles(nbytes) - dp.latency
        counts = r.launch.sim.datapath_bytes
        counts[fifo.path] = counts.get(fifo.path, 0) + nbytes
        # Entries leave evenly over the busy time: the chunk is visible when its last
        # entry could have left, plus the datapath's latency.
        yield sim.send(fifo, data, n, busy + dp.latency)
        if busy > 0:
            yield sim.delay(busy)
    return run, True


def _c_receive(image: ProgramImage, op: dataflow.ReceiveOp):
    name = op.fifo.root_reference.data
    decl = image.fifos[name]
    n = _numel(op.result.type.get_shape()) // _numel(decl.entry.get_shape())
    shape = tuple(op.result.type.get_shape())
    res = op.result

    def run(r, env):
        fifo, _ = r.fifo(name)
        got = yield sim.recv(fifo, n)
        env[res] = got.reshape(shape)
    return run, True


def _c_sync(image: ProgramImage, op, sending: bool):
    name = op.channel.root_reference.data
    if name not in image.syncs:
        raise ExecutionError(f"no dataflow.sync @{name} is declared", _loc(op, image.locations))
    peer = op.peer
    make = sim.sync_send if sending else sim.sync_recv

    def run(r, env):
        token = r.token(name, env[peer] if peer is not None else None, sending)
        yield make(token)
    return run, True


def _c_sync_send(image: ProgramImage, op: dataflow.SyncSendOp):
    return _c_sync(image, op, True)


def _c_sync_recv(image: ProgramImage, op: dataflow.SyncRecvOp):
    return _c_sync(image, op, False)


def _read(memory, base: int, access: Access, et, dtype) -> np.ndarray:
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


def _c_vector_load(image: ProgramImage, op: agen.VectorLoadOp):
    et = element_type(_vector_etype(op.result.type))
    dtype = et.storage_dtype
    access = image.access(op.access, et.size)
    mem_name, base_v, res = op.memory.data, op.base, op.result
    shape = tuple(op.result.type.get_shape())
    nbytes = access.box_bytes

    def run(r, env):
        memory = r.memory(mem_name)
        base = env[base_v]
        try:
            env[res] = _read(memory, base, access, et, dtype).reshape(shape)
        except ExecutionError as err:
            raise r.fault(err.message) from None
        dp = r.datapath(memory.name, r.unit)
        yield sim.transfer(dp.cycles(nbytes) - dp.latency, dp.latency,
                           r.launch.resources_of(memory.name), nbytes, None,
                           (f"{memory.name}->{r.unit}",))
        r.ready[res] = r.launch.sim.now + dp.latency
    return run, True


def _c_vector_store(image: ProgramImage, op: agen.VectorStoreOp):
    et = element_type(_vector_etype(op.value.type))
    access = image.access(op.access, et.size)
    mem_name, base_v, value = op.memory.data, op.base, op.value
    nbytes = access.box_bytes

    def run(r, env):
        wait = _ready_wait(r, (value,))
        if wait is not None:
            yield wait
        memory = r.memory(mem_name)
        base = env[base_v]
        values = env[value]
        # Checked now (the fault belongs to this instruction), written when it lands.
        try:
            memory.check(base + access.offset, access.shape, access.strides, et.size,
                         f"write of {memory.name} at byte {base}")
        except ExecutionError as err:
            raise r.fault(err.message) from None
        dp = r.datapath(r.unit, memory.name)
        yield sim.transfer(dp.cycles(nbytes) - dp.latency, dp.latency,
                           r.launch.resources_of(memory.name), nbytes,
                           lambda: _write(memory, base, access, et, values),
                           (f"{r.unit}->{memory.name}",))
    return run, True


def _c_composite(image: ProgramImage, op: agen.CompositeLoadAndStoreOp):
    et = element_type(element_name(op.element))
    dtype = et.storage_dtype
    src_access = image.access(op.source_access, et.size)
    dst_access = image.access(op.target_access, et.size)
    src_name, dst_name = op.source_memory.data, op.target_memory.data
    src_v, dst_v = op.source_base, op.target_base
    nbytes = src_access.box_bytes
    masked = src_access.mask is not None or dst_access.mask is not None

    def run(r, env):
        src_mem, dst_mem = r.memory(src_name), r.memory(dst_name)
        src_base, dst_base = env[src_v], env[dst_v]
        try:
            values = _read(src_mem, src_base, src_access, et, dtype)
            if masked:
                values = _remask(values, src_access, dst_access)
            dst_mem.check(dst_base + dst_access.offset, dst_access.shape, dst_access.strides,
                          et.size, f"write of {dst_mem.name} at byte {dst_base}")
        except ExecutionError as err:
            raise r.fault(err.message) from None
        path = r.path(src_mem.name, dst_mem.name)
        occupancy, latency = path.timing(nbytes)
        yield sim.transfer(occupancy, latency, r.launch.resources(path), nbytes,
                           lambda: _write(dst_mem, dst_base, dst_access, et, values),
                           path.datapaths)
    return run, True


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


_FACTORIES: dict[type, Callable] = {
    arith.ConstantOp: _c_constant,
    arith.CmpiOp: _c_cmpi,
    arith.SelectOp: _c_select,
    affine.ApplyOp: _c_affine_apply,
    symbol.CreateSymbolOp: _c_create_symbol,
    uniform.DefImmutableMappingOp: _c_def_mapping,
    uniform.QueryMapOp: _c_query_map,
    dataflow.InstanceIndexOp: _c_instance_index,
    scf.ForOp: _c_for,
    scf.IfOp: _c_if,
    scf.YieldOp: _c_nothing,
    func.ReturnOp: _c_nothing,
    vectorchain.ApplyOp: _c_vector_apply,
    vectorchain.ConstantBitstreamOp: _c_constant_bitstream,
    vectorchain.ShuffleOp: _c_shuffle,
    vectorchain.ReduceOp: _c_reduce,
    dataflow.SendOp: _c_send,
    dataflow.ReceiveOp: _c_receive,
    dataflow.SyncSendOp: _c_sync_send,
    dataflow.SyncRecvOp: _c_sync_recv,
    agen.VectorLoadOp: _c_vector_load,
    agen.VectorStoreOp: _c_vector_store,
    agen.CompositeLoadAndStoreOp: _c_composite,
}
_BY_NAME: dict[str, Callable] = {name: _c_int_binary for name in _INT_BINARY}
_BY_NAME.update({name: _c_pass for name in _PASS_THROUGH})
