"""Pass 8c, tile-intermediates: hold a compute's result one tile at a time.

After fuse-tile-loops a matmul and the compute that reads its result run in one tile
pipeline, but the result (the intermediate `%s`) is still a buffer of the run-once
pipeline around the tile loops, as large as the program's whole tile: a 128 x 4096 f32
accumulator, 2 MiB per core, more than a spyre scratchpad holds next to the operands,
for a 4096^3 matmul. Every tile writes and reads only its own box of it, so a buffer of
one tile does:

    pipeline { private { %s = buffer <128x4096xf32> }
      for t0 step T0 { for t1 step T1 { pipeline modulo(?) {
          ... to %s[linearize(t0, p0), linearize(t1, p1)]  ...
          ... from %s[linearize(t0, q0), linearize(t1, q1)] ... } } } }

becomes

    for t0 step T0 { for t1 step T1 { pipeline modulo(?) { private { %s = buffer <T0xT1xf32> }
          ... to %s[p0, p1] ... from %s[q0, q1] ... } } }

The buffer joins the tile pipeline's private like its input and output tiles: sized by
the tile decisions (the solver bounds it with the others against the scratchpad) and
given one slot per stage in flight when the pipeline's modulo is opened, so tile `i+1`'s
product is written while tile `i`'s is read.

Exact only when each point is written and read in the same tile: every transfer of the
buffer is inside the one tile pipeline and indexes each dim `d` by
`linearize_index(tile index of the loop of dim d, point)`, the same box for all of them
(the tile loops partition the buffer, so what a tile reads of it that tile wrote); the
writes come in stages before the reads. Anything else keeps its whole buffer.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import programs
from spyre_sched.schedule.fuse_tile_loops import TileNest, stage_nest, tile_points
from spyre_sched.schedule.ir_build import add_resource, drop_resources, loop_dim

NAME = "tile-intermediates"

def _stage_of(op: Operation, pipe: ktdf.PipelineOp) -> int:
    stages = list(pipe.stages)
    parent: Operation | None = op
    while parent is not None and parent.parent_op() is not pipe:
        parent = parent.parent_op()
    return stages.index(parent)  # type: ignore[arg-type]


def _tileable(value: SSAValue, buffer: ktdf.BufferOp,
              nest: TileNest) -> list[tuple[ktdf.DataTransferOp, bool]] | None:
    """The transfers of `value` (the private's result for `buffer`), and whether each
    writes it, when they all index it tile-locally inside `nest`'s tile pipeline, writes
    before reads; else None."""
    amap = buffer.access_map.data
    rank = len(nest.loops)
    if amap != AffineMap.identity(rank) or len(value.type.get_shape()) != rank:
        return None
    if any(loop_dim(loop) != d for d, loop in enumerate(nest.loops)):
        return None
    uses: list[tuple[ktdf.DataTransferOp, bool]] = []
    for use in value.uses:
        t = use.operation
        if not isinstance(t, ktdf.DataTransferOp) or not nest.pipe.is_ancestor(t):
            return None
        writes = t.dest == value
        if writes == (t.source == value):
            return None  # a copy within the buffer
        offsets = t.mixed_dest_offsets() if writes else t.mixed_source_offsets()
        if tile_points(offsets, nest) is None:
            return None
        uses.append((t, writes))
    if not any(w for _, w in uses) or all(w for _, w in uses):
        return None
    last_write = max(_stage_of(t, nest.pipe) for t, w in uses if w)
    first_read = min(_stage_of(t, nest.pipe) for t, w in uses if not w)
    return uses if last_write < first_read else None


def _retarget(t: ktdf.DataTransferOp, writes: bool, tile: SSAValue, nest: TileNest) -> None:
    source, dest = t.source, t.dest
    s_off, d_off = t.mixed_source_offsets(), t.mixed_dest_offsets()
    if writes:
        dest, d_off = tile, tile_points(d_off, nest)
    else:
        source, s_off = tile, tile_points(s_off, nest)
    new = ktdf.DataTransferOp(source, s_off, t.mixed_source_sizes(), dest, d_off,  # type: ignore[arg-type]
                              t.mixed_dest_sizes(),
                              t.transfer_mode.data if t.transfer_mode is not None else None)
    new.attributes.update(t.attributes)
    Rewriter.replace_op(t, new)


def tile_program(fn: Operation) -> int:
    """Move every tile-local intermediate of `fn`'s run-once pipelines into the tile
    pipeline that uses it, one tile large; returns how many moved."""
    moved = 0
    # each move rebuilds the run-once pipeline's private (its results are new values),
    # so the search starts again after every move
    while _move_one(fn):
        moved += 1
    return moved


def _move_one(fn: Operation) -> bool:
    for outer in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)]:
        if outer.modulo is not None or outer.private is None:
            continue
        nests = [n for n in (stage_nest(s, allow_hoisted=True) for s in outer.stages) if n]
        makers = [o for o in outer.private.body.block.ops if not isinstance(o, ktdf.PrivateYieldOp)]
        for old, buffer in zip(outer.private.res, makers):
            if not isinstance(buffer, ktdf.BufferOp) or buffer.role.data != "intermediate":
                continue
            for nest in nests:
                uses = _tileable(old, buffer, nest)
                if uses is None:
                    continue
                mtype = old.type
                dims = [size.decision.data for size in nest.sizes]
                tile = ktdf.BufferOp("intermediate", buffer.operand.data,
                                     AffineMapAttr(AffineMap.identity(len(dims))), dims,
                                     MemRefType(mtype.element_type, [DYNAMIC_INDEX] * len(dims),
                                                memory_space=mtype.memory_space))
                value = add_resource(nest.pipe, tile)
                for t, writes in uses:
                    _retarget(t, writes, value, nest)
                drop_resources(outer, {old})
                return True
    return False


@dataclass(frozen=True)
class TileIntermediates(ModulePass):
    """Hold an intermediate that every tile writes and reads only in its own box one
    tile at a time, in the tile pipeline."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _, fn in list(programs(op)):
            tile_program(fn)
