"""`ktdf.parallel` beyond a plain 1-D loop of FIFO work: several induction variables, and
N-buffered pipelines inside a loop distributed over corelets.

- **Multi-dimensional** `ktdf.parallel (%i, %j) = ...`: the iterations are numbered
  row-major over the product of the extents (last dim fastest) and that linear index is
  split like a 1-D loop: instance k runs [k·ceil(T/N), (k+1)·ceil(T/N)) of the T points.
  One `scf.for` walks the instance's block; each induction variable is recovered from the
  counter with `divui`/`remui` (a run-time value whose range is known, so tile extents
  inside still fold).
- **N-buffered pipelines inside a distributed loop**: every instance runs its own block
  of iterations, so it rotates its own slots (the slot index is carried by the instance's
  loop, from 0) and its stages hand tokens only to the same corelet's engines (another
  instance may run a different number of iterations). When the pipeline's buffers live in
  a memory the corelets share (LX on spyre), each corelet gets its own copies of the
  slots: `base + (corelet · M + slot) · slot_bytes`; a memory each corelet owns needs no
  copies. A core-level engine (one DMA per core) cannot take part: it would have to run
  every instance's block.
"""

from __future__ import annotations

import math

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr
from xdsl.ir import Block, Operation, SSAValue

from spyre_sched.dialects import ktdf
from spyre_sched.errors import UnsupportedError
from spyre_sched.lower.analysis import BufferInfo, ProgramAnalysis, SyncChannel, where
from spyre_sched.lower.values import Form

INDEX = IndexType()


def instances_of(op: ktdf.ParallelOp) -> int:
    return op.num_instances.value.data if isinstance(op.num_instances, IntegerAttr) else 1


def distributed_around(op: Operation) -> list[ktdf.ParallelOp]:
    """The `ktdf.parallel`s with more than one instance around `op`, inner first."""
    found = []
    cur = op.parent_op()
    while cur is not None:
        if isinstance(cur, ktdf.ParallelOp) and instances_of(cur) > 1:
            found.append(cur)
        cur = cur.parent_op()
    return found


def memory_per_corelet(pa: ProgramAnalysis, memory: str) -> bool:
    """Whether each corelet owns its own instance of `memory` (else the corelets share it)."""
    corelet = pa.units.corelet0
    return corelet is not None and f"{corelet.name}.{memory}" in pa.units.device.memories


def instance_copies(pa: ProgramAnalysis, buf: BufferInfo) -> int:
    """Copies of a buffer's slots: one per corelet when its pipeline runs inside a
    distributed loop and its memory is shared by the corelets."""
    if not distributed_around(buf.pipeline) or memory_per_corelet(pa, buf.memory):
        return 1
    engines = pa.buffer_engines.get(buf.pipeline, set())
    return max([pa.corelets.get(e, 1) for e in engines] + [1])


def instance_offset(emitter, buf: BufferInfo) -> Form:
    """Bytes from a buffer's base to this instance's copy of its slots."""
    copies = instance_copies(emitter.pa, buf)
    if copies <= 1:
        return Form.constant(0)
    assert buf.alloc is not None
    return Form.atom(emitter.instance("corelet")).scale(buf.slots * buf.alloc.slot_bytes)


def channel_peers(emitter, ch: SyncChannel, peer: str) -> list[SSAValue | None] | None:
    """The peers of a pipeline's token exchange when the pipeline runs inside a distributed
    loop: the same corelet's instance only (None: the usual peers)."""
    pipeline = emitter.pa.pipelines[ch.pipeline]
    if not distributed_around(pipeline):
        return None
    for engine in (ch.writer, ch.reader):
        if emitter.pa.engines[engine].level != "corelet":
            raise UnsupportedError(
                f"lowering: {engine} runs once per core and cannot take part in a pipeline "
                "inside a ktdf.parallel distributed over corelets", where(pipeline))
    return [emitter.instance("corelet")]


def check_distributed(emitter, op: ktdf.ParallelOp) -> None:
    """A distributed loop runs on corelet instances only."""
    if instances_of(op) > 1 and emitter.engine.level != "corelet":
        raise UnsupportedError(
            f"lowering: {emitter.engine.name} runs once per core and cannot run a "
            f"ktdf.parallel distributed over {instances_of(op)} corelets", where(op))


