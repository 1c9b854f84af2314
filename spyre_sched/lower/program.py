"""One program's DataflowIR module: outer function (symbols from the real arguments) and
inner, argument-free function (declarations + one program unit per engine)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, StringAttr, VectorType
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.transforms.common_subexpression_elimination import cse

from spyre_sched.dialects import dataflow as df
from spyre_sched.dialects.symbol import CreateIdOp, CreateSymbolOp
from spyre_sched.errors import DeviceError
from spyre_sched.lower import addresses, fifo_order, lifetimes, parallel_loops, runtime_shapes
from spyre_sched.lower.loads_first import issue_loads_first
from spyre_sched.lower.loop_invariants import hoist_invariants
from spyre_sched.lower.analysis import ProgramAnalysis, analyse
from spyre_sched.lower.program_units import EngineEmitter, ProgramTables, base_forms, index_form
from spyre_sched.lower.units import Units

INDEX = IndexType()


def lower_program(index: int, fn: func.FuncOp, units: Units, next_symbol: Callable[[], int],
                  *, device_name: str, kernel_name: str) -> tuple[ModuleOp, ProgramAnalysis, ProgramTables]:
    env = base_forms(fn, units.num_tiles)
    pa = analyse(index, fn, units, env, index_form)
    _assign_addresses(pa)
    in_send_order = _fifo_depths(pa)
    tables = ProgramTables(pa, next_symbol)
    units_ops: list[Operation] = []
    for engine in pa.engines.values():
        emitter = EngineEmitter(pa, tables, engine, env)
        body = emitter.run()
        region = Region(Block(body))
        cse(region)  # (the emitter writes each access's address arithmetic anew)
        hoist_invariants(region)
        issue_loads_first(region)
        instances = units.instances(engine, pa.corelets.get(engine.name, 1))
        units_ops.append(df.ProgramUnitOp(f"p{index}_{engine.name}", engine.name, instances, region))
    fifo_order.check_send_order(pa.name, units_ops, in_send_order)
    decls: list[Operation] = []
    for fifo in pa.fifos.values():
        decls.append(df.FifoOp(fifo.name, fifo.source.name, fifo.target.name, fifo.depth,
                               VectorType(fifo.element, [_prod(fifo.shape)])))
    for channels in pa.channels.values():
        for ch in channels:
            modulo = ch.credits if ch.credits is not None else _modulo(pa, ch.pipeline)
            decls.append(df.SyncOp(f"{ch.name}_full", ch.writer, ch.reader, 0))
            decls.append(df.SyncOp(f"{ch.name}_free", ch.reader, ch.writer, modulo))
    if pa.reuse is not None:
        decls += lifetimes.declarations(pa.reuse)
    consts = [op for op in tables.top_ops if isinstance(op, arith.ConstantOp)]
    syms = [op for op in tables.top_ops if isinstance(op, CreateSymbolOp)]
    name = fn.sym_name.data
    inner = func.FuncOp(f"{name}_body", ((), ()))
    inner.body.block.add_ops([*consts, *syms, *tables.map_ops, *decls, *units_ops, func.ReturnOp()])
    outer = _outer_function(fn, tables)
    module = ModuleOp([outer, inner])
    module.properties["sym_name"] = StringAttr(name)
    module.attributes["dataflow.device"] = StringAttr(device_name)
    module.attributes["dataflow.kernel"] = StringAttr(kernel_name)
    return module, pa, tables


def _prod(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _modulo(pa: ProgramAnalysis, pipeline: int) -> int:
    p = pa.pipelines[pipeline]
    return p.modulo_value


def address_problem(pa: ProgramAnalysis) -> tuple[list[addresses.BufferRequest], dict]:
    """The buffers of a program as allocation requests (in `pa.buffers` order) and the
    memories' limits (`addresses.assign` keyword arguments, lifetimes included)."""
    # a pipeline inside a distributed loop gets one copy of its slots per corelet when
    # the corelets share the memory (parallel_loops.py)
    requests = [addresses.BufferRequest(b.name, b.memory, b.bytes,
                                        b.slots * parallel_loops.instance_copies(pa, b), b.op.role.data,
                                        early=lifetimes.filled_ahead(pa, v))
                for v, b in pa.buffers.items()]
    memories = sorted({r.memory for r in requests} | {pa.units.memory_for_space("ct_local")})
    pinned_attr = pa.func.attributes.get("ktdf.pinned_bytes")
    pinned_bytes = pinned_attr.value.data if isinstance(pinned_attr, IntegerAttr) else 0
    pinned = {pa.units.memory_for_space("ct_local"): [(0, pinned_bytes)] if pinned_bytes else []}
    return requests, {"capacity": {m: pa.units.scratchpad_size(m) for m in memories},
                      "alignment": {m: pa.units.memory_granularity(m) for m in memories},
                      "pinned": pinned, "lifetimes": lifetimes.lifetimes(pa)}


