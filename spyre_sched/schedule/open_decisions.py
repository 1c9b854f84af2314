"""Pass 9, open-decisions: leave buffering depth and instance split to the solver.

- A pipeline whose private holds scratchpad buffers and that runs inside a loop (a
  compute's tile pipeline, or a plain copy's DMA pipeline) gets
  `modulo(size: ?, decision = "<prefix>.pipe.<level>.modulo")`: its buffers are written
  by one stage and read by another while the loop advances, so N copies let the filling
  stage run ahead. (Not a fixed 2: the solver weighs scratchpad against latency.) A
  pipeline that runs once, or that holds only FIFOs, gets none. A pipeline fetching an
  outer tile's input around the inner loops' tile pipeline (hoist-inner-invariants) gets
  its own, `<prefix>.pipe.<level>.d<dim>.modulo` (dim: the loop it runs in), so the next
  outer tile's fetch may overlap the inner loops.
- The parallel point loops directly around a compute pipeline become
  `ktdf.parallel ... distribute(num_instances = ?)`, one decision per loop
  (`<prefix>.distribute.d<k>`), bounded by how many identical instances of the group
  holding the compute unit (corelets) a core has; choosing which loop gets more than one
  instance is the solver's. A device with one such instance per core, or a pipeline with
  no parallel loop around it, gets no distribute decision.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation, Region
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from spyre_sched.device import Device
from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import DIM_ATTR, device_of, programs
from spyre_sched.schedule.copy_pipeline import COPY_ATTR
from spyre_sched.schedule.expand_paths import compute_instance
from spyre_sched.schedule.hoist_inner import OUTER_FETCH_ATTR
from spyre_sched.schedule.ir_build import loop_dim
from spyre_sched.schedule.naive_pipeline import COMPUTE_ATTR
from spyre_sched.schedule.stream_k_chunks import ACCUMULATOR_INIT_ATTR

NAME = "open-decisions"
#: the fifo ends only a compute stage has (a compute with no input, such as a stored
#: constant, reads no fifo but writes one)
_FIFO_ENDS = ("ktdf.read_from_fifo", "ktdf.write_to_fifo")


def _in_loop(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        if isinstance(parent, scf.ForOp | ktdf.ParallelOp):
            return True
        parent = parent.parent_op()
    return False


def _compute_prefix(pipe: ktdf.PipelineOp) -> str | None:
    """The decision prefix of the compute inside `pipe`, or of the copy it is (not of a
    compute that only zeroes another's sums)."""
    for op in pipe.walk():
        if isinstance(op, ktdf.PipelineOp) and ACCUMULATOR_INIT_ATTR not in op.attributes:
            for attr in (COMPUTE_ATTR, COPY_ATTR):
                if attr in op.attributes:
                    return op.attributes[attr].data  # type: ignore[attr-defined]
    return None


def instance_group(device: Device, unit_kind: str) -> tuple[str, int]:
    """The group kind whose identical instances can each run a copy of the inner
    pipeline (the group holding the compute unit), and how many a core has."""
    unit = compute_instance(device, unit_kind)
    group = device.group_of(unit)
    if group is None or group.kind == "core" or not group.parent:
        return "core", 1
    parent = device.groups[group.parent]
    siblings = [device.groups[c] for c in parent.children if device.groups[c].kind == group.kind]
    return group.kind, len(siblings)


def open_modulo(pipe: ktdf.PipelineOp) -> None:
    private = pipe.private
    assert private is not None
    buffers = [op for op in private.body.block.ops if isinstance(op, ktdf.BufferOp)]
    if not buffers or pipe.modulo is not None or not _in_loop(pipe):
        return
    prefix = _compute_prefix(pipe)
    if prefix is None:
        return
    level = buffers[0].memory.lower()
    if OUTER_FETCH_ATTR in pipe.attributes:
        # an outer tile's fetch around the inner loops' tile pipeline: its own depth,
        # named by the loop it runs in (the tile pipeline inside keeps the plain name)
        level += f".d{loop_dim(_loop_chain(pipe)[0])}"
    pipe.modulo = ktdf.OpenAttr()
    pipe.decision = StringAttr(f"{prefix}.pipe.{level}.modulo")


def _loop_chain(op: Operation) -> list[scf.ForOp]:
    """The scheduler's dim loops directly around `op`, innermost first."""
    loops = []
    parent = op.parent_op()
    while isinstance(parent, scf.ForOp) and loop_dim(parent) is not None:
        loops.append(parent)
        parent = parent.parent_op()
    return loops


def _instance_private_kinds(device: Device, compute_kind: str) -> set[str]:
    """Memory kinds each instance (corelet) has its own copy of."""
    group = device.group_of(compute_instance(device, compute_kind))
    if group is None:
        return set()
    return {device.memories[m].kind for m in group.memories}


def candidate_loops(pipe: ktdf.PipelineOp, device: Device, compute_kind: str) -> list[scf.ForOp]:
    """The loops to split over instances: the loops directly around the work of one
    instance, in the stage of the innermost pipeline whose buffers all instances share
    (a corelet's own memory levels go with it)."""
    private_kinds = _instance_private_kinds(device, compute_kind)
    node: Operation = pipe
    while True:
        chain = _loop_chain(node)
        top = chain[-1] if chain else node
        stage = top.parent_op()
        outer = stage.parent_op() if isinstance(stage, ktdf.StageOp) else None
        if not isinstance(outer, ktdf.PipelineOp):
            return chain
        kinds = {b.memory for b in outer.private.body.block.ops  # type: ignore[union-attr]
                 if isinstance(b, ktdf.BufferOp)}
        if kinds and kinds <= private_kinds:
            node = outer
            continue
        return chain


def distribute(pipe: ktdf.PipelineOp, device: Device) -> None:
    """Turn the parallel loops that split one instance's work from the next into open
    ktdf.parallel ops."""
    compute = next((s.units[0] for s in pipe.stages
                    if any(o.name in _FIFO_ENDS for o in s.walk())), None)
    if compute is None:
        return
    group, count = instance_group(device, compute)
    if count <= 1:
        return
    prefix = pipe.attributes[COMPUTE_ATTR].data  # type: ignore[attr-defined]
    for loop in candidate_loops(pipe, device, compute):
        if ktdf.is_reduction_loop(loop) or loop.results:
            continue
        dim = loop_dim(loop)
        block = loop.body.blocks[0]
        loop.body.detach_block(block)
        terminator = block.last_op
        if isinstance(terminator, scf.YieldOp):
            Rewriter.erase_op(terminator)
        parallel = ktdf.ParallelOp([loop.lb], [loop.ub], [loop.step], Region(block),
                                   ktdf.OpenAttr(), count, group, f"{prefix}.distribute.d{dim}")
        parallel.attributes[DIM_ATTR] = loop.attributes[DIM_ATTR]
        Rewriter.replace_op(loop, parallel)


@dataclass(frozen=True)
class OpenDecisions(ModulePass):
    """modulo(size: ?) on buffered pipelines in loops; distribute(num_instances = ?)."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        for _, fn in list(programs(op)):
            for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)]:
                open_modulo(pipe)
            for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)
                         and COMPUTE_ATTR in p.attributes]:
                distribute(pipe, device)