def visit_multi_dim(emitter, op: ktdf.ParallelOp, rotating: list[ktdf.PipelineOp]) -> None:
    """A ktdf.parallel with several induction variables: one loop over the linearised
    index of this instance's block."""
    bounds = []
    for d, (lb, ub, st) in enumerate(zip(op.lower_bounds, op.upper_bounds, op.steps)):
        forms = [emitter.env[v] for v in (lb, ub, st)]
        if not all(f.is_constant for f in forms):
            raise UnsupportedError("lowering: a multi-dimensional ktdf.parallel with run-time "
                                   "bounds is not supported yet", where(op))
        lo, hi, step = (f.value for f in forms)
        if step <= 0:
            raise UnsupportedError("lowering: loop steps must be positive", where(op))
        trips, rem = divmod(max(hi - lo, 0), step)
        if rem:
            raise UnsupportedError(
                f"lowering: a multi-dimensional ktdf.parallel whose step {step} does not divide "
                f"its extent {hi - lo} (dim {d}) is not supported yet", where(op))
        bounds.append((lo, step, trips))
    total = math.prod(t for _, _, t in bounds)
    if total == 0:
        return
    n = instances_of(op)
    if n > 1:
        chunk = -(-total // n)
        k = emitter.parallel_index(op, n)
        first0 = emitter.emit(arith.MuliOp(k, emitter.const(chunk))).results[0]
        first = emitter.emit(arith.MinUIOp(first0, emitter.const(total))).results[0]
        end0 = emitter.emit(arith.AddiOp(first, emitter.const(chunk))).results[0]
        end = emitter.emit(arith.MinUIOp(end0, emitter.const(total))).results[0]
        first.name_hint, end.name_hint = "first", "end"
    else:
        first, end = emitter.const(0), emitter.const(total)
    linear_for(emitter, op, bounds, first, end, total, rotating)


def linear_for(emitter, op: ktdf.ParallelOp, bounds, first: SSAValue, end: SSAValue,
               total: int, rotating: list[ktdf.PipelineOp]) -> None:
    """scf.for over the linear index in [first, end), carrying the rotating slots."""
    inits = [emitter.value(emitter.slots.get(p, Form.constant(0)), "slot") for p in rotating]
    block = Block(arg_types=[INDEX] * (1 + len(rotating)))
    counter = block.args[0]
    counter.name_hint = "lin"
    for arg in block.args[1:]:
        arg.name_hint = "slot"
    saved = emitter.out
    emitter.out = []
    emitter.ranges[counter] = (0, total - 1)
    inner = 1
    for d in reversed(range(len(bounds))):
        lo, step, trips = bounds[d]
        iv = op.induction_vars[d]
        if trips == 1:
            emitter.env[iv] = Form.constant(lo)
            continue
        position = counter
        if inner > 1:
            position = emitter.emit(arith.DivUIOp(position, emitter.const(inner))).results[0]
        if inner * trips < total:
            position = emitter.emit(arith.RemUIOp(position, emitter.const(trips))).results[0]
        if position is not counter:
            position.name_hint = iv.name_hint or f"d{d}"
        emitter.ranges[position] = (0, trips - 1)
        emitter.env[iv] = Form.atom(position).scale(step) + Form.constant(lo)
        inner *= trips
    for p, arg in zip(rotating, block.args[1:]):
        emitter.slots[p] = Form.atom(arg)
    emitter.walk(op.body.block.ops)
    yields = [emitter.value(emitter.slots[p], "slot") for p in rotating]
    emitter.out.append(scf.YieldOp(*yields))
    block.add_ops(emitter.out)
    emitter.out = saved
    loop = emitter.emit(scf.ForOp(first, end, emitter.const(1), inits, block))
    for p, result in zip(rotating, loop.results):
        result.name_hint = "slot"
        emitter.slots[p] = Form.atom(result)


__all__ = ["visit_multi_dim", "linear_for", "channel_peers", "instance_copies", "instance_offset",
           "check_distributed", "distributed_around", "memory_per_corelet"]
