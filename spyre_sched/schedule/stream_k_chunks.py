"""Pass 8e, stream-k-chunks: a matmul's K streamed in chunks inside its tile pipeline.

After hoist-inner-invariants a matmul's tile nest fetches the row tile of A once per row
tile (an outer pipeline around the column loop) and, per output tile, a whole-K panel of
B. When the row tile's whole extent (the tile that reads every panel once) does not fit
beside even the narrowest panel, the tile pipeline's tiles shrink and every panel is
fetched again for each row tile: the down projection of an FFN at an LLM's width, H @ Wd
with 64 x 11008 f16 rows of H (1.4 MiB) and 11008 x 64 panels of Wd (1.4 MiB) on a 2 MiB
scratchpad, reads Wd three times with 24-row tiles, and device memory sets the pace.

Here such a tile pipeline streams the panel in K chunks instead, the output tile's
partial sums staying in its f32 scratchpad buffer between chunks:

    pipeline modulo(?) {                                  // per output tile, as before
      private { C tile, s tile (f32 sums) }               // B's whole-K panel is gone
      stage [load, systolic, store]:
        (every block of s := 0)                           // ktdf.accumulator_init compute
        %K2 = ktdf.tiling.reserve_size {decision = "p0.tile.lx.d2", extent = K, ...}
        scf.for %k = 0 to K step %K2 {reduction_loop} {
          %m = ktdf.tiling.derive_size %k, %K2, K
          pipeline modulo(?, decision = "p0.pipe.lx.d2.modulo") {
            private { B chunk [%m x T1] }
            stage [dma]: B[%k, t1] size [%m, n1] -> B chunk
            stage [load, systolic, store]: for each block:
              load: s block -> FIFO; A[p0, %k + kk], B chunk[kk, p1] -> FIFOs (kk < %m)
              systolic: acc = the s block from the FIFO; acc += A x B over the chunk
              store: acc -> s block } }
      ... (the epilogue reading s, the C drain, as before) }

The chunk is a tile decision of the reduction dim (one chunk, the whole K, is legal) and
the chunk pipeline's depth another: the solver sizes both against the scratchpad, so the
next chunk's DMA overlaps this chunk's products and the row tile can stay whole. Every
term reaches each sum in the same order and type as unchunked (K ascending, one
`vectorchain.matmul` per 32-deep step into the f32 accumulator); a sum leaves the matrix
unit between chunks as f32 and returns unchanged, so the result is bit-identical.

Done only when exact and when it is the trouble above: the compute is a matmul on the
matrix unit (load -> matrix -> store, its accumulator initialised by `linalg.fill` and
stored whole into a buffer of the tile pipeline), the panel is an input buffer of the
tile pipeline holding the whole K, read by that compute's loads and nothing else, and
the program's buffers need more than a core's scratchpad with the outer pipelines' held
tiles at their largest and every other tile at its smallest. A tile pipeline running
several such matmuls (an FFN's gate = X @ Wg and up = X @ Wu, each after its panel's
fill) streams them all, in chunks of one decision: their panels cover the same K beside
the same row tile, and a decision each multiplies the solver's combinations (a 70B
model's FFN did not solve in 20 minutes with two); each keeps its own chunk pipeline's
depth and zeroing stage. chunk-reductions asks `stream_program` on a copy whether this
makes a program fit before it chunks the K loops itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.device import Device
from spyre_sched.dialects import ktdf
from spyre_sched.dialects.linalg_matmul import matmul_dims
from spyre_sched.schedule.common import (
    DIM_ATTR,
    PINNED_ATTR,
    constant_value,
    device_of,
    element_bytes,
    index_constant,
    programs,
)
from spyre_sched.schedule.chunk_loop import chunk_granule, chunk_positions
from spyre_sched.schedule.footprints import buffer_elements
from spyre_sched.schedule.hoist_inner import OUTER_FETCH_ATTR
from spyre_sched.schedule.ir_build import (
    add_resource,
    drop_resources,
    drop_stage,
    erase_dead,
    insert_stage_before,
    loop_dim,
    pipeline,
    rebuild,
    refresh_units,
)
from spyre_sched.schedule.naive_pipeline import COMPUTE_ATTR

NAME = "stream-k-chunks"
#: marks the compute that zeroes a chunked matmul's sums before its first chunk
ACCUMULATOR_INIT_ATTR = "ktdf.accumulator_init"


@dataclass
class _Matmul:
    """A tile pipeline whose compute reads a whole-K panel, and its parts."""

    tile: ktdf.PipelineOp  # the tile pipeline (one output tile per iteration)
    middle: ktdf.StageOp  # its stage running the point loops around the compute
    compute: ktdf.PipelineOp  # load -> matrix -> store
    panel: SSAValue  # the whole-K input buffer (B)
    panel_op: ktdf.BufferOp
    fill: ktdf.DataTransferOp  # the tile pipeline's DMA of the panel
    loads: scf.ForOp  # the load stage's loop over K
    sums: scf.ForOp  # the matrix stage's loop over K, carrying the accumulator
    write: ktdf.DataTransferOp  # the store stage's transfer of it into the sums buffer
    dim: int  # the reduction dim
    extent: int  # K
    step: int  # the reduction loops' step (one matrix instruction's depth)


@dataclass(frozen=True)
class StreamKChunks(ModulePass):
    """Stream a matmul's whole-K panel in chunks when it crowds out the held row tile."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device = device_of(op, NAME)
        for _, fn in programs(op):
            stream_program(fn, device)


