"""Pass 6, nest-by-memory-level: an outer pipeline of whole tiles per scratchpad level.

After path expansion every stage runs once per vector. For the memory level farthest
from the compute that holds staging buffers (then the next, recursively), this pass:

- reserves a tile size per loop dim (`ktdf.tiling.reserve_size`, decision
  `<prefix>.tile.<level>.d<k>`; the stick dim in whole vectors), and splits each loop into
  a tile loop (step = the tile size, `derive_size` giving the tile's extent) and a point
  loop over the tile;
- builds, in the tile loops, an outer pipeline whose private holds that level's buffers,
  now one tile each: the stages that fill them from farther away (DMA in) and drain them
  (DMA out) move a whole tile at once; the stages joined by FIFOs, which must advance
  together, go into one middle stage that runs the point loops around the remaining
  (inner) pipeline.

Reduction dims are not tiled here: a level's buffer holds the whole reduction extent
(chunking is the reductions pass's business). No memory hierarchy is assumed: the levels
are whatever memories path expansion staged through.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import constant_value, device_of, fail, index_constant, programs
from spyre_sched.schedule.ir_build import (
    for_loop,
    loop_dim,
    pipeline,
    rebuild,
    refresh_units,
)
from spyre_sched.schedule.naive_pipeline import COMPUTE_ATTR

NAME = "nest-by-memory-level"
#: the fifo ends only a compute stage has (a compute with no input, such as a stored
#: constant, reads no fifo but writes one)
_FIFO_ENDS = ("ktdf.read_from_fifo", "ktdf.write_to_fifo")


@dataclass
class _Loop:
    op: scf.ForOp
    dim: int
    extent: int
    within: str | None

    @property
    def iv(self) -> SSAValue:
        return self.op.body.block.args[0]


def _loops_around(pipe: ktdf.PipelineOp) -> list[scf.ForOp]:
    """The scheduler's dim loops directly around `pipe`, outermost first."""
    loops = []
    parent = pipe.parent_op()
    while isinstance(parent, scf.ForOp) and loop_dim(parent) is not None:
        loops.append(parent)
        parent = parent.parent_op()
    return loops[::-1]


def _extent_of(loop: scf.ForOp) -> tuple[int, str | None]:
    """A loop's full extent, and the decision bounding it when it walks a tile."""
    upper = constant_value(loop.ub)
    if upper is not None:
        return upper, None
    owner = loop.ub.owner
    if isinstance(owner, ktdf.DeriveSizeOp) and isinstance(owner.size.owner, ktdf.ReserveSizeOp):
        parent = owner.size.owner
        return parent.extent.value.data, parent.decision.data
    raise fail(loop, NAME, "cannot tell the extent of a loop (its bound is neither a "
               "constant nor a tile extent)")


def _buffer_levels(pipe: ktdf.PipelineOp, stages: list[ktdf.StageOp]) -> list[str]:
    """Memory kinds of the pipeline's staging buffers, farthest from the compute first."""
    private = pipe.private
    assert private is not None
    buffers = {r: op for r, op in zip(private.res, [o for o in private.body.block.ops])
               if isinstance(op, ktdf.BufferOp)}
    compute = next(k for k, s in enumerate(stages)
                   if any(op.name in _FIFO_ENDS for op in s.walk()))
    distance: dict[str, int] = {}
    for k, stage in enumerate(stages):
        for t in stage.walk():
            if not isinstance(t, ktdf.DataTransferOp):
                continue
            for side in (t.source, t.dest):
                if side in buffers:
                    kind = buffers[side].memory
                    distance[kind] = max(distance.get(kind, 0), abs(k - compute))
    return sorted(distance, key=lambda kind: -distance[kind])


