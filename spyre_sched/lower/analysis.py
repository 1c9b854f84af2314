"""What a solved ScheduleIR program holds, in the lowering's terms.

One pass over a program function: its views (where kernel tensors live and how they are
laid out), buffers (with their solved shapes and the pipeline that rotates them), FIFOs
(with the engines at both ends), which engine runs every transfer and compute op, and the
sync channels each pipeline needs. The per-engine emitter (`program_units.py`) reads this.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, func, scf, tensor
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerAttr, MemRefType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr

from spyre_sched.dialects import ktdf, ktdp
from spyre_sched.dialects.ktdf import MASKED_VIEW_ATTR
from spyre_sched.dialects.agen import box_bounds
from spyre_sched.device.routing import per_core_memory
from spyre_sched.errors import UnsupportedError
from spyre_sched.lower import runtime_shapes
from spyre_sched.lower import transfer_regions as tr
from spyre_sched.lower.addresses import Allocation
from spyre_sched.lower.units import EngineInfo, Units
from spyre_sched.lower.values import Form
from spyre_sched.schedule.common import constant_value


def element_bytes(element: Attribute) -> int:
    text = str(element)
    if "df16" in text:
        return 2
    width = getattr(element, "bitwidth", None)
    if width is None:
        width = getattr(getattr(element, "width", None), "data", None)
    if width is None:
        raise UnsupportedError(f"lowering: no byte size for element type {element}")
    return max(1, int(width) // 8)


def where(op: Operation) -> str:
    return f"op {op.name} in pass lower"


@dataclass
class ViewInfo:
    memory: str  # memory name for agen ops ("ddr", "lx", or absolute "core5.lx")
    offset: Form  # element offset of the view's origin
    strides: tuple[int, ...]
    minima: tuple[int, ...]
    element: Attribute
    element_bytes: int
    pinned: bool  # a ct_local view: the kernel's own scratchpad region
    maxima: tuple[int, ...] = ()
    op: ktdp.ConstructMemoryViewOp | None = None
    masked: bool = False
    """Some access tile sticks out of the view (`mark-masked-views`): its transfers carry
    the view's coordinate set as a run-time mask."""