def stream_program(fn: FuncOp, device: Device) -> int:
    """Stream the whole-K panels of every crowded tile pipeline of `fn` (each matmul of
    it reading a panel of its own: an FFN's gate and up fused in one tile pipeline);
    returns how many matmuls were streamed."""
    streamed = 0
    for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)]:
        found = _describe(pipe)
        if found is None or not _crowded(fn, device, found):
            continue
        # one chunk for all of them: their panels cover the same K beside the same row tile
        # (a decision each would multiply the solver's combinations for little: the
        # chunk pipelines' depths stay their own)
        reserve, extent = None, (found.extent, found.step)
        while found is not None and (found.extent, found.step) == extent:
            reserve = _stream(found, reserve)
            streamed += 1
            # each rewrite rebuilds the tile pipeline's private: the next one is found anew
            found = _describe(pipe, streaming=True)
    if streamed:
        refresh_units(fn)
    return streamed


# ---------------------------------------------------------------------------------------
# Recognising the form
# ---------------------------------------------------------------------------------------


def _buffers(pipe: ktdf.PipelineOp) -> dict[SSAValue, ktdf.BufferOp]:
    private = pipe.private
    if private is None:
        return {}
    return {r: b for r, b in zip(private.res, private.body.block.ops)
            if isinstance(b, ktdf.BufferOp)}


def _describe(pipe: ktdf.PipelineOp, streaming: bool = False) -> _Matmul | None:
    """The first matmul of tile pipeline `pipe` that reads a whole-K panel of its own
    (`streaming`: some of its matmuls are streamed already, which opened its depth)."""
    if COMPUTE_ATTR in pipe.attributes or OUTER_FETCH_ATTR in pipe.attributes \
            or (pipe.modulo is not None and not streaming):
        return None
    loop = pipe.parent_op()
    if not isinstance(loop, scf.ForOp) or loop_dim(loop) is None \
            or ktdf.is_reduction_loop(loop) \
            or not isinstance(loop.step.owner, ktdf.ReserveSizeOp):
        return None
    computes = [p for p in pipe.walk() if isinstance(p, ktdf.PipelineOp)
                and COMPUTE_ATTR in p.attributes]
    buffers = _buffers(pipe)
    return next((m for m in (_matmul_reading_panel(pipe, c, buffers) for c in computes)
                 if m is not None), None)