def nest(pipe: ktdf.PipelineOp, level: str) -> ktdf.PipelineOp:
    """Nest `pipe` by memory level `level`; returns the new inner pipeline."""
    prefix = pipe.attributes[COMPUTE_ATTR].data  # type: ignore[attr-defined]
    orig_loops = _loops_around(pipe)
    if not orig_loops:
        raise fail(pipe, NAME, "a buffered pipeline with no loop around it")
    loops = []
    for op in orig_loops:
        extent, within = _extent_of(op)
        loops.append(_Loop(op, loop_dim(op), extent, within))  # type: ignore[arg-type]
    private = pipe.private
    assert private is not None
    stages = pipe.stages
    made = [op for op in private.body.block.ops if not isinstance(op, ktdf.PrivateYieldOp)]
    level_buffers = {r: op for r, op in zip(private.res, made)
                     if isinstance(op, ktdf.BufferOp) and op.memory == level}
    inner_resources = [(r, op) for r, op in zip(private.res, made)
                       if r not in level_buffers and not isinstance(op, ktdf.TokenOp)]

    def touches(stage, as_dest: bool) -> bool:
        return any(isinstance(t, ktdf.DataTransferOp)
                   and (t.dest if as_dest else t.source) in level_buffers
                   and not isinstance((t.source if as_dest else t.dest).type, ktdf.FifoSlotType)
                   for t in stage.walk())

    compute = next(k for k, s in enumerate(stages)
                   if any(o.name in _FIFO_ENDS for o in s.walk()))
    first_inner = max([k + 1 for k, s in enumerate(stages[:compute]) if touches(s, True)],
                      default=0)
    first_out = min([k for k, s in enumerate(stages) if k > compute and touches(s, False)],
                    default=len(stages))
    outer_in, inner, outer_out = stages[:first_inner], stages[first_inner:first_out], stages[first_out:]

    # Reservations and tile loops -----------------------------------------------------
    kind = level.lower()
    reserves: dict[int, ktdf.ReserveSizeOp] = {}
    head: list[Operation] = []
    for loop in loops:
        step = constant_value(loop.op.step) or 1
        low = min(step, loop.extent)
        reserve = ktdf.ReserveSizeOp(f"{prefix}.tile.{kind}.d{loop.dim}", loop.extent, low, low,
                                     within=loop.within)
        reserve.result.name_hint = f"T{loop.dim}"
        reserves[loop.dim] = reserve
        head.append(reserve)

    old_ops = set(pipe.walk()) | {o for loop in orig_loops for o in loop.walk()}

    def local(value: SSAValue) -> bool:
        return value.owner in old_ops or any(
            value in b.args for loop in orig_loops for b in loop.body.blocks)

    # A reduction dim is not tiled here: the buffer holds its whole extent.
    reduction_extents = {loop_dim(o): constant_value(o.ub) for o in pipe.walk()
                         if isinstance(o, scf.ForOp) and ktdf.is_reduction_loop(o)}
    new_buffers: dict[SSAValue, ktdf.BufferOp] = {}
    for value, op in level_buffers.items():
        dims = [reserves[d].decision.data if d in reserves
                else reduction_extents.get(d) or _full_extent(op, d, loops)
                for d in range(len(op.tile_dims.data))]
        shape = [DYNAMIC_INDEX if isinstance(dims[r.position], str) else dims[r.position]  # type: ignore[attr-defined]
                 for r in op.access_map.data.results]
        mtype = op.result.type
        new_buffers[value] = ktdf.BufferOp(op.role.data, op.operand.data, op.access_map, dims,
                                           MemRefType(mtype.element_type, shape,
                                                      memory_space=mtype.memory_space))

    def tile_level(tiles: dict[int, SSAValue], sizes: dict[int, SSAValue]):
        def stage_ops(stage: ktdf.StageOp) -> list[Operation]:
            ops: list[Operation] = []
            subst: dict[SSAValue, SSAValue] = {}
            for loop in loops:
                subst[loop.iv] = tiles[loop.dim]
            zero = None
            for op in stage.walk():
                if isinstance(op, scf.ForOp) and ktdf.is_reduction_loop(op):
                    if zero is None:
                        zero = index_constant(0)
                        ops.append(zero)
                    subst[op.body.block.args[0]] = zero.result
            for t in [o for o in stage.walk() if isinstance(o, ktdf.DataTransferOp)]:
                ops.append(_tile_transfer(t, level_buffers, new_buffers, subst, sizes, ops, local))
            return ops
        return stage_ops

    def build_tile_body(tiles: dict[int, SSAValue], sizes: dict[int, SSAValue]) -> list[Operation]:
        stage_ops = tile_level(tiles, sizes)
        bodies = [(s.units, stage_ops(s)) for s in outer_in]
        bodies.append(([], [*_point_nest(loops, tiles, sizes, pipe, inner, inner_resources,
                                         level_buffers, new_buffers)]))
        bodies += [(s.units, stage_ops(s)) for s in outer_out]
        return [pipeline(list(new_buffers.values()), bodies)]

    def tile_nest(k: int, tiles, sizes) -> list[Operation]:
        if k == len(loops):
            return build_tile_body(tiles, sizes)
        loop = loops[k]
        reserve = reserves[loop.dim]

        def body(iv: SSAValue) -> list[Operation]:
            iv.name_hint = f"t{loop.dim}"
            size = ktdf.DeriveSizeOp(iv, reserve.result, loop.op.ub)
            size.result.name_hint = f"n{loop.dim}"
            return [size, *tile_nest(k + 1, {**tiles, loop.dim: iv},
                                     {**sizes, loop.dim: size.result})]

        return [for_loop(loop.op.lb, loop.op.ub, reserve.result, loop.dim,
                         ktdf.is_reduction_loop(loop.op), body)]

    new_ops = [*head, *tile_nest(0, {}, {})]
    outer = orig_loops[0]
    Rewriter.insert_op(new_ops, InsertPoint.before(outer))
    inner_pipe = next(op for op in new_ops[-1].walk() if isinstance(op, ktdf.PipelineOp)
                      and COMPUTE_ATTR in op.attributes)
    Rewriter.erase_op(outer, safe_erase=False)
    return inner_pipe


