"""Pass 8b, fuse-tile-loops: run a compute's consumer tile by tile inside its tile loop.

A program with several computes runs them as the stages of one run-once pipeline
(docs/scheduleir.md, section 9): the second compute's stage waits for the whole first
one, so a matmul's result is converted and stored only once every product is done, and
all of it crosses the device-memory port at the end of the program (a matmul 512^3 on
spyre: ~2,000 cycles after the last product). When the second compute reads what the
first wrote only inside its own tile, tile `i` of the second can run as soon as tile `i`
of the first is done:

    stage A: for t0 step T0 { for t1 step T1 { pipeline P { dma in; compute 1 -> %s } } }
    stage B: for u0 step U0 { for u1 step U1 { pipeline Q { compute 2 (%s) -> out; dma out } } }

becomes one loop nest whose tile pipeline runs both, in order, per tile:

    stage A: for t0 step T0 { for t1 step T1 {
                 pipeline P { dma in; compute 1 -> %s; compute 2 (%s) -> out; dma out } } }

The intermediate %s stays whole in the run-once pipeline's private (its tiles are
written and read in place, at the same positions as before; tile-intermediates then
holds it one tile at a time); the two tile decisions of
each dim become one (the larger minimum, the least common multiple of the
divisibilities), so both computes' tiles are the same boxes. The tile pipeline's stages
then overlap across tiles like any tile pipeline's (its modulo, opened later, lets the
next tile's DMA-in run ahead), and the output of tile `i` leaves while tile `i + 1` is
computed.

Fused only when that is exact: two consecutive stages, the second waiting for the first
alone; both stages a nest of the same tile loops (dims, bounds) around one tile
pipeline, with nothing before it but index arithmetic and tile decisions, the second
with no hoisted fill of its own; every read by the second stage of what the first
writes a read of an intermediate of the run-once pipeline indexing each dim by that
dim's tile (`linearize_index` of the tile loop's index), the first writing it the same
way; the second stage reading no other memory the first writes and writing none the
first reads or writes (kernel views on two different pointer arguments are apart;
views on scratchpad addresses are assumed to meet), so no order through memory is
lost across tiles; the tile decisions compatible, and not such that the merged one
leaves a single tile of everything where the first compute had several (a row sum's
rounding tiles its rows, its stick dim, in whole vectors: fused, the sum would lose the
tiles its DMA overlaps with and gain no overlap, having no next tile). Anything else is
left as it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import scf
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, MemRefType, ModuleOp, StringAttr, i64
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from spyre_sched.dialects import ktdf
from spyre_sched.schedule.common import constant_value, programs
from spyre_sched.schedule.ir_build import (
    _segments,
    add_resource,
    drop_resources,
    drop_stage,
    loop_dim,
    refresh_units,
)

NAME = "fuse-tile-loops"


@dataclass
class TileNest:
    """A stage's tile loop nest: the loops outermost first, the tile pipeline inside,
    the reserve_size op of each loop's step and the derive_size op of each loop's tile."""

    loops: list[scf.ForOp]
    pipe: ktdf.PipelineOp
    sizes: list[ktdf.ReserveSizeOp]
    derived: list[ktdf.DeriveSizeOp]


def _tile_nest(first: Operation) -> TileNest | None:
    """The tile loop nest starting at loop `first`: each loop's body is its tile's
    derive_size, then the next loop or the tile pipeline (nothing else)."""
    loops: list[scf.ForOp] = []
    sizes: list[ktdf.ReserveSizeOp] = []
    derived: list[ktdf.DeriveSizeOp] = []
    op: Operation = first
    while isinstance(op, scf.ForOp):
        if loop_dim(op) is None or ktdf.is_reduction_loop(op) or op.iter_args:
            return None
        step = op.step.owner
        if not isinstance(step, ktdf.ReserveSizeOp):
            return None
        body = [o for o in op.body.block.ops if not isinstance(o, scf.YieldOp)]
        if len(body) != 2 or not isinstance(body[0], ktdf.DeriveSizeOp) \
                or body[0].offset != op.body.block.args[0] or body[0].size != op.step:
            return None
        loops.append(op)
        sizes.append(step)
        derived.append(body[0])
        op = body[1]
    if not loops or not isinstance(op, ktdf.PipelineOp) or op.private is None:
        return None
    return TileNest(loops, op, sizes, derived)


def stage_nest(stage: ktdf.StageOp, allow_hoisted: bool) -> TileNest | None:
    """The tile loop nest a compute's stage runs: the last op of its body (after
    constants and tile decisions), or, where `allow_hoisted`, the last op of the last
    stage of a run-once pipeline that fills hoisted inputs first."""
    ops = list(stage.body.block.ops)
    if not ops:
        return None
    last = ops[-1]
    # before the nest only index arithmetic and tile decisions: nothing that moves data
    # (the second stage's are moved ahead of the first's)
    if not all(o.name.startswith("arith.") or isinstance(o, ktdf.ReserveSizeOp) for o in ops[:-1]):
        return None
    if isinstance(last, ktdf.PipelineOp) and allow_hoisted:
        inner = last.stages[-1] if last.stages else None
        if inner is None:
            return None
        body = list(inner.body.block.ops)
        if len(body) != 1:
            return None
        last = body[0]
    return _tile_nest(last)


def _same_loops(a: TileNest, b: TileNest) -> bool:
    if len(a.loops) != len(b.loops):
        return False
    for la, lb_, sa, sb in zip(a.loops, b.loops, a.sizes, b.sizes):
        if loop_dim(la) != loop_dim(lb_):
            return False
        if constant_value(la.lb) != 0 or constant_value(lb_.lb) != 0:
            return False
        ua, ub = constant_value(la.ub), constant_value(lb_.ub)
        if ua is None or ua != ub or sa.extent.value.data != ua or sb.extent.value.data != ub:
            return False
        if sa.within != sb.within:
            return False
    return True


def _transfers(root: Operation) -> list[ktdf.DataTransferOp]:
    return [t for t in root.walk() if isinstance(t, ktdf.DataTransferOp)]


def _is_memory(value: SSAValue) -> bool:
    """A kernel view or a buffer (not a FIFO slot)."""
    return isinstance(value.type, MemRefType)


def _may_alias(a: SSAValue, b: SSAValue) -> bool:
    """Whether two memories may share bytes: a buffer only with itself; kernel views
    built on two different pointer arguments never; anything else (views on constant
    scratchpad addresses, a value of unknown origin) may."""
    if a is b:
        return True
    if isinstance(a.owner, ktdf.PrivateOp) or isinstance(b.owner, ktdf.PrivateOp):
        return False
    bases = []
    for v in (a, b):
        owner = v.owner
        if isinstance(owner, Operation) and owner.name == "ktdp.construct_memory_view":
            v = owner.operands[0]
        if not isinstance(v, BlockArgument):
            return True
        bases.append(v)
    return bases[0] is bases[1]


def tile_points(offsets, nest: TileNest) -> list[SSAValue] | None:
    """The point `p` of each offset when offset `k` is `linearize_index(tile index of
    loop k, p)` for the loop at the same depth as the buffer dim (the tile loops walk the
    buffer's dims in order); None when any is not."""
    if len(offsets) != len(nest.loops):
        return None
    points = []
    for offset, loop in zip(offsets, nest.loops):
        if not isinstance(offset, SSAValue):
            return None
        owner = offset.owner
        if not isinstance(owner, ktdf.LinearizeIndexOp) \
                or owner.tile_index != loop.body.block.args[0]:
            return None
        points.append(owner.point_index)
    return points


def _tile_local(offsets, nest: TileNest) -> bool:
    return tile_points(offsets, nest) is not None


def _fusable(s1: ktdf.StageOp, s2: ktdf.StageOp, outer: ktdf.PipelineOp) -> tuple[TileNest, TileNest] | None:
    # the second waits for the first alone, so what waited for it waits for the fused stage
    if not s2.depends_in or not set(s2.depends_in) <= set(s1.depends_out):
        return None
    n1 = stage_nest(s1, allow_hoisted=True)
    n2 = stage_nest(s2, allow_hoisted=False)
    if n1 is None or n2 is None or not _same_loops(n1, n2):
        return None
    if n1.pipe.modulo is not None or n2.pipe.modulo is not None:
        return None
    assert outer.private is not None
    intermediates = set(outer.private.res)
    writes1 = _transfers(s1)
    written = {t.dest for t in writes1 if _is_memory(t.dest)}
    touched = written | {t.source for t in writes1 if _is_memory(t.source)}
    for t in _transfers(s2):
        if t.source in written:
            # an intermediate of the run-once pipeline, read inside the tile
            if t.source not in intermediates or not _tile_local(list(t.mixed_source_offsets()), n2):
                return None
        elif _is_memory(t.source) and any(_may_alias(t.source, w) for w in written):
            return None  # read through device memory (or a scratchpad view) after a write
        if _is_memory(t.dest) and any(_may_alias(t.dest, m) for m in touched):
            return None  # a write the first stage's later tiles would see
    for t in writes1:
        if t.dest in intermediates and any(t.dest == r.source for r in _transfers(s2)):
            if not _tile_local(list(t.mixed_dest_offsets()), n1):
                return None
    merged = [_merged(a, b)[0] for a, b in zip(n1.sizes, n2.sizes)]
    extents = [a.extent.value.data for a in n1.sizes]
    if any(low > extent for low, extent in zip(merged, extents)):
        return None
    if all(low >= extent for low, extent in zip(merged, extents)) and any(
            a.min_value.value.data < a.extent.value.data for a in n1.sizes):
        # the second's tiles would force one tile of everything on the first: fused, the
        # second could not overlap the first's next tile (there is none), and the first
        # would lose the tiles its own pipeline overlaps with
        return None
    return n1, n2


def _merged(a: ktdf.ReserveSizeOp, b: ktdf.ReserveSizeOp) -> tuple[int, int]:
    div = math.lcm(a.divisibility.value.data, b.divisibility.value.data)
    low = max(a.min_value.value.data, b.min_value.value.data)
    extent = a.extent.value.data
    rounded = -(-low // div) * div
    return (rounded if rounded <= extent else extent if low <= extent else low), div


def _rename_tile_dims(root: Operation, names: dict[str, str]) -> None:
    for op in root.walk():
        if isinstance(op, ktdf.BufferOp):
            dims = [StringAttr(names.get(d.data, d.data)) if isinstance(d, StringAttr) else d
                    for d in op.tile_dims.data]
            op.tile_dims = ArrayAttr(dims)


def fuse(outer: ktdf.PipelineOp, s1: ktdf.StageOp, s2: ktdf.StageOp, n1: TileNest, n2: TileNest,
         fn: Operation) -> None:
    # one tile decision per dim, legal for both computes
    names = {}
    for a, b in zip(n1.sizes, n2.sizes):
        low, div = _merged(a, b)
        a.min_value = IntegerAttr(low, i64)
        a.divisibility = IntegerAttr(div, i64)
        names[b.decision.data] = a.decision.data
        b.result.replace_all_uses_with(a.result)
    for l1, l2, d1, d2 in zip(n1.loops, n2.loops, n1.derived, n2.derived):
        l2.body.block.args[0].replace_all_uses_with(l1.body.block.args[0])
        d2.result.replace_all_uses_with(d1.result)
    # what the second stage computes before its nest (constants) goes ahead of the first's
    head = s1.body.block.first_op
    assert head is not None
    for op in list(s2.body.block.ops)[:-1]:
        if isinstance(op, ktdf.ReserveSizeOp) and op in n2.sizes:
            continue
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(head))
    # the second tile pipeline's resources and stages join the first's, after a token
    p, q = n1.pipe, n2.pipe
    assert q.private is not None
    makers = [o for o in q.private.body.block.ops if not isinstance(o, ktdf.PrivateYieldOp)]
    for old, maker in zip(list(q.private.res), makers):
        maker.detach()
        # each addition rebuilds the private (and redirects the uses of its results)
        old.replace_all_uses_with(add_resource(p, maker))
    token = add_resource(p, ktdf.TokenOp())
    last = p.stages[-1]
    _set_depends(last, list(last.depends_in), [*last.depends_out, token])
    q_stages = list(q.stages)
    for k, stage in enumerate(q_stages):
        stage.detach()
        if k == 0:
            _set_depends(stage, [token, *stage.depends_in], list(stage.depends_out))
        p.body.block.add_op(stage)
    Rewriter.erase_op(q)
    _rename_tile_dims(p, names)
    # the second stage is now its emptied nest and dead decisions: drop it
    drop_stage(outer, s2)
    stale = [t for t in s1.depends_out
             if not any(t in other.depends_in for other in outer.stages if other is not s1)]
    if stale:
        _set_depends(s1, list(s1.depends_in), [t for t in s1.depends_out if t not in stale])
        drop_resources(outer, {t for t in stale if not t.uses})
    refresh_units(fn)


def _set_depends(stage: ktdf.StageOp, ins: list[SSAValue], outs: list[SSAValue]) -> None:
    stage.operands = [*ins, *outs]
    stage.properties["operandSegmentSizes"] = _segments(len(ins), len(outs))


def fuse_program(fn: Operation) -> int:
    """Fuse every consecutive compute stage pair of `fn`'s run-once pipelines that can
    be; returns how many pairs were fused."""
    fused = 0
    changed = True
    while changed:
        changed = False
        for outer in [p for p in fn.walk() if isinstance(p, ktdf.PipelineOp)]:
            if outer.modulo is not None or outer.private is None:
                continue
            stages = list(outer.stages)
            for s1, s2 in zip(stages, stages[1:]):
                found = _fusable(s1, s2, outer)
                if found is not None:
                    fuse(outer, s1, s2, *found, fn)
                    fused += 1
                    changed = True
                    break
            if changed:
                break
    return fused


@dataclass(frozen=True)
class FuseTileLoops(ModulePass):
    """Run a compute that reads its predecessor's result tile by tile in the
    predecessor's tile loop."""

    name = NAME

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _, fn in list(programs(op)):
            fuse_program(fn)