def _matmul_reading_panel(pipe: ktdf.PipelineOp, compute: ktdf.PipelineOp,
                          buffers: dict[SSAValue, ktdf.BufferOp]) -> _Matmul | None:
    stages = compute.stages
    if len(stages) != 3:
        return None
    load, matrix, store = stages
    generics = [g for g in matrix.walk() if isinstance(g, GenericOp)]
    if len(generics) != 1 or matmul_dims(generics[0]) is None:
        return None
    middle = next((s for s in pipe.stages if s.is_ancestor(compute)), None)
    if middle is None or not _point_nest(middle, compute):
        return None
    reductions = [lp for lp in load.walk() if isinstance(lp, scf.ForOp)
                  and ktdf.is_reduction_loop(lp)]
    carried = [lp for lp in matrix.walk() if isinstance(lp, scf.ForOp)
               and ktdf.is_reduction_loop(lp)]
    if len(reductions) != 1 or len(carried) != 1 or len(carried[0].iter_args) != 1:
        return None
    dim, extent = loop_dim(reductions[0]), constant_value(reductions[0].ub)
    step = constant_value(reductions[0].step)
    if dim is None or extent is None or step is None or loop_dim(carried[0]) != dim \
            or constant_value(carried[0].ub) != extent \
            or constant_value(carried[0].lb) != 0 or constant_value(reductions[0].lb) != 0:
        return None
    init = carried[0].iter_args[0].owner
    if not isinstance(init, FillOp):
        return None
    # the panel: a whole-K input buffer of the tile pipeline that this compute's loads
    # read along K, read by nothing else
    read_here = {t.source for t in reductions[0].walk() if isinstance(t, ktdf.DataTransferOp)}
    panels = []
    for value, buffer in buffers.items():
        dims = buffer.tile_dim_values()
        used = {r.position for r in buffer.access_map.data.results}  # type: ignore[attr-defined]
        if buffer.role.data == "input" and value in read_here and dim in used \
                and dim < len(dims) and dims[dim] == extent:
            panels.append(value)
    if len(panels) != 1:
        return None
    panel = panels[0]
    users = [u.operation for u in panel.uses]
    fills = [u for u in users if isinstance(u, ktdf.DataTransferOp) and u.dest is panel]
    reads = [u for u in users if isinstance(u, ktdf.DataTransferOp) and u.source is panel]
    if len(fills) != 1 or len(fills) + len(reads) != len(users) \
            or any(not reductions[0].is_ancestor(r) for r in reads):
        return None
    if any(s is middle or not s.is_ancestor(fills[0]) for s in pipe.stages
           if s.is_ancestor(fills[0])):
        return None
    # the store stage: the whole accumulator into a buffer of the tile pipeline
    writes = [t for t in store.walk() if isinstance(t, ktdf.DataTransferOp)]
    if len(writes) != 1 or writes[0].dest not in buffers:
        return None
    if buffers[writes[0].dest].role.data != "intermediate":
        return None
    return _Matmul(pipe, middle, compute, panel, buffers[panel], fills[0], reductions[0],
                   carried[0], writes[0], dim, extent, step)


def _point_nest(middle: ktdf.StageOp, compute: ktdf.PipelineOp) -> bool:
    """The middle stage is a perfect nest of point loops around the compute."""
    body = [o for o in middle.body.block.ops]
    node: Operation = compute
    parent = compute.parent_op()
    while parent is not middle:
        if not isinstance(parent, scf.ForOp) or ktdf.is_reduction_loop(parent) \
                or parent.iter_args:
            return False
        node, parent = parent, parent.parent_op()
    return len(body) == 1 and body[0] is node


# ---------------------------------------------------------------------------------------
# When it is worth it
# ---------------------------------------------------------------------------------------


def _crowded(fn: FuncOp, device: Device, m: _Matmul) -> bool:
    """Whether the program's buffers overflow a core's memory of the panel's kind with the
    held tiles of the outer pipelines around the tile pipeline at their largest and every
    other tile decision at its smallest (so the unchunked form shrinks the held tile)."""
    decisions = ktdf.decision_ops(fn)
    held = set()
    parent = m.tile.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        if isinstance(parent, ktdf.PipelineOp) and OUTER_FETCH_ATTR in parent.attributes:
            held |= set(_buffers(parent).values())
        parent = parent.parent_op()
    if not held:
        return False
    kind = m.panel_op.memory
    need = 0
    for buffer in [b for b in fn.walk() if isinstance(b, ktdf.BufferOp)]:
        if buffer.memory != kind:
            continue
        pick = "max" if buffer in held else "min"
        need += buffer_elements(buffer, decisions, pick) * element_bytes(
            buffer.result.type.element_type)
    pinned = fn.attributes.get(PINNED_ATTR)
    if pinned is not None and kind == device.memory_kind_for("ct_local"):
        need += pinned.value.data  # type: ignore[attr-defined]
    memories = device.memories_of_kind(kind, device.core(0)) or device.memories_of_kind(kind)
    return bool(memories) and need > memories[0].size


# ---------------------------------------------------------------------------------------
# The rewrite
# ---------------------------------------------------------------------------------------