def _full_extent(buffer: ktdf.BufferOp, dim: int, loops: list[_Loop]) -> int:
    """A dim not tiled at this level keeps what the buffer already covered."""
    value = buffer.tile_dim_values()[dim]
    return value if isinstance(value, int) else 1


def _tile_transfer(t: ktdf.DataTransferOp, level_buffers, new_buffers, subst, sizes, ops,
                   local) -> ktdf.DataTransferOp:
    """One transfer of a whole tile: the level buffer side from 0, the far side from the
    tile's first element, sizes the tile's extents."""
    buffer_side = t.dest if t.dest in level_buffers else t.source
    buffer = level_buffers[buffer_side]
    new_buffer = new_buffers[buffer_side].result
    extents = []
    for r, declared in zip(buffer.access_map.data.results, _shape_dims(new_buffers[buffer_side])):
        d = r.position  # type: ignore[attr-defined]
        extents.append(sizes[d] if d in sizes else declared)
    zeros = [0] * len(extents)

    def far(offsets):
        return [rebuild(v, subst, ops, local) if isinstance(v, SSAValue) else v for v in offsets]

    if t.dest in level_buffers:
        return ktdf.DataTransferOp(t.source, far(t.mixed_source_offsets()), extents,
                                   new_buffer, zeros, extents)
    return ktdf.DataTransferOp(new_buffer, zeros, extents, t.dest, far(t.mixed_dest_offsets()),
                               extents)


def _shape_dims(buffer: ktdf.BufferOp) -> list[int]:
    """Per buffer dim, the fixed extent of its tile dim (1 when it is a decision)."""
    values = buffer.tile_dim_values()
    return [values[r.position] if isinstance(values[r.position], int) else 1  # type: ignore[attr-defined]
            for r in buffer.access_map.data.results]