def _assign_addresses(pa: ProgramAnalysis) -> None:
    requests, limits = address_problem(pa)
    allocs = addresses.assign(pa.name, requests, **limits)
    for buf, alloc in zip(pa.buffers.values(), allocs):
        buf.alloc = alloc
    pinned = limits["pinned"][pa.units.memory_for_space("ct_local")]
    pa.pinned_bytes = pinned[0][1] if pinned else 0  # type: ignore[attr-defined]
    pa.reuse = lifetimes.plan_reuse(pa)


def _fifo_depths(pa: ProgramAnalysis) -> list[tuple[str, str, list[str]]]:
    """Split each datapath's queue depth between the logical FIFOs that need it at the same
    time, as the solver chose (`ktdf.depth` on every FIFO of the group), else evenly: those
    of one phase (`ktdf.fifo_phase`, one compute of the program's run-once
    pipeline). FIFOs of different phases take the whole queue in turns: every unit pushes
    and pops all of one phase's entries before the next phase's, and the emulator holds
    the datapath's entries of all its FIFOs to the queue depth (docs/dataflowir.md).
    A phase with more FIFOs than the queue has entries shares it in send order (one
    entry each, or what the solver chose, each at most the queue), as does one the solver
    gave more entries between them than the queue holds: returned as (producer, consumer,
    FIFO names) for `fifo_order.check_send_order` to prove."""
    sharing: dict[tuple[str, str, tuple[int, int]], list] = {}
    for fifo in pa.fifos.values():
        sharing.setdefault((fifo.source.name, fifo.target.name, fifo.phase), []).append(fifo)
    in_send_order: list[tuple[str, str, list[str]]] = []
    for (src, dst, _), fifos in sharing.items():
        depth = pa.units.fifo_depth(fifos[0].source, fifos[0].target)
        solver_chose = all(f.chosen is not None for f in fifos)
        shared = len(fifos) > depth or (solver_chose and sum(f.chosen for f in fifos) > depth)
        if shared:
            in_send_order.append((src, dst, [f.name for f in fifos]))
        if solver_chose:
            # the solver's split (`ktdf.depth`): each at least 1, together within the queue,
            # or, more between them (in send order), each within it
            bad = next((f for f in fifos if f.chosen < 1), None)
            where = f"op ktdf.fifo in pass lower (program {pa.name})"
            if bad is not None:
                raise DeviceError(f"FIFO {src} -> {dst} has depth {bad.chosen}: a FIFO needs "
                                  "at least one entry", where)
            given = [f.chosen for f in fifos]
            if shared and max(given) > depth:
                raise DeviceError(f"a FIFO {src} -> {dst} is given {max(given)} entries; the "
                                  f"datapath's queue holds {depth}", where)
            if not shared and sum(given) > depth:
                raise DeviceError(f"the FIFOs {src} -> {dst} of one phase are given "
                                  f"{sum(given)} entries ({' + '.join(map(str, given))}); "
                                  f"the datapath's queue holds {depth}", where)
            for fifo in fifos:
                fifo.depth = fifo.chosen
            continue
        for fifo in fifos:
            fifo.depth = max(1, depth // len(fifos))
    return in_send_order


def _outer_function(fn: func.FuncOp, tables: ProgramTables) -> func.FuncOp:
    arg_types = [a.type for a in fn.body.block.args]
    block = Block(arg_types=arg_types)
    for new, old in zip(block.args, fn.body.block.args):
        new.name_hint = old.name_hint
    ops: list[Operation] = []
    names = runtime_shapes.outer_argument_values(block, ops)

    def build(expr) -> SSAValue:
        if isinstance(expr, int):
            op = arith.ConstantOp(IntegerAttr(expr, INDEX))
            ops.append(op)
            return op.result
        if expr[0] == "arg":
            return names[expr[1]]
        a, b = build(expr[1]), build(expr[2])
        cls = {"add": arith.AddiOp, "sub": arith.SubiOp, "mul": arith.MuliOp,
               "floordiv": arith.FloorDivSIOp, "mod": arith.RemSIOp, "min": arith.MinSIOp,
               "max": arith.MaxSIOp}[expr[0]]
        op = cls(a, b)
        ops.append(op)
        return op.results[0]

    for entry in sorted(tables.symbols, key=lambda e: e.id):
        value = build(entry.expr)
        if value.owner in ops:
            value.name_hint = f"s{entry.id}"
        ops.append(CreateIdOp(value, entry.id))
    name = fn.sym_name.data
    ops.append(func.CallOp(f"{name}_body", [], []))
    ops.append(func.ReturnOp())
    block.add_ops(ops)
    return func.FuncOp(name, (arg_types, ()), Region(block))