def _stream(m: _Matmul, reserve: ktdf.ReserveSizeOp | None) -> ktdf.ReserveSizeOp:
    """Stream `m`'s panel in chunks of `reserve`'s size (made here, for the tile
    pipeline's first matmul: its chunk decision); returns the chunk's reserve."""
    prefix = m.compute.attributes[COMPUTE_ATTR].data  # type: ignore[attr-defined]
    kind = m.panel_op.memory.lower()
    if reserve is None:
        granule = chunk_granule(m.step, m.extent)
        reserve = ktdf.ReserveSizeOp(f"{prefix}.tile.{kind}.d{m.dim}", m.extent, granule,
                                     granule)
        reserve.result.name_hint = f"K{m.dim}"
        tile_loop = m.tile.parent_op()
        assert isinstance(tile_loop, scf.ForOp)
        Rewriter.insert_op(reserve, InsertPoint.after(tile_loop.step.owner))  # type: ignore[arg-type]
    # the tile pipeline's depth keeps the name open-decisions would give it (by its first
    # compute, when it runs several)
    if m.tile.modulo is None:
        m.tile.modulo = ktdf.OpenAttr()
        m.tile.decision = StringAttr(f"{prefix}.pipe.{kind}.modulo")

    nest = m.middle.body.block.first_op
    assert nest is not None
    zero_nest = _zero_nest(nest, prefix)
    zero, whole = index_constant(0), index_constant(m.extent)
    zero.result.name_hint, whole.result.name_hint = "c0", f"c{m.extent}"

    block = Block(arg_types=[reserve.result.type])
    start = block.args[0]
    start.name_hint = f"k{m.dim}"
    size = ktdf.DeriveSizeOp(start, reserve.result, whole.result)
    size.result.name_hint = f"m{m.dim}"
    chunk = _chunk_buffer(m, reserve.decision.data)
    fill_ops = _chunk_fill(m, chunk.result, start, size.result)
    _read_sums(m, size.result, start, chunk.result)
    nest.detach()
    fill_stage = next(s for s in m.tile.stages if s.is_ancestor(m.fill))
    chunk_pipe = pipeline([chunk], [(fill_stage.units, fill_ops), (m.middle.units, [nest])])
    chunk_pipe.modulo = ktdf.OpenAttr()
    chunk_pipe.decision = StringAttr(f"{prefix}.pipe.{kind}.d{m.dim}.modulo")
    block.add_ops([size, chunk_pipe, scf.YieldOp()])
    loop = scf.ForOp(zero.result, whole.result, reserve.result, [], Region([block]))
    loop.attributes[ktdf.LOOP_TYPE_ATTR] = ktdf.LoopTypeAttr(ktdf.LoopType.REDUCTION)
    loop.attributes[DIM_ATTR] = IntegerAttr(m.dim, i64)
    m.middle.body.block.add_ops([zero, whole, loop])

    # the panel's whole-K fill and buffer leave the tile pipeline
    offsets = [v for v in m.fill.operands if isinstance(v, SSAValue)]
    Rewriter.erase_op(m.fill)
    erase_dead(offsets)
    if not any(isinstance(o, ktdf.DataTransferOp) for o in fill_stage.walk()):
        drop_stage(m.tile, fill_stage)
    # (dropping the stage rebuilt the private: the panel's value is its buffer's place)
    panel = next(r for r, b in _buffers(m.tile).items() if b is m.panel_op)
    drop_resources(m.tile, {panel})
    # the sums zeroed in a stage of their own before the chunks: the stage order makes the
    # zeros land before the first chunk reads them
    zero_compute = next(p for p in zero_nest.walk() if isinstance(p, ktdf.PipelineOp))
    units = [u for s in zero_compute.stages for u in s.units]
    insert_stage_before(m.tile, m.middle, units, [zero_nest])
    return reserve


def _chunk_buffer(m: _Matmul, decision: str) -> ktdf.BufferOp:
    """The panel's buffer for one chunk: the chunk decision along the reduction dim."""
    old = m.panel_op
    dims = old.tile_dim_values()
    dims[m.dim] = decision
    mtype = old.result.type
    shape = [DYNAMIC_INDEX if r.position == m.dim else s  # type: ignore[attr-defined]
             for r, s in zip(old.access_map.data.results, mtype.get_shape())]
    return ktdf.BufferOp(old.role.data, old.operand.data, old.access_map, dims,
                         MemRefType(mtype.element_type, shape, memory_space=mtype.memory_space))


