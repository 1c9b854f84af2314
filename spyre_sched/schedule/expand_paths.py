"""Pass 5, expand-paths: route every transfer over the device's datapaths.

For each compute pipeline, every operand's path between its home memory and the compute
unit is the device model's shortest legal route (`find_route`, from core 0 / corelet
0: every core and corelet is the same). Each hop is performed by one unit; hops at the
same distance from the compute form one stage tagged with that unit's kind. A hop that
lands in a memory gets a staging buffer there (one vector for now; nesting grows it to a
tile); the hop into the compute unit, and out of it, go through FIFOs retyped to name
the two adjacent units (`"load" -> "sfu"`, `"sfu" -> "store"`). An operand already in
the scratchpad (a `ct_local` view, an intermediate) starts there: no DMA stage for it. One
in another core's scratchpad (a `ct_local` view with a `ct_id`) first crosses the
interconnect into this core's scratchpad: a DMA stage whose transfer the reading core's
DMA engine issues (`interconnect_hop`); a result stored into another core's scratchpad
lands in this core's first and then crosses, issued by its DMA engine that reads the
scratchpad.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, ModuleOp, StringAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from spyre_sched.xdsl_compat import has_no_side_effects
from spyre_sched.device import Device, Hop, find_route
from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import (device_of, fail, hop_from_core, hop_to_core,
                                         memory_instance, programs, remote_core,
                                         stored_core)
from spyre_sched.schedule.ir_build import enclosing_loops, loop_dim, pipeline, refresh_units
from spyre_sched.schedule.naive_pipeline import COMPUTE_ATTR

NAME = "expand-paths"


def compute_instance(device: Device, kind: str) -> str:
    """The first unit of `kind` in core 0 (its first corelet when it has corelets)."""
    core = device.core(0)
    for group in [*device.corelets(core), core]:
        for unit in device.compute_units(group):
            if unit.kind == kind:
                return unit.name
    raise fail(None, NAME, f"device {device.name} has no '{kind}' unit in core 0")


def subscript_dims(values: list[SSAValue], root: Operation) -> list[int | None]:
    """For each subscript, the iteration dim of the scheduler loops it depends on."""
    loops = enclosing_loops(root)
    dims: list[int | None] = []
    for value in values:
        found = {loop_dim(l) for l in loops if _uses(value, l.body.block.args[0])}
        dims.append(found.pop() if len(found) == 1 else None)
    return dims


def _uses(value: SSAValue, target: SSAValue) -> bool:
    from spyre_sched.schedule.ir_build import depends_on

    return depends_on(value, {target})


@dataclass
class _Path:
    """One operand of a compute: its naive transfer and its route."""

    naive_fifo: SSAValue
    hops: tuple[Hop, ...]
    is_input: bool
    buffers: list[ktdf.BufferOp]
    fifo: ktdf.FifoOp


def _staging_buffer(device: Device, hop: Hop, transfer: ktdf.DataTransferOp, is_input: bool,
                    rank: int, width: int, stick: int) -> ktdf.BufferOp:
    home = transfer.source if is_input else transfer.dest
    offsets = transfer.mixed_source_offsets() if is_input else transfer.mixed_dest_offsets()
    dims = subscript_dims([v for v in offsets if isinstance(v, SSAValue)], transfer)
    mtype = home.type
    assert isinstance(mtype, MemRefType)
    if None in dims or len(dims) != mtype.get_num_dims():
        raise fail(transfer, NAME, "cannot tell which loop drives each subscript of a transfer")
    amap = AffineMap(rank, 0, tuple(AffineMap.identity(rank).results[d] for d in dims))  # type: ignore[index]
    shape = [width if d == stick else 1 for d in dims]
    kind = device.memories[hop.lands_in].kind
    name = home.name_hint or "operand"
    owner = home.owner
    if isinstance(owner, ktdf.BufferOp):
        name = owner.operand.data
    elif hasattr(owner, "offset"):
        name = owner.offset.name_hint or name  # type: ignore[union-attr]
    return ktdf.BufferOp("input" if is_input else "output", name, AffineMapAttr(amap),
                         [width if d == stick else 1 for d in range(rank)],
                         MemRefType(mtype.element_type, shape, memory_space=StringAttr(kind)))


def _zero_offsets(rank: int) -> list[int]:
    return [0] * rank


def _hop_transfer(path: _Path, index: int, naive: ktdf.DataTransferOp) -> ktdf.DataTransferOp:
    """The transfer of hop `index` (0-based along the data's direction)."""
    n = len(path.hops)
    if path.is_input:
        sizes = naive.mixed_source_sizes()
        if index == 0:
            src, src_off = naive.source, naive.mixed_source_offsets()
        else:
            buf = path.buffers[index - 1].result
            src, src_off = buf, _zero_offsets(len(sizes))
        if index == n - 1:
            return ktdf.DataTransferOp(src, src_off, sizes, path.fifo.result, [],
                                       naive.mixed_dest_sizes(),
                                       naive.mode if naive.mode != "copy" else None)
        buf = path.buffers[index].result
        return ktdf.DataTransferOp(src, src_off, sizes, buf, _zero_offsets(len(sizes)), sizes)
    # output: hop 0 is the compute writing the FIFO; hop k >= 1 is a transfer
    sizes = naive.mixed_dest_sizes()
    src = path.fifo.result if index == 1 else path.buffers[index - 2].result
    src_off: list = [] if index == 1 else _zero_offsets(len(sizes))
    src_sizes = naive.mixed_source_sizes() if index == 1 else sizes
    if index == n - 1:
        return ktdf.DataTransferOp(src, src_off, src_sizes, naive.dest,
                                   naive.mixed_dest_offsets(), sizes)
    buf = path.buffers[index - 1].result
    return ktdf.DataTransferOp(src, src_off, src_sizes, buf, _zero_offsets(len(sizes)), sizes)


def _strip(body: list[Operation]) -> list[Operation]:
    """Drop dead side-effect-free ops and loops left empty by removed transfers."""
    block = Block(body)
    changed = True
    while changed:
        changed = False
        for op in reversed(list(block.walk())):
            if op.parent_block() is None:
                continue
            if isinstance(op, scf.ForOp) and not op.results and all(
                    isinstance(o, scf.YieldOp) for o in op.body.block.ops):
                Rewriter.erase_op(op)
                changed = True
            elif op.results and not op.regions and has_no_side_effects(op) and all(
                    not r.uses for r in op.results):
                Rewriter.erase_op(op)
                changed = True
    ops = list(block.ops)
    for op in ops:
        op.detach()
    return ops


def expand(pipe: ktdf.PipelineOp, device: Device) -> ktdf.PipelineOp:
    stages = pipe.stages
    if len(stages) != 3:
        raise fail(pipe, NAME, "expected the naive load -> compute -> store pipeline")
    load, comp, store = stages
    generic_rank, width, stick = _vector_geometry(comp)
    unit_kind = comp.units[0]
    unit = compute_instance(device, unit_kind)
    loads = [op for op in load.walk() if isinstance(op, ktdf.DataTransferOp)]
    stores = [op for op in store.walk() if isinstance(op, ktdf.DataTransferOp)]
    paths: dict[SSAValue, _Path] = {}
    for naive in loads:
        slot = naive.dest.type
        owner = remote_core(naive.source)
        if owner is None:
            hops = find_route(device, memory_instance(device, slot.source.data, NAME), unit).hops
        else:
            # Another core's scratchpad: first a move over the interconnect into this
            # core's scratchpad, then this core's own route.
            hops = (hop_from_core(device, owner, naive, NAME),
                    *find_route(device, device.scratchpad(0).name, unit).hops)
        if not hops:
            raise fail(naive, NAME, f"not supported yet: {unit} reads memory without a load unit")
        bufs = [_staging_buffer(device, h, naive, True, generic_rank, width, stick) for h in hops[:-1]]
        fifo = ktdf.FifoOp(ktdf.FifoSlotType(device.units[hops[-1].unit].kind, unit_kind,
                                             slot.get_shape(), slot.element_type))
        paths[naive.dest] = _Path(naive.dest, hops, True, bufs, fifo)
    for naive in stores:
        slot = naive.source.type
        owner = stored_core(naive.dest)
        if owner is None:
            hops = find_route(device, unit, memory_instance(device, slot.dest.data, NAME)).hops
        else:
            # Another core's scratchpad: this core's own route into its scratchpad, then a
            # move over the interconnect into the owner's.
            hops = (*find_route(device, unit, device.scratchpad(0).name).hops,
                    hop_to_core(device, owner, naive, NAME))
        if len(hops) < 2:
            raise fail(naive, NAME, f"not supported yet: {unit} writes memory without a store unit")
        bufs = [_staging_buffer(device, h, naive, False, generic_rank, width, stick)
                for h in hops[1:-1]]
        fifo = ktdf.FifoOp(ktdf.FifoSlotType(unit_kind, device.units[hops[0].lands_in].kind,
                                             slot.get_shape(), slot.element_type))
        paths[naive.source] = _Path(naive.source, hops, False, bufs, fifo)
    fifo_map = {old: p.fifo.result for old, p in paths.items()}

    def stage_for(naive_stage: ktdf.StageOp, pick) -> tuple[list[str], list[Operation]]:
        """Clone `naive_stage`'s body keeping, per transfer, the hop `pick` chooses."""
        mapping = dict(fifo_map)
        body = [op.clone(value_mapper=mapping) for op in naive_stage.body.block.ops]
        originals = [op for op in naive_stage.walk() if isinstance(op, ktdf.DataTransferOp)]
        holder = Block(body)
        clones = [op for op in holder.walk() if isinstance(op, ktdf.DataTransferOp)]
        units: list[str] = []
        for original, clone in zip(originals, clones):
            key = original.dest if original.dest in paths else original.source
            path = paths[key]
            hop_index = pick(path)
            if hop_index is None:
                Rewriter.erase_op(clone)
                continue
            kind = device.units[path.hops[hop_index].unit].kind
            if kind not in units:
                units.append(kind)
            Rewriter.replace_op(clone, _hop_transfer(path, hop_index, clone))
        ops = list(holder.ops)
        for op in ops:
            op.detach()
        return units, _strip(ops)

    in_depth = max((len(p.hops) for p in paths.values() if p.is_input), default=0)
    out_depth = max((len(p.hops) - 1 for p in paths.values() if not p.is_input), default=0)
    bodies: list[tuple[list[str], list[Operation]]] = []
    for distance in range(in_depth, 0, -1):
        bodies.append(stage_for(load, lambda p, d=distance: (len(p.hops) - d)
                                if p.is_input and len(p.hops) >= d else None))
    mapping = dict(fifo_map)
    bodies.append((comp.units, [op.clone(value_mapper=mapping) for op in comp.body.block.ops]))
    for distance in range(1, out_depth + 1):
        bodies.append(stage_for(store, lambda p, d=distance: d
                                if not p.is_input and len(p.hops) - 1 >= d else None))
    resources: list[Operation] = []
    for p in paths.values():
        resources += p.buffers
    resources += [p.fifo for p in paths.values()]
    return pipeline(resources, bodies, dict(pipe.attributes))


def _vector_geometry(comp: ktdf.StageOp) -> tuple[int, int, int]:
    """(rank, vector width, stick dim) of the compute stage's generic."""
    generic = next(op for op in comp.walk() if isinstance(op, GenericOp))
    ranges = generic.get_static_loop_ranges()
    return len(ranges), ranges[-1], len(ranges) - 1


@dataclass(frozen=True)
class ExpandPaths(ModulePass):
    """One stage per routed hop, staging buffers, FIFOs between adjacent units."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        for _, fn in list(programs(op)):
            for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)
                         and COMPUTE_ATTR in p.attributes]:
                Rewriter.replace_op(pipe, expand(pipe, device))
            refresh_units(fn)