@dataclass
class BufferInfo:
    op: ktdf.BufferOp
    pipeline: ktdf.PipelineOp
    name: str
    memory: str
    shape: tuple[int, ...]
    element: Attribute
    element_bytes: int
    slots: int
    alloc: Allocation | None = None

    @property
    def bytes(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n * self.element_bytes


@dataclass
class FifoInfo:
    name: str
    source: EngineInfo
    target: EngineInfo
    shape: tuple[int, ...]
    element: Attribute
    depth: int = 0
    phase: tuple[int, int] = (0, -1)  # ktdf.fifo_phase: FIFOs of other phases take turns
    chosen: int | None = None  # the solver's depth (`ktdf.depth`), else the even split
    op: Operation | None = None  # the `ktdf.fifo` (for messages)


@dataclass(frozen=True)
class SyncChannel:
    """Tokens between the engine writing a pipeline's buffers and the engine reading them."""

    name: str
    pipeline: int  # index of the pipeline in the program
    writer: str
    reader: str
    write_stage: int
    read_stage: int
    #: `free` tokens the reader starts with (None: one per copy of the pipeline's buffers)
    credits: int | None = None


@dataclass
class ProgramAnalysis:
    index: int
    func: func.FuncOp
    units: Units
    decisions: dict[str, int]
    views: dict[SSAValue, ViewInfo] = field(default_factory=dict)
    #: gather views (`ktdf.gather_view`), also in `views` as the view they gather from
    gathers: dict[SSAValue, ktdf.GatherViewOp] = field(default_factory=dict)
    buffers: dict[SSAValue, BufferInfo] = field(default_factory=dict)
    fifos: dict[SSAValue, FifoInfo] = field(default_factory=dict)
    engine_of: dict[Operation, EngineInfo] = field(default_factory=dict)
    engines: dict[str, EngineInfo] = field(default_factory=dict)
    engines_in: dict[Operation, frozenset[str]] = field(default_factory=dict)
    pipelines: list[ktdf.PipelineOp] = field(default_factory=list)
    channels: dict[int, list[SyncChannel]] = field(default_factory=dict)
    corelets: dict[str, int] = field(default_factory=dict)  # engine -> corelets used
    inner_instances: dict[ktdf.ParallelOp, int] = field(default_factory=dict)
    buffer_engines: dict[ktdf.PipelineOp, set[str]] = field(default_factory=dict)
    reuse: object | None = None  # lifetimes.ReusePlan: tokens for buffers sharing bytes
    base_env: dict[SSAValue, Form] = field(default_factory=dict)
    regions: object | None = None  # transfer_regions.RegionFinder, made when first needed
    index_form: object | None = None  # program_units.index_form (passed in: no import cycle)

    @property
    def name(self) -> str:
        return self.func.sym_name.data

    def pipeline_index(self, p: ktdf.PipelineOp) -> int:
        return self.pipelines.index(p)


# ---------------------------------------------------------------------------------------


def analyse(index: int, fn: func.FuncOp, units: Units, base_env: dict[SSAValue, Form],
            index_form=None) -> ProgramAnalysis:
    decisions = {}
    for name, op in ktdf.decision_ops(fn).items():
        value = ktdf.decision_value(op)
        assert value is not None
        decisions[name] = value
    pa = ProgramAnalysis(index, fn, units, decisions, base_env=base_env, index_form=index_form)
    for op in fn.walk():
        if isinstance(op, ktdp.ConstructMemoryViewOp):
            pa.views[op.result] = _view_info(op, units, base_env, fn)
        elif isinstance(op, ktdf.GatherViewOp):
            pa.views[op.result] = pa.views[op.source]
            pa.gathers[op.result] = op
        elif isinstance(op, ktdf.PipelineOp):
            pa.pipelines.append(op)
    for p in pa.pipelines:
        _pipeline_resources(pa, p)
    _classify(pa, fn)
    _instances(pa, fn, 1)
    # Every corelet engine of a program runs on as many corelets as the most split one:
    # a FIFO instance joins one unit to its neighbour in the same corelet, so a unit
    # only one compute uses (the matrix unit beside a load unit two computes split)
    # must be there on every corelet the load unit runs on (it repeats the instance's
    # work, as any engine with fewer instances than corelets does).
    if pa.corelets:
        widest = max(pa.corelets.values())
        for name in pa.corelets:
            pa.corelets[name] = widest
    pa.channels = _all_channels(pa)
    for v, buf in pa.buffers.items():
        for use in v.uses:
            engine = pa.engine_of.get(use.operation)
            if engine is not None:
                pa.buffer_engines.setdefault(buf.pipeline, set()).add(engine.name)
    return pa


def _view_info(op: ktdp.ConstructMemoryViewOp, units: Units, env: dict[SSAValue, Form],
               fn: func.FuncOp) -> ViewInfo:
    space = op.memory_space
    kind = space.space  # type: ignore[attr-defined]
    memory = units.memory_for_space(kind)
    tile = getattr(space, "tile", None)
    owners = op.attributes.get(ktdf.OWNER_BY_TILE_ATTR)
    if kind == "ct_local" and tile is not None and isinstance(owners, DenseArrayBase):
        # a different owner per reading core (an all-gather's step): named per core
        memory = per_core_memory([int(o) for o in owners.get_values()], memory)
    elif kind == "ct_local" and tile is not None:
        memory = f"{units.device.core(int(tile)).name}.{memory}"
    if op.sizes or op.strides:
        minima, maxima = runtime_shapes.view_bounds(op, env, fn, where(op))
        bounds = list(zip(minima, maxima)) if maxima else [(lo, None) for lo in minima]
    else:
        bounds = box_bounds(op.coordinate_set.data)
    if bounds is None:
        raise UnsupportedError("lowering: a view's coordinate set must have constant bounds", where(op))
    mtype = op.result.type
    assert isinstance(mtype, MemRefType)
    if op.offset not in env:
        raise UnsupportedError("lowering: a view's offset must be computed before any loop", where(op))
    return ViewInfo(
        memory=memory,
        offset=env[op.offset],
        strides=tuple(int(s) for s in op.static_strides.get_values()),
        minima=tuple(lo for lo, _ in bounds),
        element=mtype.element_type,
        element_bytes=element_bytes(mtype.element_type),
        pinned=kind == "ct_local",
        maxima=tuple(hi for _, hi in bounds) if all(hi is not None for _, hi in bounds) else (),
        op=op,
        masked=MASKED_VIEW_ATTR in op.attributes,
    )


def _pipeline_resources(pa: ProgramAnalysis, p: ktdf.PipelineOp) -> None:
    private = p.private
    if private is None:
        return
    slots = p.modulo_value
    yielded = list(private.body.block.last_op.operands)  # type: ignore[union-attr]
    for inner, outer in zip(yielded, private.res):
        maker = inner.owner
        if isinstance(maker, ktdf.BufferOp):
            tile_dims = [pa.decisions[d] if isinstance(d, str) else int(d)
                         for d in maker.tile_dim_values()]
            mtype = maker.result.type
            assert isinstance(mtype, MemRefType)
            # The buffer's dims are the access map's results: a dim the map drops (a
            # broadcast operand) takes no space.
            shape = []
            for i, (expr, static) in enumerate(zip(maker.access_map.data.results, mtype.get_shape())):
                if static > 0:
                    shape.append(static)
                elif isinstance(expr, AffineDimExpr):
                    shape.append(tile_dims[expr.position])
                else:
                    raise UnsupportedError("lowering: a buffer whose access map is not a "
                                           "projection of the tile dims", where(maker))
            name = f"p{pa.index}_{maker.operand.data}_{len(pa.buffers)}"
            pa.buffers[outer] = BufferInfo(
                maker, p, name, pa.units.memory_of_kind(maker.memory), tuple(shape),
                mtype.element_type, element_bytes(mtype.element_type), slots)
        elif isinstance(maker, ktdf.FifoOp):
            slot = maker.result.type
            assert isinstance(slot, ktdf.FifoSlotType)
            what = f"FIFO {slot}"
            src = pa.units.engine_of_kind(slot.source.data, what)
            dst = pa.units.engine_of_kind(slot.dest.data, what)
            hint = outer.name_hint or maker.result.name_hint or "f"
            chosen = maker.attributes.get(ktdf.FIFO_DEPTH_ATTR)
            pa.fifos[outer] = FifoInfo(f"p{pa.index}_{hint}_{len(pa.fifos)}", src, dst,
                                       slot.get_shape(), slot.element_type,
                                       phase=ktdf.fifo_phase(maker),
                                       chosen=chosen.value.data
                                       if isinstance(chosen, IntegerAttr) else None,
                                       op=maker)


def _endpoint_memory(pa: ProgramAnalysis, value: SSAValue) -> str | None:
    if value in pa.views:
        return pa.views[value].memory
    if value in pa.buffers:
        return pa.buffers[value].memory
    return None


def _stage_engine(pa: ProgramAnalysis, stage: ktdf.StageOp) -> EngineInfo | None:
    kinds = stage.units
    if len(kinds) != 1:
        return None
    return pa.units.engine_of_kind(kinds[0], f"stage {kinds}") if kinds[0] != "dma" else None


def _classify(pa: ProgramAnalysis, fn: func.FuncOp) -> None:
    def visit(op: Operation, stage_engine: EngineInfo | None) -> frozenset[str]:
        found: set[str] = set()
        engine: EngineInfo | None = None
        if isinstance(op, ktdf.DataTransferOp):
            engine = _transfer_engine(pa, op)
        elif isinstance(op, ktdf.ReadFromFifoOp):
            engine = pa.fifos[op.slot].target if op.slot in pa.fifos else None
        elif isinstance(op, ktdf.WriteToFifoOp):
            engine = pa.fifos[op.slot].source if op.slot in pa.fifos else None
        elif isinstance(op, linalg.GenericOp | linalg.FillOp | tensor.EmptyOp) or (
                _is_tensor_op(op)):
            engine = stage_engine
            if engine is None:
                raise UnsupportedError("lowering: compute outside a single-unit stage", where(op))
        if engine is not None:
            pa.engine_of[op] = engine
            pa.engines.setdefault(engine.name, engine)
            found.add(engine.name)
        for region in op.regions:
            for block in region.blocks:
                for child in block.ops:
                    inner = stage_engine
                    if isinstance(child, ktdf.StageOp):
                        inner = _stage_engine(pa, child)
                    if isinstance(op, linalg.GenericOp):
                        continue  # the scalar body belongs to the generic
                    found |= visit(child, inner)
        pa.engines_in[op] = frozenset(found)
        return pa.engines_in[op]

    visit(fn, None)


def _is_tensor_op(op: Operation) -> bool:
    return any(isinstance(r.type, TensorType) for r in op.results) and not isinstance(
        op, ktdf.ReadFromFifoOp)


def _transfer_engine(pa: ProgramAnalysis, op: ktdf.DataTransferOp) -> EngineInfo:
    src_mem = _endpoint_memory(pa, op.source)
    dst_mem = _endpoint_memory(pa, op.dest)
    if src_mem is not None and dst_mem is not None:
        return pa.units.engine_for_route(src_mem, dst_mem, f"transfer at {op.name}")
    if src_mem is not None and op.dest in pa.fifos:
        return pa.fifos[op.dest].source
    if dst_mem is not None and op.source in pa.fifos:
        return pa.fifos[op.source].target
    raise UnsupportedError("lowering: a transfer endpoint is neither a kernel view, a buffer nor a FIFO", where(op))


def _pipelines_above(op: Operation) -> list[tuple[ktdf.PipelineOp, int]]:
    """(pipeline, index of the stage holding `op`) for every pipeline around `op`, inner first."""
    found = []
    cur: Operation | None = op
    while cur is not None:
        parent = cur.parent_op()
        if isinstance(parent, ktdf.PipelineOp) and isinstance(cur, ktdf.StageOp):
            found.append((parent, parent.stages.index(cur)))
        cur = parent
    return found


def _all_channels(pa: ProgramAnalysis) -> dict[int, list[SyncChannel]]:
    """Writer -> reader token channels. Every buffer or kernel view written by one engine
    and read by another in the same program is ordered by the innermost pipeline whose
    stages separate the write from the read: the writer's stage signals `full` to the
    reader's, the reader's signals `free` back. A pair no pipeline orders is an error
    (it would be a race on the device)."""
    writes: dict[SSAValue, list[Operation]] = {}
    reads: dict[SSAValue, list[Operation]] = {}
    for op in pa.func.walk():
        if isinstance(op, ktdf.DataTransferOp):
            if op.dest in pa.buffers or op.dest in pa.views:
                writes.setdefault(op.dest, []).append(op)
            if op.source in pa.buffers or op.source in pa.views:
                reads.setdefault(op.source, []).append(op)
    pairs: dict[tuple[int, str, str, int, int], int | None] = {}
    for written, writers in writes.items():
        for read, readers in reads.items():
            # Different SSA values may name the same bytes (two views of one pinned
            # region, or of one tensor): the pair is keyed by storage, not by value.
            if not _may_alias(pa, written, read):
                continue
            for w_op in writers:
                for r_op in readers:
                    _order_pair(pa, pairs, written, w_op, r_op, read)
    channels: dict[int, list[SyncChannel]] = {}
    several = {}
    for (index, w, r, ws, rs) in pairs:
        several[(index, w, r)] = several.get((index, w, r), 0) + 1
    for (index, w, r, ws, rs) in pairs:
        # one channel per stage pair; the stages are named only when an engine pair
        # exchanges data in several stage pairs of the pipeline
        name = (f"pl{pa.index}_{index}_{w}_to_{r}" if several[(index, w, r)] == 1 else
                f"pl{pa.index}_{index}_s{ws}_{w}_to_s{rs}_{r}")
        channels.setdefault(index, []).append(SyncChannel(name, index, w, r, ws, rs,
                                                          pairs[(index, w, r, ws, rs)]))
    return channels


#: `_by_regions` verdicts: the read is in an earlier stage than the write and that order
#: covers every pair; BOX_BY_BOX too when both touch the same box in every iteration;
#: READ_BACK: a buffer of one copy that the pipeline reads and rewrites, the same boxes
#: again in later rounds of the point loops around it (a K-chunked matmul's sums)
IN_PLACE = "in place"
IN_PLACE_BOX_BY_BOX = "in place, box by box"
READ_BACK = "read back"


def _order_pair(pa: ProgramAnalysis, pairs: dict, resource: SSAValue, w_op: Operation,
                r_op: Operation, read: SSAValue | None = None) -> None:
    """Record the stage pair that orders the write `w_op` before the read `r_op`; or, for
    a read in an earlier stage than the write of the elements it reads (a tile stored
    back in place), the pair that orders the read before the write."""
    w, r = pa.engine_of[w_op].name, pa.engine_of[r_op].name
    what = resource.name_hint or "a buffer"
    if w == r:
        # Several instances of one engine (corelets splitting a loop) are not ordered by
        # anything the lowering emits, so one instance could read what another writes
        # before it lands.
        if pa.engine_of[w_op].level == "corelet" and pa.corelets.get(w, 1) > 1:
            raise UnsupportedError(
                f"lowering: {w} writes {what} and {w} reads it on {pa.corelets[w]} corelets; "
                "no sync orders one instance's write before another's read", where(r_op))
        # One instance issues its ops in program order, but a transfer's data lands its
        # route's latency after the issue, and the next transfer reads its source when
        # issued: an engine that moves data into a buffer and then out of it (a device
        # with one DMA engine each way) is ordered by a token between its own stages
        # (a sync is delivered once the sender's earlier transfers have landed). A view
        # naming a core (another core's buffer, read over the ring) is ordered by the
        # program boundary or the exchange that made it, not here.
        if _names_a_core(pa, resource) or (read is not None and _names_a_core(pa, read)):
            return
    w_stages = dict(_pipelines_above(w_op))
    ordered = None
    for p, r_stage in _pipelines_above(r_op):
        if p in w_stages and w_stages[p] != r_stage:
            ordered = (p, w_stages[p], r_stage)
            break
    if ordered is not None and ordered[1] > ordered[2] and resource in pa.gathers:
        # An in-place update through an indirect tile (gather, compute, scatter back):
        # each box is read before it is written (the stages between carry its data), and
        # other boxes hold other rows, since a store's indices are distinct (checked when
        # the scatter runs).
        return
    if ordered is None or ordered[1] > ordered[2]:
        verdict = _by_regions(pa, resource, read, w_op, r_op, ordered)
        if verdict == "apart":
            return
        if verdict in (IN_PLACE, IN_PLACE_BOX_BY_BOX, READ_BACK) and ordered is not None:
            p, ws, rs = ordered
            if verdict == IN_PLACE_BOX_BY_BOX and _fifos_carry(pa, p, r_op, w_op):
                # each iteration's write gets its data from that iteration's read through
                # the pipeline's FIFOs: it cannot land first, and other iterations touch
                # other boxes, so a token would only keep the read of the next box waiting
                return
            key = (pa.pipeline_index(p), r, w, rs, ws)
            credits = None
            if verdict == READ_BACK:
                # the read of an iteration waits only for the write as many iterations
                # back as the point loops around the pipeline run per round (a chunked
                # matmul: the same block in the previous chunk)
                credits = min(_iterations_per_round(p), pairs.get(key) or 1 << 30)
            pairs[key] = credits
            return
        reads = "it"
        if read is not None and read is not resource:
            reads = (f"{read.name_hint or 'a buffer'}, whose memory may overlap it (views "
                     "at addresses whose ranges can meet, for some run-time size too)")
        raise UnsupportedError(
            f"lowering: {w} writes {what} and {r} reads {reads}, but no pipeline stage "
            "orders the two", where(r_op))
    p, ws, rs = ordered
    pairs[(pa.pipeline_index(p), w, r, ws, rs)] = None


def _iterations_per_round(pipe: ktdf.PipelineOp) -> int:
    """The fewest iterations of `pipe` any instance runs (if it runs any) in one run of
    the point loops between `pipe` and the stage holding them, over every tile; 1 when a
    bound is not a constant or a tile's size."""
    count = 1
    parent = pipe.parent_op()
    while not isinstance(parent, ktdf.StageOp):
        if isinstance(parent, ktdf.ParallelOp) and len(parent.induction_vars) == 1:
            n = parent.num_instances.value.data \
                if isinstance(parent.num_instances, IntegerAttr) else 1
            bounds = (parent.lower_bounds[0], parent.upper_bounds[0], parent.steps[0])
        elif isinstance(parent, scf.ForOp) and not parent.iter_args:
            n, bounds = 1, (parent.lb, parent.ub, parent.step)
        else:
            return 1
        lb, step = constant_value(bounds[0]), constant_value(bounds[2])
        uppers = _tile_extents(bounds[1])
        if lb is None or not step or uppers is None:
            return 1
        fewest = [_fewest_each(-(-(u - lb) // step), n) for u in uppers if u > lb]
        count *= min(fewest, default=1)
        parent = parent.parent_op()
        if parent is None:
            return 1
    return max(count, 1)


def _tile_extents(value: SSAValue) -> set[int] | None:
    """The values `value` takes: a constant, or a tile's size (`derive_size` of a solved
    tile over a constant extent: the full tile and the last one)."""
    const = constant_value(value)
    if const is not None:
        return {const}
    owner = value.owner
    if not isinstance(owner, ktdf.DeriveSizeOp):
        return None
    extent = constant_value(owner.upper_bound)
    size = constant_value(owner.size)
    if size is None and isinstance(owner.size.owner, ktdf.ReserveSizeOp):
        size = ktdf.decision_value(owner.size.owner)  # (the lowering reads solved IR)
    if extent is None or not size:
        return None
    return {min(size, extent), extent - size * (-(-extent // size) - 1)}


def _fewest_each(trips: int, n: int) -> int:
    """The fewest of `trips` iterations split in contiguous blocks over `n` instances
    that a busy instance gets (as `visit_parallel` splits them)."""
    block = -(-trips // max(n, 1))
    busy = -(-trips // block)
    return trips - (busy - 1) * block


def _fifos_carry(pa: ProgramAnalysis, pipe: ktdf.PipelineOp, r_op: Operation,
                 w_op: Operation) -> bool:
    """Whether data flows from transfer `r_op` to transfer `w_op` through FIFOs of `pipe`'s
    stages: `r_op` fills a FIFO, and following each stage that takes from a reached FIFO to
    the FIFOs it fills reaches the one `w_op` drains."""
    if not isinstance(r_op, ktdf.DataTransferOp) or not isinstance(w_op, ktdf.DataTransferOp) \
            or r_op.dest not in pa.fifos or w_op.source not in pa.fifos:
        return False
    reached = {r_op.dest}
    for stage in pipe.stages:
        takes, fills = set(), set()
        for op in stage.walk():
            if isinstance(op, ktdf.ReadFromFifoOp):
                takes.add(op.slot)
            elif isinstance(op, ktdf.WriteToFifoOp):
                fills.add(op.slot)
            elif isinstance(op, ktdf.DataTransferOp):
                if op.source in pa.fifos:
                    takes.add(op.source)
                if op.dest in pa.fifos:
                    fills.add(op.dest)
        if takes & reached:
            reached |= fills
    return w_op.source in reached


def _names_a_core(pa: ProgramAnalysis, value: SSAValue) -> bool:
    """A kernel view of a named core's memory (`core5.lx`, or per core: `cores[...]`)."""
    view = pa.views.get(value)
    return view is not None and "." in view.memory


def _by_regions(pa: ProgramAnalysis, written: SSAValue, read: SSAValue | None,
                w_op: Operation, r_op: Operation, ordered) -> str | None:
    """What the transfers touch decides a pair the views' extents could not:
    "apart" when on no core the write touches a byte the read touches; "in place" when
    the read is in an earlier stage of `ordered`'s pipeline than the write and every
    iteration of that pipeline reads and writes its own box (or it runs once), so
    ordering the read's stage before the write's orders every pair ("in place, box by box"
    when the two touch the same box in every iteration); else None."""
    if read is written and written in pa.buffers and ordered is not None \
            and ordered[1] > ordered[2] and ordered[0].modulo_value <= 1:
        # a buffer read back and rewritten by one pipeline of one copy (a chunked
        # matmul's sums: read before each chunk, stored after it): the token pair orders
        # each iteration's read before its write and its write before the next one's
        # read, whatever boxes they touch
        return READ_BACK
    if read is None or pa.index_form is None or written not in pa.views \
            or read not in pa.views:
        return None
    if not isinstance(w_op, ktdf.DataTransferOp) or not isinstance(r_op, ktdf.DataTransferOp):
        return None
    if pa.regions is None:
        pa.regions = tr.RegionFinder(pa.func, pa.base_env, pa.units.num_tiles, pa.index_form)
    finder = pa.regions
    assert isinstance(finder, tr.RegionFinder)
    wr, rr = finder.region(w_op, written), finder.region(r_op, read)
    if wr is None or rr is None:
        return None
    vw, vr = pa.views[written], pa.views[read]
    diff = vr.offset.scale(vr.element_bytes) - vw.offset.scale(vw.element_bytes)
    if not diff.terms:
        apart = True
        for core in range(pa.units.num_tiles):
            bw, br = _region_bytes(vw, wr.box_on(core)), _region_bytes(vr, rr.box_on(core))
            if bw is None or br is None:
                apart = False
                break
            d = diff.const_at(core)
            if br[0] + d < bw[1] and bw[0] < br[1] + d:
                apart = False
                break
        if apart:
            return "apart"
    if ordered is None or ordered[1] < ordered[2]:
        return None
    same_bytes = vw.offset == vr.offset and vw.strides == vr.strides \
        and vw.element_bytes == vr.element_bytes and vw.memory == vr.memory
    if not same_bytes:
        return None
    pipeline = ordered[0]
    around = tr.counters_around(pipeline, pa.func)
    same = wr.offsets == rr.offsets and wr.sizes == rr.sizes
    if not any(c not in finder.counters or finder.counters[c][0] != finder.counters[c][1]
               for c in around):
        # the pipeline runs once: its stages order all of it
        return IN_PLACE_BOX_BY_BOX if same else IN_PLACE
    if same and tr.own_box_each_iteration(wr, around):
        return IN_PLACE_BOX_BY_BOX
    return None


def _region_bytes(view: ViewInfo, box) -> tuple[int, int] | None:
    """[lo, hi) bytes of a box of `view`'s coordinates, relative to its origin."""
    if box is None or len(box) != len(view.strides):
        return None
    lo = hi = 0
    for s, (mn, mx) in zip(view.strides, box):
        lo += min(s * mn, s * mx)
        hi += max(s * mn, s * mx)
    return lo * view.element_bytes, (hi + 1) * view.element_bytes


def _may_alias(pa: ProgramAnalysis, a: SSAValue, b: SSAValue) -> bool:
    """Whether two transfer endpoints (buffers or kernel views) may share bytes.

    Buffers are separate allocations (the allocator keeps them apart and out of pinned
    regions). Views share bytes when they are in the same memory and their byte ranges
    overlap; views whose origins differ by kernel arguments are distinct tensors (the
    kernel's pointer arguments do not overlap). When the lowering cannot tell, they alias."""
    if a is b:
        return True
    if a in pa.buffers or b in pa.buffers:
        return False
    va, vb = pa.views[a], pa.views[b]
    if va.memory.split(".")[-1] != vb.memory.split(".")[-1]:
        return False
    if va.memory != vb.memory and "." in va.memory and "." in vb.memory:
        return False  # two different cores' scratchpads, both named absolutely
    # the same memory, or one named relative to the executing core and one absolutely
    # (the same scratchpad on one core): their byte ranges decide
    start_a = va.offset.scale(va.element_bytes)
    start_b = vb.offset.scale(vb.element_bytes)
    diff = start_b - start_a
    if diff.terms:
        return (start_a.arg_terms() == start_b.arg_terms())  # run-time parts: unknown
    lo_a, hi_a = _byte_extent(va)
    lo_b, hi_b = _byte_extent(vb)
    consts = diff.const if isinstance(diff.const, tuple) else (diff.const,)
    # b's range shifted by the (per-core) distance between the origins
    return any(lo_b + d < hi_a and lo_a < hi_b + d for d in consts)


def _byte_extent(view: ViewInfo) -> tuple[int, int]:
    """[lo, hi) bytes of a view's bounding box, relative to its origin."""
    if not view.maxima:
        return (-(1 << 62), 1 << 62)
    lo = hi = 0
    for s, mn, mx in zip(view.strides, view.minima, view.maxima):
        lo += min(s * mn, s * mx)
        hi += max(s * mn, s * mx)
    return lo * view.element_bytes, (hi + 1) * view.element_bytes


def _instances(pa: ProgramAnalysis, op: Operation, outer: int) -> int:
    """Record, per engine, how many corelets its work is split over, and per parallel op
    the product of the instance counts of the parallels nested inside it."""
    inside = 1
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                if isinstance(child, ktdf.ParallelOp):
                    n = child.num_instances.value.data if isinstance(child.num_instances, IntegerAttr) else 1
                    deeper = _instances(pa, child, outer * n)
                    pa.inner_instances[child] = deeper
                    inside = max(inside, n * deeper)
                else:
                    inside = max(inside, _instances(pa, child, outer))
    if op in pa.engine_of:
        engine = pa.engine_of[op]
        if engine.level == "corelet":
            pa.corelets[engine.name] = max(pa.corelets.get(engine.name, 1), outer)
    return inside


INDEX = IndexType()

# Ops whose results are plain index arithmetic (evaluated as affine forms).
INDEX_OPS = (arith.ConstantOp, arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.DivUIOp,
             arith.DivSIOp, arith.RemUIOp, arith.RemSIOp, arith.FloorDivSIOp, arith.MinUIOp,
             arith.MinSIOp, arith.MaxUIOp, arith.MaxSIOp, arith.CeilDivUIOp, arith.CeilDivSIOp)

__all__ = ["analyse", "ProgramAnalysis", "ViewInfo", "BufferInfo", "FifoInfo", "SyncChannel",
           "element_bytes", "INDEX_OPS", "scf"]