def _chunk_fill(m: _Matmul, chunk: SSAValue, start: SSAValue,
                size: SSAValue) -> list[Operation]:
    """The tile pipeline's DMA of the panel, moving one chunk: the source offset along
    the reduction dim advanced by the chunk's start, the size along it the chunk's."""
    fill = m.fill
    stage = next(s for s in m.tile.stages if s.is_ancestor(fill))
    local = set(stage.walk())
    ops: list[Operation] = []
    subst: dict[SSAValue, SSAValue] = {}
    results = m.panel_op.access_map.data.results
    offsets: list[SSAValue | int] = []
    for value, r in zip(fill.mixed_source_offsets(), results):
        if isinstance(value, SSAValue):
            value = rebuild(value, subst, ops, lambda v: v.owner in local)
        if r.position == m.dim:  # type: ignore[attr-defined]
            if isinstance(value, int):
                const = index_constant(value)
                ops.append(const)
                value = const.result
            add = arith.AddiOp(value, start)
            ops.append(add)
            value = add.result
        offsets.append(value)

    def sizes(values):
        out = []
        for v, r in zip(values, results):
            if r.position == m.dim:  # type: ignore[attr-defined]
                out.append(size)
            elif isinstance(v, SSAValue):
                out.append(rebuild(v, subst, ops, lambda x: x.owner in local))
            else:
                out.append(v)
        return out

    ops.append(ktdf.DataTransferOp(fill.source, offsets, sizes(fill.mixed_source_sizes()),
                                   chunk, [0] * len(results), sizes(fill.mixed_dest_sizes())))
    return ops


def _read_sums(m: _Matmul, size: SSAValue, start: SSAValue, chunk: SSAValue) -> None:
    """The compute walks one chunk and starts from the sums so far: the load stage reads
    the accumulator's block of the sums buffer into a new FIFO before the chunk's
    operands, the matrix stage takes it as the accumulator's initial value."""
    load, matrix, _ = m.compute.stages
    write, reduction, carried = m.write, m.loads, m.sums
    out_slot = write.source.type
    assert isinstance(out_slot, ktdf.FifoSlotType)
    slot_type = ktdf.FifoSlotType(load.units[0], matrix.units[0], out_slot.get_shape(),
                                  out_slot.element_type)
    slot = add_resource(m.compute, ktdf.FifoOp(slot_type))
    # reading the block back: the store's transfer, reversed
    read = ktdf.DataTransferOp(write.dest, write.mixed_dest_offsets(),
                               write.mixed_dest_sizes(), slot, [],
                               write.mixed_source_sizes())
    Rewriter.insert_op(read, InsertPoint.before(reduction))
    for t in [t for t in reduction.walk() if isinstance(t, ktdf.DataTransferOp)
              and t.source is m.panel]:
        t.operands[0] = chunk
    reduction.operands[1] = size
    chunk_positions(reduction, start, size, {chunk})
    fill = carried.iter_args[0].owner
    assert isinstance(fill, FillOp)
    result_type = fill.results[0].type
    assert isinstance(result_type, TensorType)
    take = ktdf.ReadFromFifoOp.build(operands=[slot], result_types=[result_type])
    Rewriter.insert_op(take, InsertPoint.before(carried))
    fill.results[0].replace_all_uses_with(take.result)
    empty = fill.outputs[0]
    Rewriter.erase_op(fill)
    if isinstance(empty.owner, tensor.EmptyOp) and not empty.uses:
        Rewriter.erase_op(empty.owner)
    carried.operands[1] = size
    chunk_positions(carried, start, size, {chunk})


def _zero_nest(nest: Operation, prefix: str) -> Operation:
    """The point loops of the compute around a compute that zeroes each block of the sums
    buffer (the matrix unit's accumulator initialisation, stored as the compute stores
    its result)."""
    copy = nest.clone()
    compute = next(p for p in copy.walk() if isinstance(p, ktdf.PipelineOp)
                   and COMPUTE_ATTR in p.attributes)
    _, cmatrix, cstore = compute.stages
    cwrite = next(t for t in cstore.walk() if isinstance(t, ktdf.DataTransferOp))
    cfill = next(f for f in cmatrix.walk() if isinstance(f, FillOp))
    fifo = ktdf.FifoOp(cwrite.source.type)  # type: ignore[arg-type]
    empty = cfill.outputs[0].owner
    zero_ops: list[Operation] = []
    if isinstance(empty, tensor.EmptyOp):
        empty.detach()
        zero_ops.append(empty)
    cfill.detach()
    zero_ops.append(cfill)
    zero_ops.append(ktdf.WriteToFifoOp.build(operands=[cfill.results[0], fifo.results[0]]))
    cwrite.detach()
    cwrite.operands[0] = fifo.results[0]
    zeroing = pipeline([fifo], [(cmatrix.units, zero_ops), (cstore.units, [cwrite])],
                       {COMPUTE_ATTR: StringAttr(f"{prefix}.zero"),
                        ACCUMULATOR_INIT_ATTR: StringAttr(prefix)})
    Rewriter.replace_op(compute, zeroing)
    return copy