def _point_nest(loops: list[_Loop], tiles, sizes, pipe: ktdf.PipelineOp, inner, inner_resources,
                level_buffers, new_buffers) -> list[Operation]:
    """Point loops over the tile around the FIFO-joined stages (the inner pipeline)."""
    prologue: dict[int, list[Operation]] = {}
    for k, loop in enumerate(loops):
        prologue[k] = [op for op in loop.op.body.block.ops
                       if not isinstance(op, scf.ForOp | scf.YieldOp | ktdf.PipelineOp)]

    def nest(k: int, mapping: dict[SSAValue, SSAValue], points: dict[int, SSAValue]) -> list[Operation]:
        if k == len(loops):
            return [_inner_pipeline(pipe, inner, inner_resources, level_buffers, new_buffers,
                                    mapping, points)]
        loop = loops[k]

        def body(iv: SSAValue) -> list[Operation]:
            iv.name_hint = f"p{loop.dim}"
            lin = ktdf.LinearizeIndexOp(tiles[loop.dim], iv)
            local_map = {**mapping, loop.iv: lin.result}
            ops: list[Operation] = [lin]
            for op in prologue[k]:
                clone = op.clone(value_mapper=local_map)
                ops.append(clone)
            return [*ops, *nest(k + 1, local_map, {**points, loop.dim: iv})]

        return [for_loop(loop.op.lb, sizes[loop.dim], loop.op.step, loop.dim,
                         ktdf.is_reduction_loop(loop.op), body)]

    return nest(0, {}, {})


def _inner_pipeline(pipe, inner, inner_resources, level_buffers, new_buffers, mapping,
                    points) -> ktdf.PipelineOp:
    resources = [op.clone() for _, op in inner_resources]
    mapping = dict(mapping)
    for (value, _), clone in zip(inner_resources, resources):
        mapping[value] = clone.results[0]
    for value, new in new_buffers.items():
        mapping[value] = new.result
    bodies = []
    for stage in inner:
        ops = [op.clone(value_mapper=mapping) for op in stage.body.block.ops]
        holder = Block(ops)
        for t in [o for o in holder.walk() if isinstance(o, ktdf.DataTransferOp)]:
            _point_subscripts(t, level_buffers, new_buffers, points)
        ops = list(holder.ops)
        for op in ops:
            op.detach()
        bodies.append((stage.units, ops))
    return pipeline(resources, bodies, dict(pipe.attributes))


def _point_subscripts(t: ktdf.DataTransferOp, level_buffers, new_buffers, points) -> None:
    """A level buffer is indexed by the point's position in the tile (reduction dims by
    the reduction loop index: the buffer holds the whole reduction)."""
    by_value = {new.result: level_buffers[old] for old, new in new_buffers.items()}
    offsets = {}
    for is_source, side in ((True, t.source), (False, t.dest)):
        if side in by_value:
            offsets[is_source] = [points[r.position] if r.position in points  # type: ignore[attr-defined]
                                  else _reduction_iv(t, r.position)  # type: ignore[attr-defined]
                                  for r in by_value[side].access_map.data.results]
    if not offsets:
        return
    mode = t.mode if t.mode != "copy" else None
    new = ktdf.DataTransferOp(t.source, offsets.get(True, t.mixed_source_offsets()),
                              t.mixed_source_sizes(), t.dest,
                              offsets.get(False, t.mixed_dest_offsets()), t.mixed_dest_sizes(), mode)
    Rewriter.replace_op(t, new)


def _reduction_iv(op: Operation, dim: int) -> SSAValue | int:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp) and loop_dim(parent) == dim:
            return parent.body.block.args[0]
        parent = parent.parent_op()
    return 0


@dataclass(frozen=True)
class NestByMemoryLevel(ModulePass):
    """Tile loops and an outer pipeline of whole tiles per staging memory level."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        device_of(op, NAME)
        for _, fn in list(programs(op)):
            for pipe in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)
                         and COMPUTE_ATTR in p.attributes]:
                current = pipe
                for level in _buffer_levels(pipe, pipe.stages):
                    current = nest(current, level)
            refresh_units(fn)
